"""An expense claim for a booked trip says what it covers: the fare of the flight the company
booked is in the answer just before it, and the claim's own amount is something else, so the
answer tells a reader why the two differ."""

from __future__ import annotations

import pytest
from handoff_journeys import run_agent, state_of

BOOK = "Book me a flight from London to Lisbon on 14 December, returning on the 18th"
COVERS = (
    "A claim covers what you paid yourself: what was booked for the trip is paid by the company."
)


def test_a_claim_for_the_booked_trip_says_what_it_covers(deployment, user) -> None:
    booked = run_agent(deployment, user, "BookBusinessFlight", BOOK, None)
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    claimed = run_agent(
        deployment,
        user,
        "SubmitExpenseClaim",
        "File my travel expenses for that trip",
        booked.convid,
    )
    answer = claimed.parts[0]["text"]
    used = (
        "I used the trip to Lisbon (2026-12-14 to 2026-12-18) already saved in this conversation."
    )
    assert f"{used} {COVERS}" in answer, answer
    expense = state_of(deployment, user, booked.convid)["conv"]["expense"]
    assert (expense["date"], expense["currency"]) == (trip["start_date"], trip["currency"])
    assert expense["amount"] != trip["cost"]


def test_a_claim_without_a_trip_says_nothing_of_one(deployment, user) -> None:
    claimed = run_agent(
        deployment, user, "SubmitExpenseClaim", "I want to claim 45 euros for a keyboard", None
    )
    answer = claimed.parts[0]["text"]
    assert "Your" in answer and "claim of 45 EUR" in answer, answer
    assert "trip" not in answer and COVERS not in answer


@pytest.mark.parametrize(
    ("request_text", "spent"),
    [
        # Today is Monday 2026-11-30: "the 22nd" is this month's, not December's still to come.
        ("Submit my expense: client dinner in Milan for 184.50 EUR on the 22nd", "2026-11-22"),
        ("Claim the taxi on Friday, 32 EUR", "2026-11-27"),
        ("Claim my hotel bill of 480 EUR from 14 December", "2025-12-14"),
        ("I paid 45 EUR for a taxi on 3 November", "2026-11-03"),  # already past: as said
    ],
)
def test_an_expense_is_claimed_for_a_day_it_was_spent(
    deployment, user, request_text, spent
) -> None:
    result = run_agent(deployment, user, "SubmitExpenseClaim", request_text, None)
    claim = state_of(deployment, user, result.convid)["conv"]["expense"]
    assert claim["date"] == spent, (claim, result.parts)


def test_a_claim_for_a_saved_trip_keeps_the_trips_days(deployment, user) -> None:
    booked = run_agent(
        deployment,
        user,
        "BookBusinessFlight",
        "Fly me to Lisbon on 14 December, back the 16th",
        None,
    )
    claimed = run_agent(
        deployment,
        user,
        "SubmitExpenseClaim",
        "File my expenses for the Lisbon trip on 14 December",
        booked.convid,
    )
    assert state_of(deployment, user, claimed.convid)["conv"]["expense"]["date"] == "2026-12-14"


def test_a_claim_for_a_stay_alone_is_in_the_stays_currency(deployment, user) -> None:
    stay = run_agent(
        deployment, user, "BookHotelStay", "Book me a hotel in Paris from 4 to 6 January", None
    )
    trip = state_of(deployment, user, stay.convid)["conv"]["trip"]
    assert trip["currency"] == trip["room_currency"] == "EUR", trip
    claimed = run_agent(
        deployment, user, "SubmitExpenseClaim", "File the expenses for the trip", stay.convid
    )
    answer = claimed.parts[0]["text"]
    # It was in the user's home currency, and did not say it used the trip.
    assert " EUR from 2027-01-04 has been submitted" in answer, answer
    assert "I used the trip to Paris (2027-01-04 to 2027-01-06) already saved" in answer, answer


def test_a_receipt_from_before_a_trip_is_not_claimed_for_it(deployment, user) -> None:
    hotel = run_agent(
        deployment, user, "BookHotelStay", "Book a hotel in Oslo for two nights next week", None
    )
    trip = state_of(deployment, user, hotel.convid)["conv"]["trip"]
    claim = run_agent(
        deployment, user, "SubmitExpenseClaim", "File my taxi receipt from yesterday", hotel.convid
    )
    expense = state_of(deployment, user, hotel.convid)["conv"]["expense"]
    assert expense["date"] < trip["start_date"], expense
    assert "Oslo" not in str(expense.get("note")) and "Oslo" not in claim.parts[0]["text"]
    # Not in Oslo's money either: the trip's, not the taxi's.
    assert trip["currency"] == "NOK" and expense["currency"] != "NOK", expense
    assert "paid" not in str(expense.get("note")), expense


def test_a_claim_corrected_keeps_all_but_the_amount(deployment, user) -> None:
    first = run_agent(
        deployment,
        user,
        "SubmitExpenseClaim",
        "Claim back a client dinner last Friday, it came to 186.40 SGD",
        None,
    )
    claim = state_of(deployment, user, first.convid)["conv"]["expense"]
    agent, _ = deployment.account.route(
        user, "Sorry, I misread the receipt, the total was actually 196.40.", first.convid
    )
    assert agent == "SubmitExpenseClaim"
    again = run_agent(
        deployment,
        user,
        agent,
        "Sorry, I misread the receipt, the total was actually 196.40.",
        first.convid,
    )
    corrected = state_of(deployment, user, first.convid)["conv"]["expense"]
    assert corrected["id"] == claim["id"] and corrected["category"] == claim["category"] == "meals"
    assert (corrected["amount"], corrected["currency"]) == (196.4, "SGD"), again.parts
