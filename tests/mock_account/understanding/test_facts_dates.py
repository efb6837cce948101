"""Dates, ranges, times and parts of day relative to a pinned today (Monday 2026-11-30)."""

from __future__ import annotations

import datetime as dt

import pytest
from understanding_data import TODAY

from mock_account.understanding import extract_facts

D = dt.date.fromisoformat


def _single(text: str, today: dt.date = TODAY):
    facts = extract_facts(text, today)
    assert not facts.date_ranges, facts.date_ranges
    assert len(facts.dates) == 1, facts.dates
    return facts.dates[0]


def _range(text: str, today: dt.date = TODAY):
    facts = extract_facts(text, today)
    assert len(facts.date_ranges) == 1, (facts.date_ranges, facts.dates)
    return facts.date_ranges[0]


SINGLE_DAYS = [
    # weekdays
    ("I need to fly to Berlin next Tuesday for a client meeting", "2026-12-08"),
    ("Book the room for Tuesday", "2026-12-01"),
    ("Can we meet on Tuesday?", "2026-12-01"),
    ("this Tuesday works", "2026-12-01"),
    ("this coming Friday", "2026-12-04"),
    ("Book me a flight to Oslo on Monday", "2026-12-07"),
    ("next Monday", "2026-12-07"),
    ("this Monday", "2026-11-30"),
    ("I forgot my receipt last Friday", "2026-11-27"),
    ("last Monday", "2026-11-23"),
    ("Friday next week", "2026-12-11"),
    ("Tuesday after next", "2026-12-15"),
    ("Wednesday of last week", "2026-11-25"),
    ("Monday 7 December", "2026-12-07"),
    ("see you Thurs", None),  # an abbreviation alone is not taken
    ("next Thurs", "2026-12-10"),
    ("on Sat", "2026-12-05"),
    ("I fly home Wed 2nd instead", "2026-12-02"),  # a short weekday before its day
    # an n-th weekday of a month
    ("they join on the first Monday of January", "2027-01-04"),
    ("the third Friday in December", "2026-12-18"),
    ("Left my phone in a taxi last night", "2026-11-29"),
    ("the report is due by 9/1", "2027-01-09"),
    ("it was due last fri", "2026-11-27"),  # lower case, with its qualifier
    ("delivery by end of Feb", "2027-02-28"),
    # relative days
    ("today", "2026-11-30"),
    ("tomorrow", "2026-12-01"),
    ("yesterday", "2026-11-29"),
    ("the day after tomorrow", "2026-12-02"),
    ("the day before yesterday", "2026-11-28"),
    ("in 3 days", "2026-12-03"),
    ("in two weeks", "2026-12-14"),
    ("in a month", "2026-12-30"),
    ("2 days ago", "2026-11-28"),
    ("three weeks ago", "2026-11-09"),
    ("a week from today", "2026-12-07"),
    ("two days from now", "2026-12-02"),
    ("a week from Monday", "2026-12-14"),
    ("two days from Thursday", "2026-12-05"),
    # absolute days, the year inferred forward
    ("December 7", "2026-12-07"),
    ("7 December", "2026-12-07"),
    ("Dec 7th", "2026-12-07"),
    ("the 7th of December", "2026-12-07"),
    ("7th Dec.", "2026-12-07"),
    ("December 1", "2026-12-01"),
    ("on 30 November", "2026-11-30"),
    ("on 29 November", "2027-11-29"),
    ("January 5", "2027-01-05"),
    ("5 Jan", "2027-01-05"),
    ("on the 3rd of January", "2027-01-03"),
    ("March 3", "2027-03-03"),
    ("Feb 29", "2028-02-29"),
    ("7 December 2027", "2027-12-07"),
    ("Jan 5th, 2026", "2026-01-05"),
    ("2026-12-07", "2026-12-07"),
    ("07/12/2026", "2026-12-07"),
    ("7.12.2026", "2026-12-07"),
    ("the 4th", "2026-12-04"),
    ("on the 30th", "2026-11-30"),
    ("the 31st", "2026-12-31"),
    # pointing back: "last", "ago", a verb in the past
    ("I paid for a taxi on 3 November", "2026-11-03"),
    ("the taxi I took on Friday", "2026-11-27"),
    ("I flew out on Sunday for work", "2026-11-29"),
    ("I paid the deposit on the 4th", "2026-11-04"),
    # An amount or a time between the verb and the day is no clause break.
    ("I paid 184.50 EUR for a client dinner in Milan on the 22nd", "2026-11-22"),
    ("I landed at 09:15 and took a taxi on the 4th", "2026-11-04"),
    ("I was told to book Friday", "2026-12-04"),  # intent after the past verb
    ("we hired an engineer who starts on the 14th", "2026-12-14"),
    ("We just hired Tomas Novak as a data engineer starting January 11", "2027-01-11"),
    ("we signed the contract, effective 1 February", "2027-02-01"),
    ("they asked for a meeting on Friday", "2026-12-04"),
    ("Can I take Friday the 11th off?", "2026-12-11"),
    ("Friday the 9th", "2026-12-09"),  # the day of the month wins over the weekday
    ("end of the month", "2026-11-30"),
    # A day of its own name is no weekday ("a Black Friday campaign" started on a Friday).
    ("Launch a Black Friday campaign starting 20 November", "2027-11-20"),
    ("Plan our Cyber Monday email", None),
    ("The Black Friday sale starts next Friday", "2026-12-11"),
    # The time given to do something ends on a day: the day it is due.
    ("It says we have 14 days to respond", "2026-12-14"),
]


