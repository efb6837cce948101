"""A day of the month said alone in a change is of the month of the day it changes."""

from __future__ import annotations

from datetime import date

import pytest

from mock_account.world.changes import day_of_its_month

JAN_4 = date(2027, 1, 4)


@pytest.mark.parametrize(
    ("said", "text", "meant"),
    [
        # Read from today (7 December) "the 11th" was 11 December, before the campaign began.
        (date(2026, 12, 11), "And push the start to the 11th", date(2027, 1, 11)),
        (date(2026, 12, 20), "Move it to the 20th", date(2027, 1, 20)),
        # Pushed later past the day of that month: the month after.
        (date(2026, 12, 2), "Push it to the 2nd", date(2027, 2, 2)),
        # A month named, or no day alone: as said.
        (date(2026, 12, 11), "Start on 11 December", date(2026, 12, 11)),
        (date(2026, 12, 11), "Move it to Friday", date(2026, 12, 11)),
    ],
)
def test_day_of_its_month(said: date, text: str, meant: date) -> None:
    assert day_of_its_month(said, text, JAN_4) == meant


def test_nothing_to_read_in() -> None:
    assert day_of_its_month(None, "push it to the 11th", JAN_4) is None
    assert day_of_its_month(date(2026, 12, 11), "push it to the 11th", None) == date(2026, 12, 11)
