"""A new hire's onboarding saves their first day, and a flight booked for them without a date
is for it: "Book her a flight to Berlin for her first week" flew her on a day drawn at random,
weeks before she joins."""

from __future__ import annotations

from handoff_journeys import run_agent, state_of

ONBOARD = "Our new hire Sofia Marin starts on 11 January as a data analyst in London"


def _onboarded(deployment, user) -> str:
    result = run_agent(deployment, user, "StartNewHireOnboarding", ONBOARD, None)
    employee = state_of(deployment, user, result.convid)["conv"]["employee"]
    assert employee["joins_on"] == "2027-01-11" and employee["location"] == "London"
    return result.convid


def test_a_new_hires_flight_is_for_their_first_day(deployment, user) -> None:
    convid = _onboarded(deployment, user)
    request = "Book her a flight to Berlin for her first week"
    text = run_agent(deployment, user, "BookTravelForColleague", request, convid).parts[0]["text"]
    assert text.startswith("I booked flight ") and " from London to Berlin on 2027-01-11" in text


def test_a_date_said_wins_over_the_first_day(deployment, user) -> None:
    convid = _onboarded(deployment, user)
    request = "Book her a flight to Berlin on 20 January"
    text = run_agent(deployment, user, "BookTravelForColleague", request, convid).parts[0]["text"]
    assert " from London to Berlin on 2027-01-20" in text, text
