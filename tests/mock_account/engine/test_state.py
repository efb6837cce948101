"""The checks a state passes before it is saved: exact JSON round trip and size."""

from __future__ import annotations

import enum
import uuid
from datetime import UTC, datetime

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mock_account.engine.state import (
    _DUMPS_OPTIONS,
    MAX_DEPTH,
    StateInvalid,
    check_state,
    empty_state,
    parse_state,
)


class _Colour(enum.Enum):
    RED = "red"


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
        ({"n": [2**64]}, None, "conv.n.0 is an integer outside the 64-bit range"),
        ({"n": -(2**63) - 1}, None, "conv.n is an integer outside the 64-bit range"),
        ({"when": datetime(2026, 1, 1, tzinfo=UTC)}, None, "conv.when holds a datetime"),
        ({"id": uuid.UUID(int=7)}, None, "conv.id holds a UUID"),
        ({"colour": _Colour.RED}, None, "conv.colour holds a _Colour"),
        ({"trip": {"dates": [1.0, (2, 3)]}}, None, "conv.trip.dates.1 holds a tuple"),
        ({"x": float("-inf")}, None, "conv.x is not a finite number"),
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


def nested_lists(levels: int) -> list:
    outer: list = []
    inner = outer
    for _ in range(levels - 1):
        inner.append([])
        inner = inner[0]
    return outer


def test_nesting_up_to_the_limit_round_trips() -> None:
    # The state is level 1 and conv level 2, so conv.deep holds MAX_DEPTH - 2 levels.
    state = state_with({"deep": nested_lists(MAX_DEPTH - 2)})
    assert parse_state(check_state(state)) == state


def test_nesting_beyond_the_limit_names_the_place() -> None:
    state = state_with({"deep": nested_lists(MAX_DEPTH - 1)})
    with pytest.raises(StateInvalid, match=r"^conv\.deep(\.0)* nests deeper than 254 levels"):
        check_state(state)


def test_a_state_that_contains_itself_is_refused_with_a_place() -> None:
    loop: list = []
    loop.append(loop)
    with pytest.raises(StateInvalid, match=r"^conv\.loop(\.0)* nests deeper"):
        check_state(state_with({"loop": loop}))


def test_largest_64_bit_integers_round_trip() -> None:
    state = state_with({"big": [2**64 - 1, -(2**63)]})
    assert parse_state(check_state(state)) == state


def test_serialized_state_is_compact_utf8() -> None:
    data = check_state(state_with({"city": "Zürich", "n": [1, 2]}))
    assert b'"conv":{"city":"Z\xc3\xbcrich","n":[1,2]}' in data


class _Level(enum.IntEnum):
    HIGH = 3


class _Name(str):
    pass


def test_values_equal_after_the_round_trip_are_accepted_beyond_plain_types() -> None:
    # Not plain types, so the round trip itself decides, as it always has: they read back equal.
    state = state_with({"level": _Level.HIGH, "name": _Name("Zürich"), "legs": [[1.5, -0.0]]})
    assert parse_state(check_state(state)) == state


def test_a_problem_deep_in_plain_values_is_still_found() -> None:
    deep = state_with({"trip": [{"legs": [{"km": 1.0}, {"km": float("nan")}]}]})
    with pytest.raises(StateInvalid, match=r"^conv\.trip\.0\.legs\.1\.km is not a finite number"):
        check_state(deep)


def test_finite_floats_whose_sum_overflows_are_accepted() -> None:
    # The plain-value walk sums each level's floats; an overflow there only means "not sure".
    state = state_with({"big": [1.7e308, 1.7e308], "small": -1.7e308})
    assert parse_state(check_state(state)) == state


def test_a_subclass_deep_in_a_list_is_decided_by_the_round_trip() -> None:
    class Label(str):
        pass

    state = state_with({"legs": [[{"to": Label("Lisbon")}]]})
    assert parse_state(check_state(state)) == state


_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats()
    | st.text()
    | st.sampled_from([_Level.HIGH, _Colour.RED, _Name("x"), uuid.UUID(int=1)]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner)
        | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


def _round_trips(state: dict) -> bool:
    try:
        return orjson.loads(orjson.dumps(state, option=_DUMPS_OPTIONS)) == state
    except (TypeError, ValueError):
        return False


@settings(max_examples=300, deadline=None)
@given(_values)
def test_check_state_accepts_exactly_what_round_trips(value) -> None:
    state = state_with({"v": value})
    try:
        check_state(state)
        accepted = True
    except StateInvalid:
        accepted = False
    assert accepted == _round_trips(state)
