"""Agents: the 200 agents by department, a search playground and the hand-off graph."""

from __future__ import annotations

import streamlit as st

from demo_app import ui_session as session
from demo_app.graph_dot import departments_dot, variable_dot
from demo_app.views import ClientError

ALL = "All departments"


def _table() -> None:
    catalog = session.catalog()
    cols = st.columns([1, 2])
    department = cols[0].selectbox("Department", [ALL, *catalog.departments()], key="agents-dept")
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
                "writes": ", ".join(f"conv.{v}" for v in sorted(io.writes)) if io else "",
                "reads": ", ".join(f"conv.{v}" for v in sorted(io.reads)) if io else "",
                "example": agent.examples[0] if agent.examples else "",
            }
        )
    st.caption(f"{len(rows)} of {len(catalog.agents)} agents")
    st.dataframe(rows, hide_index=True, use_container_width=True, height=420)


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
        use_container_width=True,
        column_config={"score": st.column_config.ProgressColumn("score", min_value=0, max_value=1)},
    )


def _graph() -> None:
    catalog = session.catalog()
    variables = catalog.graph.variables()
    choice = st.selectbox(
        "Show", ["Departments overview", *[f"conv.{v}" for v in variables]], key="graph-variable"
    )
    if choice == "Departments overview":
        st.caption(
            "Which departments write (left) and read (right) each conversation variable; "
            "edge labels count agents."
        )
        st.graphviz_chart(departments_dot(catalog), use_container_width=True)
    else:
        name = choice.removeprefix("conv.")
        st.caption(
            f"{len(catalog.graph.writers(name))} agents write {choice}, "
            f"{len(catalog.graph.readers(name))} read it: a writer then a reader in one "
            "conversation is a hand-off."
        )
        st.graphviz_chart(variable_dot(catalog, name), use_container_width=True)


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