@pytest.mark.parametrize(("text", "expected"), SINGLE_DAYS)
def test_single_days(text: str, expected: str | None) -> None:
    facts = extract_facts(text, TODAY)
    if expected is None:
        assert not facts.dates and not facts.date_ranges
        return
    assert _single(text).date == D(expected)


RANGES = [
    ("I'm on call this Sat and Sun", "2026-12-05", "2026-12-06"),
    ("Out on 18/12, back on 22/12.", "2026-12-18", "2026-12-22"),  # day first, no year
    ("Book me a business trip to Lisbon from December 7 to December 9", "2026-12-07", "2026-12-09"),
    ("from the 4th to the 6th of June", "2027-06-04", "2027-06-06"),
    ("14-16 December", "2026-12-14", "2026-12-16"),
    ("14–16 Dec", "2026-12-14", "2026-12-16"),
    ("December 7-9", "2026-12-07", "2026-12-09"),
    ("Dec 7th to 9th", "2026-12-07", "2026-12-09"),
    ("from 9 to 12 December", "2026-12-09", "2026-12-12"),
    ("between 3 and 5 December", "2026-12-03", "2026-12-05"),
    ("between 3 December and 5 December", "2026-12-03", "2026-12-05"),
    # Days in a row joined by "and" are the days ("next Thursday and Friday off" was Thursday).
    ("I'd like to take next Thursday and Friday off", "2026-12-10", "2026-12-11"),
    ("Book me Monday and Tuesday off", "2026-12-07", "2026-12-08"),
    ("I need 10 and 11 December off", "2026-12-10", "2026-12-11"),
    ("I'm off 9, 10 and 11 December", "2026-12-09", "2026-12-11"),
    ("off on the 10th and the 11th", "2026-12-10", "2026-12-11"),
    # A week named by one of its days is the week ("the week of 21 December off" was the 21st).
    ("I want to take the week of 21 December off", "2026-12-21", "2026-12-25"),
    ("a hotel for the week of Wednesday 16 December", "2026-12-14", "2026-12-18"),
    ("the week starting 9 December", "2026-12-09", "2026-12-13"),
    ("from 28 December to 3 January", "2026-12-28", "2027-01-03"),
    ("Dec 31 - Jan 2", "2026-12-31", "2027-01-02"),
    ("from 28 December to 3 January 2028", "2027-12-28", "2028-01-03"),
    ("from the 30th to the 2nd", "2026-11-30", "2026-12-02"),
    ("from Monday to Wednesday", "2026-12-07", "2026-12-09"),
    ("Thursday to Monday", "2026-12-03", "2026-12-07"),
    ("from tomorrow until Friday", "2026-12-01", "2026-12-04"),
    ("in Madrid from Tuesday to Thursday next week", "2026-12-08", "2026-12-10"),
    ("next Tuesday to Thursday", "2026-12-08", "2026-12-10"),
    ("2026-12-07 to 2026-12-09", "2026-12-07", "2026-12-09"),
    ("three nights from 9 December", "2026-12-09", "2026-12-12"),
    ("a hotel for 2 nights starting 9 December", "2026-12-09", "2026-12-11"),
    ("9 December for three nights", "2026-12-09", "2026-12-12"),
    ("for two days from Thursday", "2026-12-03", "2026-12-04"),
    ("for a week from Monday", "2026-12-07", "2026-12-13"),
    ("leaving 7 December, returning 9 December", "2026-12-07", "2026-12-09"),
    ("departing on Monday and coming back on Thursday", "2026-12-07", "2026-12-10"),
    ("next week", "2026-12-07", "2026-12-11"),
    ("this week", "2026-11-30", "2026-12-04"),
    ("last week's taxi receipt", "2026-11-23", "2026-11-27"),
    ("the week after next", "2026-12-14", "2026-12-18"),
    ("this weekend", "2026-12-05", "2026-12-06"),
    ("next weekend", "2026-12-12", "2026-12-13"),
    ("last weekend", "2026-11-28", "2026-11-29"),
    ("next month", "2026-12-01", "2026-12-31"),
    ("last month", "2026-10-01", "2026-10-31"),
    ("in March", "2027-03-01", "2027-03-31"),
    ("sometime in december", "2026-12-01", "2026-12-31"),
    ("in june please", "2027-06-01", "2027-06-30"),
    ("in November", "2026-11-01", "2026-11-30"),
    ("March 2027", "2027-03-01", "2027-03-31"),
    ("last March", "2026-03-01", "2026-03-31"),
    ("we spent far too much in March", "2026-03-01", "2026-03-31"),
    ("the contracts I signed in September", "2026-09-01", "2026-09-30"),
    ("a flight to Warsaw on 3 March, back on the 5th", "2027-03-03", "2027-03-05"),
    ("out on 7 December, back on Friday", "2026-12-07", "2026-12-11"),
    ("from March to May", "2027-03-01", "2027-05-31"),
    ("next year", "2027-01-01", "2027-12-31"),
    ("Q3 2026", "2026-07-01", "2026-09-30"),
    ("a report for Q3 in euros", "2026-07-01", "2026-09-30"),
    ("Q1", "2026-01-01", "2026-03-31"),
    ("next quarter", "2027-01-01", "2027-03-31"),
    ("the third quarter of 2025", "2025-07-01", "2025-09-30"),
    # Days of the month in a row, the second without its "the"; "the weekend of" them is them.
    ("in Penang the weekend of the 19th and 20th", "2026-12-19", "2026-12-20"),
    ("Book the 3rd to 5th", "2026-12-03", "2026-12-05"),
]


