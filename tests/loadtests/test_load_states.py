"""States of a chosen size: exact size, a valid conversation state, clear errors."""

from __future__ import annotations

import pytest

from loadtests.states import build_state, parse_size, size_label
from mock_account.engine.state import check_state, parse_state, serialize_state


@pytest.mark.parametrize(
    "text, size",
    [("1KB", 1024), ("16kb", 16384), ("1MB", 1048576), ("3000", 3000), ("1.5KB", 1536)],
)
def test_parse_size(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "big", "12GB", "-1KB", "100"])
def test_parse_size_refuses_bad_sizes(text: str) -> None:
    with pytest.raises(ValueError, match="invalid size"):
        parse_size(text)


@pytest.mark.parametrize("size", [1024, 3000, 16384, 262144])
def test_state_has_the_exact_size_and_survives_the_save_checks(size: int) -> None:
    state = build_state(size)
    data = check_state(state)
    assert len(data) == size
    assert parse_state(data) == state
    assert state["runs"] and state["prompts"]["chat"]["messages"] and state["conv"]


def test_states_are_reproducible_and_hand_variables_on() -> None:
    state = build_state(16384)
    assert serialize_state(state) == serialize_state(build_state(16384))
    assert len(state["conv"]) > 1
    assert any(run["reads"] for run in state["runs"])


def test_size_label() -> None:
    assert [size_label(s) for s in (1024, 16384, 1048576, 1500)] == ["1KB", "16KB", "1MB", "1500B"]
