"""A question about how a thing is done does not do it: "How do I report a phishing email?"
opened a security ticket, "What is the process to request a new laptop?" requested one, and
"How many days can I be off sick before I need a doctor's note?" recorded an absence."""

from __future__ import annotations

import pytest
from handoff_journeys import routed_answer, run_agent, state_of

from agents_catalog.capabilities import load_departments

CAPABILITIES = {c.name: c for d in load_departments() for c in d.capabilities}


@pytest.mark.parametrize(
    ("agent", "request_text"),
    [
        ("ReportPhishingEmail", "How do I report a phishing email?"),
        ("RequestLaptopRefresh", "What is the process to request a new laptop?"),
        ("DeclareProductionIncident", "How do I declare an incident?"),
        ("CancelBusinessTrip", "What happens if I cancel my trip?"),
        ("OnboardNewSupplier", "How long does it take to onboard a new supplier?"),
    ],
)
def test_a_how_question_says_how_and_does_nothing(deployment, user, agent, request_text) -> None:
    routed, _ = deployment.account.route(user, request_text, None)
    assert routed == agent, routed
    result = run_agent(deployment, user, agent, request_text, None)
    text = result.parts[0]["text"]
    title = CAPABILITIES[agent].title
    assert text.startswith(f"I can do that for you here ({title[:1].lower()}{title[1:]}): "), text
    assert text.endswith("Nothing was done yet."), text
    state = state_of(deployment, user, result.convid)
    # Nothing saved but the exchange itself: no variable, and no form was asked.
    assert state["conv"] == {} and result.ask_input is None


def test_a_question_about_sick_days_records_no_absence(deployment, user) -> None:
    text = run_agent(
        deployment,
        user,
        "ReportSickLeave",
        "How many days can I be off sick before I need a doctor's note?",
        None,
    ).parts[0]["text"]
    assert text.startswith("You can be off sick for up to three days without a doctor's note")
    assert "I recorded no absence" in text and "Get well soon" not in text


def test_a_request_put_as_a_question_is_still_done(deployment, user) -> None:
    # "Can I …" asks for it: the request is done, as before.
    text = run_agent(
        deployment, user, "OrderDeskAccessories", "Can I get a headset for calls?", None
    ).parts[0]["text"]
    assert text.startswith("I ordered a headset ("), text


def test_what_happens_next_opens_nothing_where_nothing_was_made(deployment, user) -> None:
    agent = "ReportDamagedDelivery"
    refused = run_agent(
        deployment, user, agent, "Lakeside Dental's order ORD-000009 arrived damaged", None
    )
    assert "has not shipped yet" in refused.parts[0]["text"], refused.parts
    # It opened ticket "What happens next" and requested a replacement shipment.
    text = run_agent(deployment, user, agent, "What happens next?", refused.convid).parts[0]
    assert text["text"].startswith("Which ticket? There is none in this conversation yet"), text
    assert "ticket" not in state_of(deployment, user, refused.convid)["conv"]


def test_a_change_that_comes_back_to_a_look_up_says_how_to_ask_for_it(deployment, user) -> None:
    booked = run_agent(
        deployment, user, "BookBusinessFlight", "Book me a flight to Lisbon on 14 December", None
    )
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    agent, _ = routed_answer(deployment, user, "What's the total cost?", booked.convid)
    assert agent == "ShowTripItinerary"
    # "Move it" matches no agent, so the itinerary answered it again: the trip as it was, as if
    # that were the answer to the move.
    agent, text = routed_answer(deployment, user, "Move it to the 16th", booked.convid)
    assert agent == "ShowTripItinerary"
    assert text.startswith(
        "I can't change that here (show my upcoming trip itinerary), so nothing was changed. "
        'Ask for it with what it is about, such as "Move the trip to the 16th"'
    ), text
    assert state_of(deployment, user, booked.convid)["conv"]["trip"] == trip
    # Said so, it is moved.
    agent, text = routed_answer(deployment, user, "Move the trip to the 16th", booked.convid)
    moved = state_of(deployment, user, booked.convid)["conv"]["trip"]
    assert agent == "ChangeTripDates" and moved["start_date"] == "2026-12-16", (agent, text)


def test_a_change_of_a_stay_only_trip_is_asked_of_its_hotel_booking(deployment, user) -> None:
    booked = run_agent(
        deployment,
        user,
        "BookHotelStay",
        "Book me a hotel in Lisbon for 3 nights from 14 December",
        None,
    )
    routed_answer(deployment, user, "What's the total cost?", booked.convid)
    agent, text = routed_answer(deployment, user, "Make it four nights", booked.convid)
    assert agent == "ShowTripItinerary"
    assert 'such as "Make the hotel booking four nights"' in text, text
    # Said so, the same room is booked for four nights; "make the trip four nights" was a
    # second room.
    agent, text = routed_answer(
        deployment, user, "Make the hotel booking four nights", booked.convid
    )
    assert agent == "BookHotelStay", agent
    assert text.startswith("I changed your reservation as asked: the room at "), text
    assert "from 2026-12-14 to 2026-12-18, 4 nights" in text, text


def test_a_move_that_comes_back_to_the_seat_agent_is_not_a_seat_request(deployment, user) -> None:
    booked = run_agent(
        deployment,
        user,
        "BookBusinessFlight",
        "Book a flight to Tokyo for the week of 11 January",
        None,
    )
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    agent, _ = routed_answer(deployment, user, "Change my seat to an aisle", booked.convid)
    assert agent == "ChooseFlightSeat"
    # "Move it" matches no agent, so the seat agent answered it: it sent the seat request
    # again, for the old day.
    agent, text = routed_answer(deployment, user, "Move it to 18 January", booked.convid)
    assert agent == "ChooseFlightSeat"
    assert text.startswith(
        "I can't change that here (choose a seat or request an upgrade), so nothing was "
        'changed. Ask for it with what it is about, such as "Move the trip to 18 January"'
    ), text
    assert state_of(deployment, user, booked.convid)["conv"]["trip"] == trip
    # A change the seat agent makes is still its own.
    window = run_agent(
        deployment, user, "ChooseFlightSeat", "Make it a window seat instead", booked.convid
    )
    assert window.parts[0]["text"].startswith("I sent the airline your request for a window"), (
        window.parts
    )
