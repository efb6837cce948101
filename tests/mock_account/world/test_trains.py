"""A trip booked by train stays a train journey for every agent that reads it: the itinerary,
a date change and a cancellation name the train, nothing shows or tracks a flight on it, and
the hotel every later answer names is the one the booking said it held."""

from __future__ import annotations

import re
from datetime import date

import pytest
from handoff_journeys import records_of, run_agent, state_of

BOOK = "Book me a train from Berlin to Hamburg next Tuesday"


def _train_trip(deployment, user) -> tuple[str, dict, str]:
    booked = run_agent(deployment, user, "BookTrainTicket", BOOK, None)
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    return booked.convid, trip, booked.parts[0]["text"]


def test_the_booking_names_its_train_and_the_room_it_holds(deployment, user) -> None:
    _, trip, answer = _train_trip(deployment, user)
    assert trip["mode"] == "train" and trip["flight"] == "", trip
    assert re.fullmatch(r"[A-Za-z]+ \d+", trip["train"]), trip
    assert trip["transport"] == f"train {trip['train']}"
    assert answer.startswith(f"Your train {trip['train']} from Berlin to Hamburg is booked"), answer
    assert f"a room is held at {trip['hotel']}" in answer, answer


@pytest.mark.parametrize(
    ("agent", "request_text"),
    [
        ("ShowTripItinerary", "Show me my itinerary"),
        ("CancelBusinessTrip", "Cancel the trip"),
        ("ReportLostLuggage", "I lost my luggage"),
    ],
)
def test_what_reads_the_trip_names_the_train(deployment, user, agent, request_text) -> None:
    convid, trip, _ = _train_trip(deployment, user)
    answer = run_agent(deployment, user, agent, request_text, convid).parts[0]["text"]
    assert f"train {trip['train']}" in answer, answer
    assert "flight" not in answer.split("(Earlier")[0].lower(), answer
    if agent != "CancelBusinessTrip":
        assert trip["hotel"] in answer, answer


@pytest.mark.parametrize(
    ("agent", "request_text"),
    [
        ("TrackFlightStatus", "Is my flight on time?"),
        ("ChooseFlightSeat", "Can I get an aisle seat?"),
        ("RebookCancelledFlight", "My flight was cancelled, get me on the next one"),
    ],
)
def test_no_flight_is_made_up_for_a_train_journey(deployment, user, agent, request_text) -> None:
    convid, trip, _ = _train_trip(deployment, user)
    answer = run_agent(deployment, user, agent, request_text, convid).parts[0]["text"]
    assert answer.startswith(
        f"Your trip to Hamburg ({trip['start_date']} to {trip['end_date']}) is by train "
        f"{trip['train']}: there is no flight on it."
    ), answer
    assert state_of(deployment, user, convid)["conv"]["trip"] == trip


def test_new_dates_mean_a_new_train_not_a_flight(deployment, user) -> None:
    convid, trip, _ = _train_trip(deployment, user)
    answer = run_agent(
        deployment, user, "ChangeTripDates", "Move my trip two days later", convid
    ).parts[0]["text"]
    moved = state_of(deployment, user, convid)["conv"]["trip"]
    assert moved["mode"] == "train" and moved["flight"] == "", moved
    assert moved["train"] and moved["train"] != trip["train"], moved
    assert f"on train {moved['train']}" in answer, answer


def test_a_flight_after_a_train_trip_is_a_flight(deployment, user) -> None:
    convid, trip, _ = _train_trip(deployment, user)
    answer = run_agent(
        deployment, user, "BookBusinessFlight", "Book me a flight for that trip", convid
    ).parts[0]["text"]
    flown = state_of(deployment, user, convid)["conv"]["trip"]
    assert flown["mode"] == "flight" and flown["train"] == "", flown
    assert answer.startswith(f"I booked flight {flown['flight']} "), answer


def test_a_trip_saved_before_trains_is_named_by_its_flight(deployment) -> None:
    # A conversation saved before trips had a mode holds a flight and nothing else to say it.
    saved = {
        "destination": "Lisbon",
        "start_date": "2026-12-14",
        "end_date": "2026-12-16",
        "flight": "KL 7911",
        "hotel": "Garden Suites Lisbon",
        "status": "booked",
    }
    found = deployment.account.engine.world.act(
        "find", "flights", request="Show me my itinerary", today=date(2026, 11, 30), base=saved
    )
    assert found.record is not None and found.record["transport"] == "flight KL 7911", found


@pytest.mark.parametrize(
    ("agent", "request_text", "asked"),
    [
        # Nothing says where: no city at random, which might be a continent away.
        ("BookTrainTicket", "Book me a train there", "Where are you going? Tell me the city"),
        ("BookTrainTicket", "Book me a train for Friday", "Where are you going? Tell me the city"),
        # "There" points back to a trip this conversation does not hold.
        ("BookHotelStay", "Book a hotel there for two nights", "Which trip? There is none in"),
        ("ReserveRentalCar", "Get me a car there on Monday", "Which trip? There is none in"),
    ],
)
def test_a_trip_to_nowhere_named_is_asked_for(deployment, user, agent, request_text, asked) -> None:
    result = run_agent(deployment, user, agent, request_text, None)
    assert result.parts[0]["text"].startswith(asked), result.parts
    assert records_of(state_of(deployment, user, result.convid)["conv"]) == {}
