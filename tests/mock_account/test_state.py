"""The checks a state passes before it is saved: exact JSON round trip and size."""

from __future__ import annotations

import pytest

from mock_account.state import StateInvalid, check_state, empty_state, parse_state


def state_with(conv=None, agents=None):
    state = empty_state()
    state["conv"] = conv or {}
    state["agents"] = agents or {}
    return state


@pytest.mark.parametrize(
    ("conv", "agents", "place"),
    [
        (
            {"trip": {"dates": [1.0, float("nan")]}},
            None,
            "conv.trip.dates.1 is not a finite number",
        ),
        ({"trip": {"dates": {3, 4}}}, None, "conv.trip.dates holds a set"),
        ({"trip": {1: "x"}}, None, "conv.trip has a non-string key 1"),
        ({"trip": ("a", "b")}, None, "conv.trip holds a tuple"),
        ({"note": "bad \ud800 text"}, None, "conv.note contains a lone surrogate"),
        (None, {"a": {"x": float("inf")}}, "agent.x of agent 'a' is not a finite number"),
        (None, {"a": {"x": b"raw"}}, "agent.x of agent 'a' holds a bytes"),
    ],
)
def test_round_trip_failure_names_the_place(conv, agents, place) -> None:
    with pytest.raises(StateInvalid) as error:
        check_state(state_with(conv, agents))
    assert str(error.value).startswith(place)


def test_valid_state_round_trips_exactly() -> None:
    state = state_with({"trip": {"destination": "Zürich", "cost": 12.5, "legs": [1, None, True]}})
    data = check_state(state)
    assert parse_state(data) == state


def test_size_limit_is_enforced_with_a_clear_message() -> None:
    state = state_with({"blob": "x" * 2000})
    check_state(state, max_bytes=4096)
    with pytest.raises(StateInvalid, match="over the limit of 1000 bytes"):
        check_state(state, max_bytes=1000)


def test_parse_state_refuses_what_is_not_a_state() -> None:
    with pytest.raises(StateInvalid):
        parse_state(b'{"conv": {}}')
