"""An expense claim for a booked trip says what it covers: the fare of the flight the company
booked is in the answer just before it, and the claim's own amount is something else, so the
answer tells a reader why the two differ."""

from __future__ import annotations

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
