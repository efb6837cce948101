"""Durations, and shifts of a saved date with their sign and the end they move."""

from __future__ import annotations

import pytest
from understanding_data import TODAY

from mock_account.understanding import extract_facts


@pytest.mark.parametrize(
    ("text", "amount", "unit", "days"),
    [
        ("a hotel for three nights", 3, "night", 3),
        ("for two days", 2, "day", 2),
        ("I need a week off", 1, "week", 7),
        ("two weeks of leave", 2, "week", 14),
        ("a fortnight in Spain", 2, "week", 14),
        ("a meeting for 3 hours", 3, "hour", None),
        ("90 minutes", 90, "minute", None),
        ("half a day of training", 0.5, "day", None),
        ("a couple of days", 2, "day", 2),
        ("a 3-night stay", 3, "night", 3),
        ("a two-week project", 2, "week", 14),
        ("by two days", 2, "day", 2),
        ("for 6 months", 6, "month", 180),
        ("five working days", 5, "day", 5),
    ],
)
def test_durations(text: str, amount: float, unit: str, days: int | None) -> None:
    facts = extract_facts(text, TODAY)
    assert [(d.amount, d.unit, d.days) for d in facts.durations] == [(amount, unit, days)]
    assert facts.shifts == ()


@pytest.mark.parametrize(
    ("text", "days", "applies_to"),
    [
        ("Push the trip back by a week", 7, "both"),
        ("push it back two days", 2, "both"),
        ("postpone the launch by 3 days", 3, "both"),
        ("delay the meeting by a day", 1, "both"),
        ("bring the meeting forward two days", -2, "both"),
        ("bring it forward by a week", -7, "both"),
        ("move it up by two days", -2, "both"),
        ("move the trip two days later", 2, "both"),
        ("can we do it a day earlier?", -1, "both"),
        ("extend by two days", 2, "end"),
        ("extend my stay by two nights", 2, "end"),
        ("shorten the trip by a day", -1, "end"),
        ("leave a day later", 1, "start"),
        ("check in a day later", 1, "start"),
        ("come back a day early", -1, "end"),
        ("return two days earlier", -2, "end"),
        ("stay two more nights", 2, "end"),
        ("add an extra night", 1, "end"),
    ],
)
def test_shifts(text: str, days: int, applies_to: str) -> None:
    facts = extract_facts(text, TODAY)
    assert [(s.days, s.applies_to) for s in facts.shifts] == [(days, applies_to)]
    assert facts.durations == ()
    for s in facts.shifts:
        assert text[s.span[0] : s.span[1]] == s.text


@pytest.mark.parametrize(
    "text",
    [
        "I'd like to stay for two nights",
        "leave for two days",
        "I flew out on Sunday for work, can I have a day back?",
    ],
)
def test_durations_that_are_not_shifts(text: str) -> None:
    facts = extract_facts(text, TODAY)
    assert facts.shifts == ()
    assert len(facts.durations) == 1


def test_a_stay_consumes_its_duration() -> None:
    facts = extract_facts("three nights from 9 December", TODAY)
    assert facts.durations == () and len(facts.date_ranges) == 1


def test_a_shift_does_not_swallow_the_place_it_moves() -> None:
    facts = extract_facts("Push the Lisbon trip back by a week and add an extra night", TODAY)
    assert [(s.days, s.applies_to) for s in facts.shifts] == [(7, "both"), (1, "end")]
    assert [p.name for p in facts.places] == ["Lisbon"]


def test_a_slip_by_a_length_of_time_moves_everything_later() -> None:
    facts = extract_facts("Kickoff slipped by a week. Move the whole trip.", TODAY)
    assert [(s.days, s.applies_to) for s in facts.shifts] == [(7, "both")]
    # Slipping something else is no move of a date.
    facts = extract_facts("I slipped a disc, need 3 days off", TODAY)
    assert facts.shifts == () and [d.days for d in facts.durations] == [3]
