"""Journey planning: follow-ups hand off along the graph, asks get answers, streams are read."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable

import pytest

from loadtests.journeys import JourneyPlanner, answer_ask, read_stream


@pytest.fixture(scope="module")
def planner() -> JourneyPlanner:
    return JourneyPlanner.from_account()


def test_first_requests_are_examples_of_agents_that_hand_something_on(
    planner: JourneyPlanner,
) -> None:
    rng = random.Random(1)
    for _ in range(20):
        request = planner.first_request(rng)
        assert request.query in planner.examples[request.agent]
        writes = planner.graph.agents[request.agent].writes
        assert any(set(planner.graph.readers(v)) - {request.agent} for v in writes)


def test_no_conversation_opens_with_a_change_of_it(planner: JourneyPlanner) -> None:
    # "Make it a sev1 and escalate it" is an example of the incident agent, but a first
    # message of it matches no agent: a channel run counted it as a failed request.
    incident = "DeclareProductionIncident"
    assert (
        "Make it a sev1 and escalate it, we need the whole team on it"
        in (planner.examples[incident])
    )
    rng = random.Random(3)
    firsts = {planner.first_request(rng).query for _ in range(2000)}
    assert not any(q.startswith("Make it a sev1") for q in firsts)
    assert any(q in planner.examples[incident] for q in firsts)


def test_follow_ups_go_to_a_reader_of_what_the_last_agent_wrote(planner: JourneyPlanner) -> None:
    rng = random.Random(2)
    for _ in range(20):
        first = planner.first_request(rng)
        follow = planner.follow_up(first.agent, rng)
        assert follow.via in planner.graph.agents[first.agent].writes
        assert follow.agent in planner.graph.readers(follow.via)
        assert follow.agent != first.agent
        assert follow.query in planner.examples[follow.agent]


def test_an_agent_that_writes_nothing_is_followed_by_any_agent(planner: JourneyPlanner) -> None:
    silent = next(n for n, io in planner.graph.agents.items() if not io.writes)
    follow = planner.follow_up(silent, random.Random(3))
    assert follow.via is None and follow.query in planner.examples[follow.agent]


def test_asks_are_answered_with_defaults_then_first_options() -> None:
    ask = {
        "message": "?",
        "inputs": [
            {"name": "modules", "type": "chooseMany", "options": ["a", "b"], "default": ["b"]},
            {"name": "seat", "type": "chooseOne", "options": ["aisle", "window"]},
            {"name": "tags", "type": "chooseMany", "options": ["x", "y"]},
            {"name": "city", "type": "str", "default": "Berlin"},
            {"name": "pin", "type": "password"},
            {"name": "notes", "type": "text"},
        ],
    }
    answers = answer_ask(ask)
    assert answers["modules"] == ["b"]
    assert answers["seat"] == "aisle"
    assert answers["tags"] == ["x"]
    assert answers["city"] == "Berlin"
    assert answers["pin"] and answers["notes"]


def test_an_empty_account_folder_is_a_clear_error(tmp_path) -> None:  # noqa: ANN001
    with pytest.raises(ValueError, match="no agent files"):
        JourneyPlanner.from_account(tmp_path)


def _ticks() -> Callable[[], float]:
    counter = itertools.count(1)
    return lambda: float(next(counter))


def test_a_stream_is_read_across_chunks_with_its_first_and_final_line_timed() -> None:
    lines = [
        {"type": "progress", "value": "Running BookTrip"},
        {"type": "data", "value": {"contentType": "text", "text": "héllo"}},
        {"type": "noop"},
        {"type": "trace", "traceType": "serverTiming", "value": {"path": "run", "duration": 1.5}},
        {"type": "agent", "value": {"success": True, "resultCode": "success", "output": None}},
    ]
    raw = b"".join(json.dumps(line, ensure_ascii=False).encode() + b"\n" for line in lines)
    chunks = [raw[i : i + 7] for i in range(0, len(raw), 7)]  # cut mid-line, mid-character
    outcome = read_stream(chunks, started=0.0, clock=_ticks())
    assert outcome.problem is None
    assert outcome.lines == lines
    # One clock reading for the first chunk, then one per line.
    assert outcome.first_byte_s == 1.0
    assert outcome.first_line_s == 2.0 and outcome.final_line_s == 6.0
    assert outcome.final == {"success": True, "resultCode": "success", "output": None}
    assert outcome.phases_ms == {"run": 1.5}


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (b'{"type": "progress", "value": "x"}\n', "the stream ended without the final agent line"),
        (b'{"type": "noop"}\nnot json\n', "a line is not JSON"),
        (b"[1, 2]\n", "a line is not a typed JSON object"),
        (b'{"type": "agent", "value": {}}\n{"type": "noop"}\n', "a line came after the final"),
    ],
)
def test_a_broken_stream_says_what_is_wrong(raw: bytes, problem: str) -> None:
    outcome = read_stream([raw], started=0.0, clock=_ticks())
    assert outcome.problem is not None and outcome.problem.startswith(problem)
