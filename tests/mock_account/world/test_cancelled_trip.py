"""A cancelled trip stays cancelled for every agent that reads it, until something new is
booked: nothing shows its flight as "your next trip" or moves it, nothing is claimed,
reserved or prepared for it, and only a new booking is suggested."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of, last_tool_result, reader_request, run_agent, state_of

from mock_account.conversations.followups import Followups

BOOK = "Book me a flight from London to Lisbon on 14 December, returning on the 18th"
CANCELLED = (
    "Your trip to Lisbon (2026-12-14 to 2026-12-18) is cancelled, with its flight and stay; "
    "nothing of it is booked any more."
)


def _cancelled_trip(deployment, user) -> tuple[str, dict]:
    booked = run_agent(deployment, user, "BookBusinessFlight", BOOK, None)
    run_agent(deployment, user, "CancelBusinessTrip", "Cancel the trip", booked.convid)
    trip = deployment.account.state_view(user, booked.convid)["state"]["conv"]["trip"]
    return booked.convid, trip


def test_the_cancelled_trip_is_saved_as_cancelled(deployment, user) -> None:
    _, trip = _cancelled_trip(deployment, user)
    assert (trip["destination"], trip["status"]) == ("Lisbon", "cancelled")


def test_no_agent_shows_or_moves_a_cancelled_trip(deployment, user) -> None:
    convid, trip = _cancelled_trip(deployment, user)
    for agent, request_text in [
        ("ShowTripItinerary", "What is my itinerary?"),
        ("ChangeTripDates", "Move my trip two days later"),
        ("CancelBusinessTrip", "Cancel the trip"),
    ]:
        answer = run_agent(deployment, user, agent, request_text, convid).parts[0]["text"]
        assert answer.startswith(CANCELLED), (agent, answer)
        assert "Your next trip" not in answer and trip["flight"] not in answer.split("(")[0]
    after = deployment.account.state_view(user, convid)["state"]["conv"]["trip"]
    assert after == trip


def test_a_new_flight_for_a_cancelled_trip_is_a_new_booking(deployment, user) -> None:
    convid, cancelled = _cancelled_trip(deployment, user)
    run_agent(deployment, user, "BookBusinessFlight", "Book me a flight for that trip", convid)
    trip = deployment.account.state_view(user, convid)["state"]["conv"]["trip"]
    assert trip["status"] == "booked"
    assert (trip["destination"], trip["start_date"]) == ("Lisbon", "2026-12-14")
    assert trip["flight"] != cancelled["flight"]
    shown = run_agent(deployment, user, "ShowTripItinerary", "What is my itinerary?", convid)
    assert shown.parts[0]["text"].startswith(f"Your next trip: flight {trip['flight']}")


def test_a_stay_where_a_trip_was_cancelled_is_a_new_trip(deployment, user) -> None:
    convid, _ = _cancelled_trip(deployment, user)
    run_agent(deployment, user, "BookHotelStay", "Book me a hotel in Lisbon for that trip", convid)
    trip = deployment.account.state_view(user, convid)["state"]["conv"]["trip"]
    assert trip["status"] == "booked" and "flight" not in trip
    shown = run_agent(deployment, user, "ShowTripItinerary", "What is my itinerary?", convid)
    assert shown.parts[0]["text"].startswith("No flight is booked yet for your trip to Lisbon")


# Every reader that would make something of the trip without booking it anew.
TAKERS = [
    "SubmitExpenseClaim",
    "ClaimMileageAllowance",
    "RequestTravelCashAdvance",
    "ClaimTravelTimeInLieu",
    "ClearGiftsAndHospitality",
    "PrepareCustomerVisit",
    "ReserveRentalCar",
]


@pytest.mark.parametrize("reader", TAKERS)
def test_nothing_is_claimed_or_arranged_for_a_cancelled_trip(deployment, user, reader) -> None:
    convid, trip = _cancelled_trip(deployment, user)
    follow_up = reader_request(deployment, reader, "trip", {"trip": trip})
    answer = answer_of(deployment, user, reader, follow_up, convid)
    assert answer.startswith(
        "Your trip to Lisbon (2026-12-14 to 2026-12-18) is cancelled, with its flight and stay; "
        "there is nothing of it to claim or arrange any more."
    ), (reader, answer)
    state = state_of(deployment, user, convid)
    assert state["conv"]["trip"] == trip
    assert last_tool_result(state, reader) is None


def test_after_a_cancellation_only_a_new_booking_is_suggested(deployment, user) -> None:
    convid, trip = _cancelled_trip(deployment, user)
    account = deployment.account
    followups = Followups(account.agents.values(), account.index)
    offered = {s.agent for s in followups.suggest("CancelBusinessTrip", conv={"trip": trip})}
    assert offered == {"BookHotelStay", "BookBusinessFlight"}
    # While the trip stands, the claims are offered.
    booked = run_agent(deployment, user, "BookBusinessFlight", BOOK, None)
    standing = state_of(deployment, user, booked.convid)["conv"]
    offered = {s.agent for s in followups.suggest("BookBusinessFlight", conv=standing)}
    assert "SubmitExpenseClaim" in offered
