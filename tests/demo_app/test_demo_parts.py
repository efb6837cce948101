"""The demo's building blocks: suggestions, graph views and state views."""

from __future__ import annotations

import pytest

from demo_app.catalog import load_catalog
from demo_app.first_screen import STARTERS
from demo_app.graph_dot import overview_rows, variable_dot
from demo_app.suggestions import suggest_followups
from demo_app.views import ClientError, Handoff, StateView, check_query, handoffs_from_runs


def test_followups_are_readers_of_what_the_last_agent_wrote() -> None:
    catalog = load_catalog()
    found = suggest_followups(catalog, "BookBusinessFlight")
    assert 2 <= len(found) <= 3
    assert len({s.agent for s in found}) == len(found)
    for suggestion in found:
        assert suggestion.variable == "conv.trip"
        assert suggestion.agent in catalog.graph.readers("trip")
        assert catalog.index.search(suggestion.request, limit=1)[0].agent_name == suggestion.agent


def test_agents_that_already_ran_come_last() -> None:
    catalog = load_catalog()
    first = suggest_followups(catalog, "BookBusinessFlight", limit=1)[0]
    again = suggest_followups(catalog, "BookBusinessFlight", already_ran={first.agent}, limit=1)
    assert again[0].agent != first.agent


def test_an_agent_that_writes_nothing_gets_no_suggestion() -> None:
    assert suggest_followups(load_catalog(), "BookBusinessFlight", written=[]) == []


def test_every_starter_reaches_an_agent_that_hands_something_on() -> None:
    catalog = load_catalog()
    for starter in STARTERS:
        agent = catalog.index.search(starter, limit=1)[0].agent_name
        assert catalog.graph.agents[agent].writes, agent
        assert suggest_followups(catalog, agent), agent


def test_graph_views_name_writers_and_readers() -> None:
    catalog = load_catalog()
    overview = {row["variable"]: row for row in overview_rows(catalog)}
    assert set(overview) == {f"conv.{v}" for v in catalog.graph.variables()}
    trip = overview["conv.trip"]
    assert trip["written in"] == "travel (11)"
    readers = catalog.graph.readers("trip")
    assert trip["agents"] == len(set(catalog.graph.writers("trip")) | set(readers))
    assert sum(int(part.split("(")[1].rstrip(")")) for part in trip["read in"].split(", ")) == len(
        readers
    )
    one = variable_dot(catalog, "conv.trip")
    for writer in catalog.graph.writers("trip"):
        node = f'"writes:{catalog.department(writer)}"'
        assert f'{node} -> "conv.trip"' in one and f"\\l{writer}\\l" in one
    for reader in catalog.graph.readers("trip"):
        assert f'"conv.trip" -> "reads:{catalog.department(reader)}"' in one
        assert f"\\l{reader}\\l" in one
    assert "conv.customer" not in one


def test_handoffs_come_from_reads_of_earlier_writes() -> None:
    runs = [
        {"agent": "BookBusinessFlight", "reads": [], "writes": ["trip"]},
        {"agent": "LookUpCustomerAccount", "reads": [], "writes": ["customer"]},
        {"agent": "SubmitExpenseClaim", "reads": ["trip", "customer", "order"], "writes": []},
    ]
    assert handoffs_from_runs(runs) == (
        Handoff("conv.trip", "BookBusinessFlight"),
        Handoff("conv.customer", "LookUpCustomerAccount"),
    )
    conv = {"trip": {"destination": "Oslo"}, "customer": {"name": "Kestrel Energy"}}
    assert [h.record for h in handoffs_from_runs(runs, conv)] == [
        {"destination": "Oslo"},
        {"name": "Kestrel Energy"},
    ]
    same_agent = [{"agent": "A", "writes": ["trip"]}, {"agent": "A", "reads": ["trip"]}]
    assert handoffs_from_runs(same_agent) == ()
    assert handoffs_from_runs([]) == ()


def test_state_view_reads_the_wire_format() -> None:
    view = StateView.from_wire(
        {
            "convid": "c" * 22,
            "state": {
                "runs": [{"agent": "A", "paused": {"stack": []}}],
                "prompts": {"chat": {"name": "chat", "scope": "conversation", "messages": []}},
                "conv": {"trip": {"destination": "Berlin"}},
                "agents": {"A": {"count": 1}},
            },
            "record": {
                "size": 90,
                "keyId": "k1",
                "formatVersion": 1,
                "stateVersion": 2,
                "hexPreview": "5332",
            },
        }
    )
    assert view.paused_run == {"agent": "A", "paused": {"stack": []}}
    assert view.last_agent == "A"
    assert view.prompts[0].scope == "conversation"
    assert view.record is not None and view.record.key_id == "k1"


@pytest.mark.parametrize("query", ["", "  ", "7 chars", "x" * 10_001])
def test_check_query_refuses_what_the_api_refuses(query: str) -> None:
    with pytest.raises(ClientError):
        check_query(query)


def test_check_query_strips() -> None:
    assert check_query("  book a flight  ") == "book a flight"


def test_a_records_fields_are_listed_dotted_without_the_empty_ones() -> None:
    from demo_app.widgets import record_fields

    record = {
        "destination": "Berlin",
        "train": "",
        "cost": 1680.0,
        "hotel": {"name": "Station Plaza", "nights": 2, "notes": None},
        "travellers": ["Ann", "Bo"],
    }
    assert record_fields(record) == [
        ("destination", "Berlin"),
        ("cost", "1680"),
        ("hotel.name", "Station Plaza"),
        ("hotel.nights", "2"),
        ("travellers", "Ann, Bo"),
    ]
    assert record_fields("ORD-1") == [("value", "ORD-1")]


def test_a_runs_outcome_says_whether_it_saved_anything() -> None:
    from demo_app.views import run_outcome

    assert run_outcome("success", False, ["trip"]) == "done: saved conv.trip"
    assert run_outcome("success", False, ["conv.trip", "conv.expense"]) == (
        "done: saved conv.trip, conv.expense"
    )
    assert run_outcome("success", False, []) == "answered: no record saved"
    # What was last asked is kept by every run: it is no record.
    assert run_outcome("success", False, ["request"]) == "answered: no record saved"
    assert run_outcome("success", False, ["request", "trip"]) == "done: saved conv.trip"
    assert run_outcome("ask", True, []) == "asked: waiting for a form"
    assert run_outcome("errorInAgent", False, []) == "errorInAgent"
