"""The other pages: state inspector, conversations, agents, naming scheme, benchmark."""

from __future__ import annotations

import json

from demo_helpers import chat, texts
from streamlit.testing.v1 import AppTest

from demo_app.first_screen import PRODUCT_NAME

BERLIN = "I need to fly to Berlin next Tuesday for a client meeting"
EXPENSES = "file my travel expenses for that trip: 84.50 SGD of taxis"
OTHER_USER = "debra.jones@acme.example"


def _page(at: AppTest, name: str) -> AppTest:
    at.switch_page(f"screens/{name}.py").run()
    assert not at.exception, at.exception
    return at


def _conversation_rows(at: AppTest) -> list[str]:
    return [b.key.split(":", 1)[1] for b in at.button if b.key and b.key.startswith("open:")]


def test_inspector_shows_variables_paused_run_record_and_timings(app: AppTest) -> None:
    chat(app, BERLIN)
    chat(app, EXPENSES)  # SubmitExpenseClaim pauses on its ask
    convid = app.session_state["convid"]
    _page(app, "inspector")
    shown = texts(app)
    assert any("is paused on an ask" in t for t in shown)
    conv = app.get("json")[0]
    assert '"destination"' in conv.proto.body and "Berlin" in conv.proto.body
    assert any("chat · scope conversation" in e.proto.label for e in app.expander)
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Key id"] and metrics["State version"] == "2"
    assert metrics["Size"].endswith(" B")
    assert metrics["write"].endswith(" ms") and metrics["restore"].endswith(" ms")
    assert app.selectbox(key="inspector-convid").value == convid
    runs = app.dataframe[0].value
    assert list(runs["agent"]) == ["BookBusinessFlight", "SubmitExpenseClaim"]
    assert list(runs["paused"]) == ["", "yes"]


def test_a_run_that_only_asked_back_reads_as_such_and_every_json_view_holds_an_object(
    app: AppTest,
) -> None:
    chat(app, "Ship that order today")  # no order in this conversation: "Which order?"
    chat(app, BERLIN)
    _page(app, "inspector")
    runs = app.dataframe[0].value
    assert list(runs["outcome"]) == ["answered: no record saved", "done: saved conv.trip"]
    assert any(t.endswith("`data.orders` → nothing found") for t in texts(app))
    for view in app.get("json"):
        assert isinstance(json.loads(view.proto.body), dict | list), view.proto.body


def test_conversations_are_listed_newest_run_first_without_ids(app: AppTest) -> None:
    chat(app, BERLIN)
    older = app.session_state["convid"]
    app.button(key="new-conversation").click().run()
    chat(app, "Pull up the account for Hoffmann Logistics")
    newer = app.session_state["convid"]
    _page(app, "inspector")
    app.selectbox(key="inspector-convid").set_value(older).run()  # a look is a use, not a run
    _page(app, "conversations")
    rows = _conversation_rows(app)
    assert rows.index(newer) < rows.index(older)
    lines = [c.value for c in app.caption if str(c.value).startswith("last run ")]
    assert lines and all(older not in line and newer not in line for line in lines)
    assert lines == sorted(lines, reverse=True)


def test_inspector_without_conversation_says_so(app: AppTest) -> None:
    app.sidebar.selectbox(key="user").set_value("chad.davis@globex.example").run()
    _page(app, "inspector")
    assert any("No conversation yet" in t for t in texts(app))


def test_conversations_rename_pin_delete_and_user_isolation(app: AppTest) -> None:
    chat(app, BERLIN)
    convid = app.session_state["convid"]
    _page(app, "conversations")
    assert convid in _conversation_rows(app)

    app.text_input(key=f"title:{convid}").input("Berlin client trip")
    app.button(key=f"rename:{convid}").click().run()
    assert any("**Berlin client trip**" in t for t in texts(app))

    app.button(key=f"pin:{convid}").click().run()
    assert any(":material/push_pin: **Berlin client trip**" in t for t in texts(app))
    assert app.button(key=f"pin:{convid}").label == "Unpin"

    app.sidebar.selectbox(key="user").set_value(OTHER_USER).run()
    assert not app.exception
    assert convid not in _conversation_rows(app)
    assert app.session_state["convid"] is None

    app.sidebar.selectbox(key="user").set_value("mario.hernandez@acme.example").run()
    app.button(key=f"delete:{convid}").click().run()
    assert convid not in _conversation_rows(app)


