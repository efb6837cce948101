"""A question gets its answer first: the hospitality clearance says whether the gift or the
hospitality asked about may be accepted, by what it is, before it logs it; the leave agent
answers a balance question with the balance, not with a leave request."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of

AGENT = "ClearGiftsAndHospitality"


@pytest.mark.parametrize(
    ("request_text", "verdict"),
    [
        ("Can I accept an invitation from Orion Retail to a football match?", "Yes, if the host"),
        ("Can I pay for the hotel of a government official visiting our plant?", "Not without"),
        ("A supplier offered me a 200 EUR gift card, can I take it?", "No: cash"),
        ("I want to give our client a bottle of wine, do I need to register it?", "Yes: a gift"),
        # The official decides it, even for tickets.
        ("Can I give match tickets to the customs officer?", "Not without"),
    ],
)
def test_the_answer_starts_with_the_verdict_on_what_is_asked(
    deployment, user, request_text: str, verdict: str
) -> None:
    text = answer_of(deployment, user, AGENT, request_text, None)
    assert text.startswith(verdict), text
    assert f"register for {user.name}" in text, text


def test_the_leave_agent_answers_a_balance_question_with_the_balance(deployment, user) -> None:
    asked = answer_of(
        deployment, user, "RequestTimeOff", "How many vacation days do I have left?", None
    )
    assert asked.startswith("You have ") and "days of annual leave left this year" in asked
    left = asked.removeprefix("You have ").split(" ")[0]
    booked = answer_of(
        deployment, user, "RequestTimeOff", "I want to take 3 days off from 22 December", None
    )
    assert booked.startswith("Your leave request from 2026-12-22 to 2026-12-24 was sent"), booked
    # The same user has the same balance in every conversation.
    again = answer_of(deployment, user, "RequestTimeOff", "What is my remaining allowance?", None)
    assert again.startswith(f"You have {left} days"), again


@pytest.mark.parametrize(
    ("request_text", "answer"),
    [
        ("Am I allowed to fly business class on a ten hour flight?", "Business class is allowed"),
        ("How early should I book flights in advance?", "Book flights at least 14 days"),
        (
            "How much can I spend per night on a hotel in London?",
            "The policy limit for hotels in London",
        ),
        # A flight question is about the cabin, not a hotel somewhere; a country's per diem
        # is answered for a city of that country.
        ("What is our travel policy for flights over 6 hours?", "Business class is allowed"),
        ("How early do I need to book my flights?", "Book flights at least 14 days"),
        (
            "What is the daily per diem for Japan?",
            "The per diem for meals and local transport is 75 USD a day; the hotel in Tokyo",
        ),
        ("Is this client dinner within policy?", "A business meal is covered up to 100 USD"),
    ],
)
def test_the_travel_policy_answers_what_is_asked(deployment, user, request_text, answer) -> None:
    text = answer_of(deployment, user, "CheckTravelPolicy", request_text, None)
    assert text.startswith(answer), text
