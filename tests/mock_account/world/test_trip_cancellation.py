"""A cancellation cancels what the request names: "Cancel the hotel" does not take the flight
with it (a trip is cancelled whole, so the answer says nothing was, and how to cancel both),
and a trip that is only a stay is cancelled as the stay it is, with no flight made up for it."""

from __future__ import annotations

from handoff_journeys import run_agent, state_of

FLIGHT = "Book me a flight to Lisbon on 14 December, back on the 17th"


def test_cancelling_the_hotel_does_not_cancel_the_flight(deployment, user) -> None:
    booked = run_agent(deployment, user, "BookBusinessFlight", FLIGHT, None)
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    routed, _ = deployment.account.route(user, "Cancel the hotel", booked.convid)
    assert routed == "CancelBusinessTrip"
    answer = run_agent(deployment, user, routed, "Cancel the hotel", booked.convid)
    text = answer.parts[0]["text"]
    # It said "I cancelled your trip to Lisbon ..., including flight ... and the stay".
    assert text.startswith(
        f"Your room at {trip['hotel']} goes with flight {trip['flight']} on your trip to Lisbon "
        "(2026-12-14 to 2026-12-17), and I cancel a trip whole, so I cancelled nothing"
    ), text
    assert state_of(deployment, user, booked.convid)["conv"]["trip"] == trip
    whole = run_agent(deployment, user, routed, "Cancel the whole trip", booked.convid)
    assert whole.parts[0]["text"].startswith(
        "I cancelled your trip to Lisbon (2026-12-14 to 2026-12-17), including flight "
        f"{trip['flight']} and the stay at {trip['hotel']}."
    ), whole.parts
    assert state_of(deployment, user, booked.convid)["conv"]["trip"]["status"] == "cancelled"


def test_a_trip_that_is_only_a_stay_is_cancelled_as_one(deployment, user) -> None:
    stay = run_agent(
        deployment,
        user,
        "BookHotelStay",
        "I need a hotel in Munich for three nights from Monday",
        None,
    )
    hotel = state_of(deployment, user, stay.convid)["conv"]["trip"]["hotel"]
    answer = run_agent(deployment, user, "CancelBusinessTrip", "Cancel the hotel", stay.convid)
    # It said "No flight is booked yet for your trip to Munich" and cancelled nothing; asked
    # again after a first fix, it cancelled a flight it had just made up.
    assert answer.parts[0]["text"].startswith(
        "I cancelled your trip to Munich (2026-12-07 to 2026-12-10), including the stay at "
        f"{hotel}."
    ), answer.parts
    trip = state_of(deployment, user, stay.convid)["conv"]["trip"]
    assert trip["status"] == "cancelled" and trip["hotel"] == hotel
    assert not trip.get("flight") and not trip.get("transport")
