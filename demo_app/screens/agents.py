"""Agents: the 200 agents by department, a search playground and the hand-off graph."""

from __future__ import annotations

import streamlit as st

from demo_app import ui_session as session
from demo_app.graph_dot import overview_rows, variable_dot
from demo_app.views import ClientError
from demo_app.widgets import score_column

ALL = "All departments"
FIRST_DEPARTMENT = "travel"  # where the first starter request goes
# The largest variable (conv.customer, 30 agents) still fits one 1280×720 screen.
GRAPH_HEIGHT_PX = 560


def _table() -> None:
    catalog = session.catalog()
    cols = st.columns([1, 2])
    options = [ALL, *catalog.departments()]
    department = cols[0].selectbox(
        "Department",
        options,
        # One department at first: the whole account is 200 rows.
        index=options.index(FIRST_DEPARTMENT) if FIRST_DEPARTMENT in options else 0,
        key="agents-dept",
    )
    text = cols[1].text_input("Filter by name, title or description", key="agents-filter")
    needle = text.strip().lower()
    rows = []
    for agent in sorted(catalog.agents.values(), key=lambda a: (a.tag, a.name)):
        if department != ALL and agent.tag != department:
            continue
        haystack = f"{agent.name} {agent.title} {agent.description}".lower()
        if needle and needle not in haystack:
            continue
        io = catalog.graph.agents.get(agent.name)
        rows.append(
            {
                "department": agent.tag,
                "agent": agent.name,
                "title": agent.title,
                "writes conv.": ", ".join(sorted(io.writes)) if io else "",
                "reads conv.": ", ".join(sorted(io.reads)) if io else "",
            }
        )
    st.caption(f"{len(rows)} of {len(catalog.agents)} agents")
    # A static table: its rows are the agents (no blank filler) and long titles wrap (a
    # scrolling grid cut them at its column's edge).
    st.table(rows)


def _playground() -> None:
    catalog = session.catalog()
    with st.form("search-playground"):
        query = st.text_input("Request", key="search-query", placeholder="Book a hotel in Lisbon")
        tag = st.selectbox("Only in department", [ALL, *catalog.departments()], key="search-tag")
        sent = st.form_submit_button("Search")
    if not sent:
        return
    try:
        matches = session.client().search(
            session.user_key(), query or "", None if tag == ALL else tag
        )
    except ClientError as exc:
        st.error(str(exc))
        return
    if not matches:
        st.warning("No agent matches that request (every score is under the match threshold).")
        return
    st.dataframe(
        [
            {
                "rank": rank,
                "agent": m.agent_name,
                "title": m.agent_title,
                "department": m.department,
                "score": m.score,
            }
            for rank, m in enumerate(matches, start=1)
        ],
        hide_index=True,
        width="stretch",
        column_config={"score": score_column()},
    )


def _graph() -> None:
    catalog = session.catalog()
    st.caption(
        "Agents hand work to each other through conversation variables: one agent writes "
        "`conv.trip`, a later one in the same conversation reads it. Which departments write "
        "and read each variable (how many agents each):"
    )
    st.table(overview_rows(catalog))
    variables = [f"conv.{v}" for v in catalog.graph.variables()]
    choice = st.selectbox(
        "Open a variable: its writer and reader agents",
        variables,
        index=variables.index("conv.trip") if "conv.trip" in variables else 0,
        key="graph-variable",
    )
    name = choice.removeprefix("conv.")
    st.caption(
        f"{len(catalog.graph.writers(name))} agents write {choice}, "
        f"{len(catalog.graph.readers(name))} read it (writers on the left, readers on the "
        "right, one box per department): a writer then a reader in one conversation is a "
        "hand-off."
    )
    st.graphviz_chart(variable_dot(catalog, name), width="stretch", height=GRAPH_HEIGHT_PX)


def main() -> None:
    st.title("Agents")
    tabs = st.tabs(["By department", "Search playground", "Hand-off graph"])
    with tabs[0]:
        _table()
    with tabs[1]:
        _playground()
    with tabs[2]:
        _graph()


try:
    main()
except ClientError as exc:
    st.error(str(exc))
