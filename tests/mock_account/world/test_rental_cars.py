"""A rental car is a car hired where the request (or the saved trip) says, on its days, priced
by the day in the local currency: not a trip with a flight nobody booked. Asked about it
("How much will that cost?"), the agent answers from the car it reserved, and reserves no
second one."""

from __future__ import annotations

import datetime as dt
import re

from handoff_journeys import run_agent, state_of

AGENT = "ReserveRentalCar"
RESERVED = re.compile(
    r"I reserved (?P<article>an?) (?P<car>[\w -]+?) from (?P<company>\w+) "
    r"for you in (?P<city>[\w ]+), "
    r"pick-up on (?P<pick_up>[\d-]+) and drop-off on (?P<drop_off>[\d-]+): (?P<days>\d+) days? at "
    r"(?P<rate>[\d.]+) (?P<currency>[A-Z]{3}) a day, (?P<total>[\d.]+) (?P=currency) in all\."
)


def _reserved(text: str) -> re.Match[str]:
    found = RESERVED.match(text)
    assert found, text
    return found


def test_a_car_is_hired_where_and_when_the_request_says(deployment, user) -> None:
    # Today is Monday 2026-11-30: "next Monday" is 2026-12-07.
    text = "I need a rental car in Madrid from next Monday to Wednesday"
    result = run_agent(deployment, user, AGENT, text, None)
    car = _reserved(result.parts[0]["text"])
    assert (car["city"], car["pick_up"], car["drop_off"]) == ("Madrid", "2026-12-07", "2026-12-09")
    assert car["days"] == "2" and car["currency"] == "EUR"
    assert round(float(car["rate"]) * 2, 2) == float(car["total"])
    assert "flight" not in result.parts[0]["text"]
    # A car is not a trip: nothing claims a trip to Madrid was booked.
    assert "trip" not in state_of(deployment, user, result.convid)["conv"]

    again = run_agent(deployment, user, AGENT, "How much will that cost?", result.convid)
    answer = again.parts[0]["text"]
    assert answer.startswith(
        f"{car['article'].capitalize()} {car['car']} from {car['company']} is already reserved "
        f"for you in Madrid, 2026-12-07 to 2026-12-09 (2 days at {car['rate']} EUR, "
        f"{car['total']} EUR in all), so I did not reserve a second one"
    ), answer
    assert "flight" not in answer


def test_the_car_asked_for_is_the_one_reserved(deployment, user) -> None:
    text = "Can I get an SUV in Denver for two days from the 15th?"
    car = _reserved(run_agent(deployment, user, AGENT, text, None).parts[0]["text"])
    assert car["car"] == "SUV" and car["city"] == "Denver" and car["currency"] == "USD"
    # Two days from the 15th are the 15th and the 16th: dropped off on the 17th.
    assert (car["pick_up"], car["drop_off"], car["days"]) == ("2026-12-15", "2026-12-17", "2")


def test_a_car_for_the_saved_trip_is_at_its_destination_on_its_days(deployment, user) -> None:
    trip = "Book me a flight to Lisbon on 14 December, back on the 17th"
    booked = run_agent(deployment, user, "BookBusinessFlight", trip, None)
    result = run_agent(deployment, user, AGENT, "Reserve a rental car for my trip", booked.convid)
    text = result.parts[0]["text"]
    car = _reserved(text)
    assert (car["city"], car["pick_up"], car["drop_off"]) == ("Lisbon", "2026-12-14", "2026-12-17")
    assert car["currency"] == "EUR"  # paid in Lisbon, not in the home office's currency
    assert "I used the trip to Lisbon (2026-12-14 to 2026-12-17) already saved" in text, text
    assert [h["variable"] for h in result.handoffs] == ["conv.trip"]
    # Another city is another car, which takes nothing of the trip.
    porto = run_agent(
        deployment, user, AGENT, "I also need a compact car in Porto on the 15th", booked.convid
    )
    other = porto.parts[0]["text"]
    assert _reserved(other)["city"] == "Porto" and "I used the trip" not in other, other


