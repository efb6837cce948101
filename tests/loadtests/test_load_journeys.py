"""Journey planning: follow-ups hand off along the graph, asks get answers, Server-Timing parses."""

from __future__ import annotations

import random

import pytest

from loadtests.journeys import JourneyPlanner, answer_ask


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
