"""The hand-off graph: reads, writes, writers, readers and edges."""

from __future__ import annotations

import yaml
from checker_samples import HEADER, HR_AGENT, VALID_AGENT

from agents_catalog.graph import agent_io, build_handoff_graph, variable_refs
from agents_catalog.loader import parse_agent_text

EVERY_KIND_OF_READ = HEADER.replace("BookBusinessTrip", "Everything") + (
    "  - if:\n"
    "      when: {exists: conv.ticket}\n"
    "      then: [{output: '{conv.order.id}'}]\n"
    "      else: [{if: {when: {missing: conv.customer}}}]\n"
    "  - if: {when: {left: '{conv.invoice.status}', op: '==', right: '{conv.expense.id}'}}\n"
    "  - for: {each: conv.contract, as: c, do: [{output: '{c.id}'}]}\n"
    "  - var: {name: agent.note, value: {who: '{conv.vendor.name}'}}\n"
    "  - var: {name: conv.campaign.budget, value: 10}\n"
    "  - prompt: {name: chat, system: 'Known: {conv.incident.summary}'}\n"
    "  - func: {name: helper, args: {x: '{conv.candidate.name}'}}\n"
    "functions:\n"
    "  helper:\n"
    "    - var: {name: conv.employee, value: {id: EMP-00001, name: Ann}}\n"
    "    - return: {value: '{conv.trip}'}\n"
)


def test_every_kind_of_read_and_write() -> None:
    io = agent_io(yaml.safe_load(EVERY_KIND_OF_READ))
    assert io.name == "Everything"
    assert io.reads == {
        "ticket", "order", "customer", "invoice", "expense", "contract",
        "vendor", "incident", "candidate", "trip",
    }  # fmt: skip
    assert io.writes == {"campaign", "employee"}
    # Written whole: conv.employee; conv.campaign.budget only adds to a saved campaign.
    assert io.replaces == {"employee"}


def test_refs_are_located() -> None:
    refs = variable_refs(yaml.safe_load(VALID_AGENT))
    assert [(r.access, r.path, r.where) for r in refs] == [
        ("write", "conv.trip", ("main", 2, "var", "name")),
        ("read", "conv.employee", ("main", 3, "if", "when", "exists")),
        ("read", "conv.employee.name", ("main", 3, "if", "then", 0, "var", "value")),
        ("read", "conv.trip.destination", ("main", 4, "llm", "reply")),
    ]


def test_graph_from_models_and_raw_data_agree() -> None:
    models = [parse_agent_text(t)[0] for t in (VALID_AGENT, HR_AGENT)]
    raw = [yaml.safe_load(t) for t in (VALID_AGENT, HR_AGENT)]
    assert build_handoff_graph(models) == build_handoff_graph(raw)


def test_writers_readers_and_edges() -> None:
    graph = build_handoff_graph(parse_agent_text(t)[0] for t in (VALID_AGENT, HR_AGENT))
    assert graph.writers("trip") == ["BookBusinessTrip"]
    assert graph.readers("conv.trip") == ["BookBusinessTrip", "FindColleague"]
    assert graph.writers("employee") == ["FindColleague"]
    assert graph.readers("vendor") == []
    # an agent reading its own write is no hand-off
    assert graph.edges() == [
        ("FindColleague", "employee", "BookBusinessTrip"),
        ("BookBusinessTrip", "trip", "FindColleague"),
    ]
    assert graph.agents["FindColleague"].writes == {"employee"}


def test_to_dict_lists_requested_variables() -> None:
    graph = build_handoff_graph([yaml.safe_load(HR_AGENT)])
    data = graph.to_dict(["vendor"])
    assert data["variables"]["vendor"] == {"writers": [], "readers": []}
    assert data["agents"]["FindColleague"] == {"reads": ["trip"], "writes": ["employee"]}
    assert data["edges"] == []


def test_malformed_data_is_tolerated() -> None:
    assert variable_refs({"main": "not a list"}) == []
    assert variable_refs({"main": [None, {"a": 1, "b": 2}, {"var": "x"}]}) == []