def test_open_a_conversation_rebuilds_the_chat(app: AppTest) -> None:
    chat(app, BERLIN)
    convid = app.session_state["convid"]
    app.button(key="new-conversation").click().run()
    _page(app, "conversations")
    app.button(key=f"open:{convid}").click().run()
    assert not app.exception
    assert app.session_state["convid"] == convid
    assert app.title[0].value == PRODUCT_NAME  # the chat page's title
    assert BERLIN in texts(app)


def test_another_users_conversation_cannot_be_opened_in_the_inspector(app: AppTest) -> None:
    chat(app, BERLIN)
    convid = app.session_state["convid"]
    app.sidebar.selectbox(key="user").set_value(OTHER_USER).run()
    app.session_state["convid"] = convid  # as if the id had leaked to another user
    _page(app, "inspector")
    assert any("does not exist (or belongs to someone else)" in e.value for e in app.error)


def test_agents_page_filters_searches_and_draws_the_graph(app: AppTest) -> None:
    _page(app, "agents")
    agents = app.table[0].value  # one department at first, every agent a row
    assert set(agents["department"]) == {"travel"} and len(agents) == 20
    app.selectbox(key="agents-dept").set_value("All departments").run()
    assert len(app.table[0].value) == 200

    app.text_input(key="search-query").input("book a flight to Lisbon for a client visit")
    app.form[0].button[0].click().run()
    results = app.dataframe[0].value
    assert results["agent"].iloc[0] == "BookBusinessFlight"
    assert list(results["score"]) == sorted(results["score"], reverse=True)

    overview = app.table[1].value.set_index("variable")
    assert overview.loc["conv.trip", "written in"] == "travel (11)"
    assert overview.loc["conv.trip", "read in"].startswith("travel (12), finance (3)")
    graph = app.get("graphviz_chart")[0].proto.spec  # conv.trip opened at first
    assert '"writes:travel" -> "conv.trip"' in graph
    assert '"conv.trip" -> "reads:finance"' in graph
    app.selectbox(key="graph-variable").set_value("conv.order").run()
    graph = app.get("graphviz_chart")[0].proto.spec
    assert '"writes:sales" -> "conv.order"' in graph and "conv.trip" not in graph


def test_search_playground_refuses_a_short_request(app: AppTest) -> None:
    _page(app, "agents")
    app.text_input(key="search-query").input("hi")
    app.form[0].button[0].click().run()
    assert any("at least 8 characters" in e.value for e in app.error)


def test_naming_scheme_page_checks_a_pasted_agent(app: AppTest) -> None:
    _page(app, "naming_scheme")
    variables = app.dataframe[1].value
    assert "conv.trip" in set(variables["variable"])
    assert any("The account: 200 files checked, 0 errors" in s.value for s in app.success)
    app.button(key="check-agent").click().run()
    findings = app.dataframe[-1].value
    assert "conv.trip" in set(findings["did you mean"])
    assert "chat" in set(findings["did you mean"])
    assert any("pasted.yaml" in e.value for e in app.error)


def test_naming_scheme_page_reports_broken_yaml(app: AppTest) -> None:
    _page(app, "naming_scheme")
    app.text_area(key="agent-text").input("name: [unclosed")
    app.button(key="check-agent").click().run()
    assert "not valid YAML" in " ".join(app.dataframe[-1].value["message"])


def test_benchmark_page_runs_and_reports_percentiles(app: AppTest) -> None:
    _page(app, "benchmark")
    app.multiselect(key="b-sizes").set_value(["1 KB", "10 KB"])
    app.slider(key="b-reps").set_value(5)
    app.form[0].button[0].click().run()
    assert not app.exception
    table = app.dataframe[0].value
    assert len(table) == 6  # 2 sizes x encrypt / save / restore
    assert set(table["n"]) == {5}
    assert (table["p50 µs"] <= table["p99 µs"]).all()
    assert app.get("arrow_vega_lite_chart") or app.get("vega_lite_chart")