def test_a_car_there_for_the_weekend_is_for_the_trips_weekend(deployment, user) -> None:
    # Today is Monday 2026-11-30; the trip is the next one: "the weekend" is the trip's
    # (12-12 and 12-13, back on Monday), not this week's (it was 12-05 to 12-06).
    trip = "Book me a flight to Paris on 11 December, back on the 14th"
    booked = run_agent(deployment, user, "BookBusinessFlight", trip, None)
    text = "Book me a rental car there for the weekend"
    car = _reserved(run_agent(deployment, user, AGENT, text, booked.convid).parts[0]["text"])
    assert (car["city"], car["pick_up"], car["drop_off"]) == ("Paris", "2026-12-12", "2026-12-14")
    assert car["days"] == "2"
    # Without a trip in the conversation, the weekend is this one.
    alone = _reserved(
        run_agent(deployment, user, AGENT, "A rental car in Paris for the weekend", None).parts[0][
            "text"
        ]
    )
    assert (alone["pick_up"], alone["drop_off"]) == ("2026-12-05", "2026-12-07")


def test_a_trip_whose_return_nobody_said_covers_the_weekend_of_its_car(deployment, user) -> None:
    # A Friday flight with no return came back on the Saturday or the Sunday, while the car
    # "for the weekend" was returned on the Monday. Returns made up are on working days.
    for day in ("4", "11", "18"):  # Fridays: the made-up length differs with the request
        trip = f"Book me a flight to Paris on {day} December"
        booked = run_agent(deployment, user, "BookBusinessFlight", trip, None)
        saved = state_of(deployment, user, booked.convid)["conv"]["trip"]
        back = dt.date.fromisoformat(saved["end_date"])
        assert back.weekday() < 5, saved
        text = "Book me a rental car there for the weekend"
        car = _reserved(run_agent(deployment, user, AGENT, text, booked.convid).parts[0]["text"])
        assert car["drop_off"] <= saved["end_date"], (car.group(0), saved)


TRIP = "Book me a flight to Lisbon on 14 December, back on the 18th"


def test_a_car_on_the_trip_is_part_of_it_shown_costed_and_cancelled_with_it(
    deployment, user
) -> None:
    # "What will the whole trip cost?" gave the fare alone; the trip cancelled kept the car,
    # and "Is my rental car still booked?" then heard that it was.
    booked = run_agent(deployment, user, "BookBusinessFlight", TRIP, None)
    convid = booked.convid
    car = _reserved(
        run_agent(deployment, user, AGENT, "Add a rental car for the same days", convid).parts[0][
            "text"
        ]
    )
    trip = state_of(deployment, user, convid)["conv"]["trip"]
    assert (trip["car_total"], trip["car_currency"]) == (float(car["total"]), car["currency"])
    shown = run_agent(
        deployment, user, "ShowTripItinerary", "What will the whole trip cost?", convid
    )
    said = f"the {car['car']} from {car['company']} ({trip['car']})"
    assert f"; {said} is {car['total']} {car['currency']} in all." in shown.parts[0]["text"]
    cancelled = run_agent(deployment, user, "CancelBusinessTrip", "Cancel the trip", convid)
    assert (
        f"and the {car['car']} from {car['company']} ({trip['car']})."
        in (cancelled.parts[0]["text"])
    )
    after = state_of(deployment, user, convid)["conv"]["trip"]
    assert after["status"] == "cancelled" and after["car"] == trip["car"]
    asked = run_agent(deployment, user, AGENT, "Is my rental car still booked?", convid)
    assert asked.parts[0]["text"].startswith(
        "Your trip to Lisbon (2026-12-14 to 2026-12-18) is cancelled, with its flight, stay and "
        "rental car; there is nothing of it to claim or arrange any more."
    ), asked.parts


def test_a_car_elsewhere_is_not_on_the_trip(deployment, user) -> None:
    booked = run_agent(deployment, user, "BookBusinessFlight", TRIP, None)
    before = state_of(deployment, user, booked.convid)["conv"]["trip"]
    run_agent(deployment, user, AGENT, "I need a hire car in Porto on 15 December", booked.convid)
    assert state_of(deployment, user, booked.convid)["conv"]["trip"] == before
