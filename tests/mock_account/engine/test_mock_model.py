"""The mock model writes the reply template as a person would read it."""

from __future__ import annotations

import pytest

from mock_account.engine.mock_model import MockModel


def said(reply: str) -> str:
    return MockModel().answer(agent="A", system="", messages=[], reply=reply)


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("Your claim of 84.5 EUR was sent.", "Your claim of 84.50 EUR was sent."),
        ("A room at 4509.03 NOK per night.", "A room at 4509.03 NOK per night."),
        ("Version 1.5 ships today, 12.5 km away.", "Version 1.5 ships today, 12.5 km away."),
        ("Sent.  {gap} ", "Sent. {gap}"),
        ("   ", "Done."),
    ],
)
def test_answer_reads_as_written(reply: str, answer: str) -> None:
    assert said(reply) == answer


def test_gaps_and_spaces_before_stops_are_closed() -> None:
    assert said("Booked Berlin  . I used the trip  , as saved.") == (
        "Booked Berlin. I used the trip, as saved."
    )