@pytest.mark.parametrize(("text", "start", "end"), RANGES)
def test_ranges(text: str, start: str, end: str) -> None:
    found = _range(text)
    assert (found.start, found.end) == (D(start), D(end))


@pytest.mark.parametrize(
    ("text", "days"),
    [
        # Days apart are those two days, not the days between them.
        ("Off Tuesday and Thursday", ["2026-12-01", "2026-12-03"]),
        # Not in a row with a shared month: the day that names it stands, as it did.
        ("Off 3 and 5 December", ["2026-12-05"]),
        ("Off the 8th and 10th", ["2026-12-08", "2026-12-10"]),
    ],
)
def test_days_apart_joined_by_and_are_no_range(text: str, days: list[str]) -> None:
    facts = extract_facts(text, TODAY)
    assert not facts.date_ranges, facts.date_ranges
    assert [d.date for d in facts.dates] == [D(day) for day in days]


def test_nights_and_days_of_a_stay() -> None:
    stay = _range("three nights from 9 December")
    assert (stay.kind, stay.nights, stay.days) == ("nights", 3, 4)
    assert _range("for two days from Thursday").kind == "days"
    assert _range("next week").kind == "week"
    assert _range("in March").kind == "month"


@pytest.mark.parametrize(
    ("today", "text", "expected"),
    [
        # around the new year
        (D("2026-12-28"), "January 5", "2027-01-05"),
        (D("2027-01-02"), "December 28", "2027-12-28"),
        (D("2027-01-02"), "I paid on 28 December", "2026-12-28"),
        (D("2026-12-31"), "tomorrow", "2027-01-01"),
        (D("2026-12-31"), "the 2nd", "2027-01-02"),
        # other weekdays as today
        (D("2026-12-06"), "next Tuesday", "2026-12-08"),
        (D("2026-12-04"), "next Friday", "2026-12-11"),
        (D("2026-12-04"), "last Friday", "2026-11-27"),
        (D("2026-12-01"), "on Tuesday", "2026-12-08"),
        (D("2026-12-03"), "this Tuesday", "2026-12-08"),
    ],
)
def test_other_todays(today: dt.date, text: str, expected: str) -> None:
    assert _single(text, today).date == D(expected)


