"""How many more (or fewer) of what is there a request asks for."""

from __future__ import annotations

import pytest

from mock_account.world.changes import CHANGES_IT, count_more


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Add two more, the sales team wants them too.", 2),
        ("They want 15 more on that.", 15),
        ("Make it three fewer", -3),
        ("a dozen more please", 12),
        # A comparison is no count to add, nor money more.
        ("We need more than 5 people", None),
        ("It costs 5 EUR more", None),
        ("Book a room", None),
    ],
)
def test_count_more(text: str, count: int | None) -> None:
    assert count_more(text) == count


@pytest.mark.parametrize("text", ["Add two more", "They want 15 more on that", "ten fewer"])
def test_a_count_more_changes_what_is_there(text: str) -> None:
    assert CHANGES_IT.search(text)