def test_a_weekday_said_with_its_date_confirms_the_year() -> None:
    # A clause in the past tense ("I missed that…") would put 18 December last year; it is a
    # Friday this year.
    said = "I totally missed that I'm on call from Fri 18 Dec through Mon 21 Dec."
    found = _range(said, D("2026-12-07"))
    assert (found.start, found.end) == (D("2026-12-18"), D("2026-12-21"))


def test_range_over_the_new_year_from_late_december() -> None:
    found = _range("from 30 December to 2 January", D("2026-12-29"))
    assert (found.start, found.end) == (D("2026-12-30"), D("2027-01-02"))
    found = _range("next week", D("2026-12-27"))
    assert (found.start, found.end) == (D("2026-12-28"), D("2027-01-01"))


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("tomorrow morning", "morning"),
        ("Monday afternoon", "afternoon"),
        ("next Tuesday evening", "evening"),
        ("tonight", "night"),
        ("this morning", "morning"),
        ("on Friday in the morning", "morning"),
    ],
)
def test_parts_of_day(text: str, part: str) -> None:
    assert _single(text).part_of_day == part


@pytest.mark.parametrize(
    ("text", "date", "time"),
    [
        ("tomorrow at 3pm", "2026-12-01", "15:00"),
        ("Friday 14:00", "2026-12-04", "14:00"),
        ("at 9:30 am on 7 December", "2026-12-07", "09:30"),
        ("tomorrow morning at 9am", "2026-12-01", "09:00"),
    ],
)
def test_days_with_a_time(text: str, date: str, time: str) -> None:
    found = _single(text)
    assert found.date == D(date)
    assert found.time == dt.time.fromisoformat(time)


@pytest.mark.parametrize(
    ("text", "time"),
    [
        ("Book the room at 3pm", "15:00"),
        ("at 10:30", "10:30"),
        ("around noon", "12:00"),
        ("at 9 a.m.", "09:00"),
        ("at 7 o'clock", "07:00"),
    ],
)
def test_times_alone(text: str, time: str) -> None:
    facts = extract_facts(text, TODAY)
    assert not facts.dates
    assert [t.time for t in facts.times] == [dt.time.fromisoformat(time)]


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("I need it by Friday", "deadline"),
        ("due 5 December", "deadline"),
        ("no later than 10 December", "deadline"),
        ("within 3 days", "deadline"),
        ("starting 9 December", "start"),
        ("from 9 December", "start"),
        ("until Friday", "end"),
        ("on Monday", None),
    ],
)
def test_roles(text: str, role: str | None) -> None:
    assert _single(text).role == role


@pytest.mark.parametrize(
    "text",
    [
        "May I book a room?",
        "We march on regardless",
        "Put it on the 4th floor",
        "Sun Microsystems called",
        "I work on Mondays",
        "I need 3 monitors",
        "version 2.1.3 is out",
        "Jan Novak called about the invoice",
        "Meet August Schmidt at reception",
        "It was a good day",
        "Send me the weekly report",
        "the monthly budget",
        "I may need a hand",
        "we will march on",
        "in 2027",
        "I can do 1/2 of it",
    ],
)
def test_no_dates(text: str) -> None:
    facts = extract_facts(text, TODAY)
    assert not facts.dates and not facts.date_ranges, (facts.dates, facts.date_ranges)


def test_two_separate_days_stay_apart() -> None:
    facts = extract_facts("Fly out on 7 December and book a dinner for 12 December", TODAY)
    assert [d.date for d in facts.dates] == [D("2026-12-07"), D("2026-12-12")]
    assert not facts.date_ranges


def test_spans_point_at_the_text() -> None:
    text = "Book Lisbon from December 7 to December 9, then Oslo next Tuesday morning"
    facts = extract_facts(text, TODAY)
    for fact in (*facts.dates, *facts.date_ranges):
        assert text[fact.span[0] : fact.span[1]] == fact.text
    assert facts.date_range is not None and facts.date_range.text.startswith("from December 7")
    assert facts.date is not None and facts.date.text == "next Tuesday morning"


def test_an_end_day_counts_from_the_range_before_it() -> None:
    facts = extract_facts(
        "The Porto visit is set for 10-12 April, but I must stay through the 14th",
        TODAY,
    )
    assert [(r.start, r.end) for r in facts.date_ranges] == [(D("2027-04-10"), D("2027-04-12"))]
    assert [(d.date, d.role) for d in facts.dates] == [(D("2027-04-14"), "end")]


def test_a_sentence_end_is_not_part_of_a_month() -> None:
    facts = extract_facts("Starting in January. Then we will see.", TODAY)
    assert [r.text for r in facts.date_ranges] == ["January"]
