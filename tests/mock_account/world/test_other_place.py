"""A request about another place or customer than the conversation holds gets its own record.

With a trip to Berlin saved, "a hotel in Lisbon from 14 to 16 December" is a stay in
Lisbon on those days: it takes nothing of the Berlin trip (not its dates, not its hotel),
the answer does not claim to have used it, and the run is not shown as a hand-off from it.
A later "flight for that trip" flies to the trip the conversation holds now. With Hoffmann
Logistics saved, "an order for Lakeside Dental" is Lakeside Dental's order.
"""

from __future__ import annotations

import pytest
from handoff_journeys import data_command, last_tool_result, run_agent, save_variable, state_of

from agents_catalog.capabilities import VARIABLE_SOURCES
from agents_catalog.graph import build_handoff_graph

BERLIN = "I need to fly to Berlin next Tuesday for a client meeting"
LISBON = "For a trip to Lisbon from 14 to 16 December"
# Where a record of each kind is, and when.
PLACE_AND_DATES = {
    "flights": ("destination", "start_date", "end_date"),
    "hotels": ("city", "check_in", "check_out"),
    "car_rentals": ("city", "pick_up", "drop_off"),
}


def text_of(result) -> str:
    return " ".join(p.get("text", "") for p in result.parts)


def placed_readers(deployment) -> list[str]:
    """Every agent that reads conv.trip and creates a trip, a hotel stay or a rental car."""
    graph = build_handoff_graph(list(deployment.account.agents.values()))
    found = []
    for name in graph.readers("trip"):
        args = data_command(deployment, name)
        if args is None or args.action != "create":
            continue
        if args.source in PLACE_AND_DATES:
            found.append(name)
    return found


def test_every_reader_asked_about_another_city_keeps_what_it_was_told(deployment, user) -> None:
    readers = placed_readers(deployment)
    assert {"BookBusinessFlight", "BookHotelStay", "ReserveRentalCar"} <= set(readers)
    for reader in readers:
        first = run_agent(deployment, user, "BookBusinessFlight", BERLIN, None)
        berlin = state_of(deployment, user, first.convid)["conv"]["trip"]
        assert berlin["destination"] == "Berlin"
        second = run_agent(deployment, user, reader, LISBON, first.convid)
        assert second.success, (reader, second.result_code, second.error)
        state = state_of(deployment, user, first.convid)
        record = last_tool_result(state, reader)
        place, start, end = PLACE_AND_DATES[data_command(deployment, reader).source]
        assert (record[place], record[start], record[end]) == (
            "Lisbon",
            "2026-12-14",
            "2026-12-16",
        ), reader
        assert berlin["hotel"] not in record.values(), reader
        assert "trip to Berlin" not in text_of(second), reader
        assert "trip" not in state["runs"][-1]["reads"], reader


def test_a_stay_elsewhere_is_the_trip_a_later_flight_is_booked_for(deployment, user) -> None:
    first = run_agent(deployment, user, "BookBusinessFlight", BERLIN, None)
    stay = run_agent(
        deployment, user, "BookHotelStay", "I need a hotel in Lisbon from 14 to 16 December",
        first.convid,
    )  # fmt: skip
    hotel = last_tool_result(state_of(deployment, user, first.convid), "BookHotelStay")
    trip = state_of(deployment, user, stay.convid)["conv"]["trip"]
    assert trip == {
        "destination": "Lisbon",
        "start_date": "2026-12-14",
        "end_date": "2026-12-16",
        "hotel": hotel["name"],
        "status": "booked",
        "room_rate": hotel["nightly_rate"],
        "room_nights": 2,
        "room_currency": hotel["currency"],
        "currency": hotel["currency"],
    }
    flight = run_agent(
        deployment, user, "BookBusinessFlight", "Book me a flight for that trip", first.convid
    )
    state = state_of(deployment, user, first.convid)
    record = last_tool_result(state, "BookBusinessFlight")
    assert (record["destination"], record["start_date"], record["end_date"]) == (
        "Lisbon",
        "2026-12-14",
        "2026-12-16",
    )
    assert "I used the trip to Lisbon (2026-12-14 to 2026-12-16)" in text_of(flight)
    assert state["runs"][-1]["reads"] == ["trip"]
    # The new flight is a booking of its own, and the trip keeps the hotel booked for it.
    assert state["conv"]["trip"]["hotel"] == hotel["name"]
    assert state["conv"]["trip"]["flight"] == record["flight"]


def test_a_stay_in_the_trips_city_becomes_the_trips_hotel(deployment, user) -> None:
    first = run_agent(deployment, user, "BookBusinessFlight", BERLIN, None)
    before = state_of(deployment, user, first.convid)["conv"]["trip"]
    run_agent(
        deployment, user, "BookHotelStay", "Book me a hotel in Berlin for that trip", first.convid
    )
    state = state_of(deployment, user, first.convid)
    hotel = last_tool_result(state, "BookHotelStay")
    assert (hotel["city"], hotel["check_in"], hotel["check_out"]) == (
        "Berlin",
        before["start_date"],
        before["end_date"],
    )
    room = {
        "room_rate": hotel["nightly_rate"],
        "room_nights": hotel["nights"],
        "room_currency": hotel["currency"],
    }
    assert state["conv"]["trip"] == {**before, "hotel": hotel["name"], **room}
    assert state["runs"][-1]["reads"] == ["trip"]


def test_the_room_booked_for_a_planned_trip_is_at_the_hotel_it_named(deployment, user) -> None:
    # "Staying at Grand Hotel Lisbon" then "I reserved a room at Garden Suites Lisbon" would
    # book a second hotel for the same nights.
    first = run_agent(
        deployment,
        user,
        "PlanConferenceTravel",
        "Book me a trip to Lisbon from 14 to 16 December for the customer summit",
        None,
    )
    trip = state_of(deployment, user, first.convid)["conv"]["trip"]
    assert trip["purpose"] == "customer summit"
    run_agent(deployment, user, "BookHotelStay", "I also need a hotel there", first.convid)
    hotel = last_tool_result(state_of(deployment, user, first.convid), "BookHotelStay")
    assert hotel["name"] == trip["hotel"]
    assert (hotel["check_in"], hotel["check_out"]) == (trip["start_date"], trip["end_date"])


def test_a_stay_of_another_kind_is_not_held_to_the_trips_hotel(deployment, user) -> None:
    first = run_agent(deployment, user, "BookBusinessFlight", BERLIN, None)
    trip = state_of(deployment, user, first.convid)["conv"]["trip"]
    stars = {h["name"]: h["stars"] for h in deployment.account.engine.world.data.records("hotels")}
    wanted = 3 if stars.get(trip["hotel"]) != 3 else 5
    run_agent(
        deployment, user, "BookHotelStay", f"Book me a {wanted}-star hotel there", first.convid
    )
    hotel = last_tool_result(state_of(deployment, user, first.convid), "BookHotelStay")
    assert hotel["stars"] == wanted and hotel["name"] != trip["hotel"]


def test_a_trip_saved_from_a_stay_has_no_flight_to_show_until_one_is_booked(
    deployment, user
) -> None:
    stay = run_agent(
        deployment, user, "BookHotelStay", "I need a hotel in Lisbon from 14 to 16 December", None
    )
    hotel = last_tool_result(state_of(deployment, user, stay.convid), "BookHotelStay")
    for agent in ("ShowTripItinerary", "TrackFlightStatus", "ChooseFlightSeat"):
        shown = run_agent(
            deployment, user, agent, "What about my flight for that trip?", stay.convid
        )
        # What the room costs, from the booking: "What's the total cost of the hotel?" got
        # the itinerary without it.
        rate, currency = hotel["nightly_rate"], hotel["currency"]
        room = f"(2 nights at {rate:g} {currency}, {round(2 * rate, 2):g} {currency} in all)"
        assert text_of(shown).startswith(
            "No flight is booked yet for your trip to Lisbon (2026-12-14 to 2026-12-16); "
            f"you have a room at {hotel['name']} {room}."
        ), (agent, text_of(shown))
    run_agent(deployment, user, "BookBusinessFlight", "Book me a flight for that trip", stay.convid)
    trip = state_of(deployment, user, stay.convid)["conv"]["trip"]
    shown = run_agent(deployment, user, "ShowTripItinerary", "What's the total cost?", stay.convid)
    assert f"flight {trip['flight']} from Singapore to Lisbon on 2026-12-14" in text_of(shown)
    # The flight's trip keeps the room: the fare and the room, each in its own currency.
    assert (
        f"the fare is {trip['cost']:g} {trip['currency']}; the room is 2 nights at "
        f"{rate:g} {currency}, {round(2 * rate, 2):g} {currency} in all."
    ) in text_of(shown), text_of(shown)


def hoffmann_saved(deployment, user):
    """A new conversation that saved the customer Hoffmann Logistics (CUS-00001)."""
    return run_agent(
        deployment,
        user,
        "LookUpCustomerAccount",
        "Pull up the account for Hoffmann Logistics",
        None,
    )


# Data sources whose records name a customer the request can name instead of the saved one.
CUSTOMER_SOURCES = ("customers", "orders", "tickets", "invoices", "contracts")


def test_every_reader_asked_about_another_customer_works_for_that_one(deployment, user) -> None:
    """With Hoffmann Logistics saved, "This is for Lakeside Dental" is about Lakeside Dental:
    no reader says it used the saved customer, and none is shown as a hand-off from it."""
    graph = build_handoff_graph(list(deployment.account.agents.values()))
    readers = [
        name
        for name in graph.readers("customer")
        if (args := data_command(deployment, name)) is not None and args.source in CUSTOMER_SOURCES
    ]
    assert len(readers) >= 15
    for reader in readers:
        first = hoffmann_saved(deployment, user)
        answer = run_agent(deployment, user, reader, "This is for Lakeside Dental", first.convid)
        assert answer.success, (reader, answer.result_code, answer.error)
        state = state_of(deployment, user, first.convid)
        assert "I used the customer Hoffmann" not in text_of(answer), reader
        assert "customer" not in state["runs"][-1]["reads"], reader
        record = last_tool_result(state, reader)
        assert "CUS-00001" not in map(str, (record or {}).values()), reader


def test_an_order_for_another_customer_is_that_customers_order(deployment, user) -> None:
    first = hoffmann_saved(deployment, user)
    saved = state_of(deployment, user, first.convid)["conv"]["customer"]
    run_agent(
        deployment, user, "PlaceCustomerOrder", "Place an order of 5 webcams for Lakeside Dental",
        first.convid,
    )  # fmt: skip
    state = state_of(deployment, user, first.convid)
    lakeside = deployment.account.engine.data.lookup(
        "customers", where={"name": "Lakeside Dental"}
    )[0]
    assert state["conv"]["order"]["customer_id"] == lakeside["id"] != saved["id"]
    again = run_agent(
        deployment, user, "PlaceCustomerOrder", "Place an order of 3 webcams for them", first.convid
    )
    assert state_of(deployment, user, first.convid)["conv"]["order"]["customer_id"] == saved["id"]
    assert "I used the customer Hoffmann Logistics (CUS-00001)" in text_of(again)


def test_a_contact_change_for_another_customer_changes_that_one(deployment, user) -> None:
    first = hoffmann_saved(deployment, user)
    changed = run_agent(
        deployment, user, "UpdateCustomerContact",
        "Update the contact details of Lakeside Dental, the new contact is Priya Nair",
        first.convid,
    )  # fmt: skip
    record = last_tool_result(state_of(deployment, user, first.convid), "UpdateCustomerContact")
    assert record["name"] == "Lakeside Dental" and record["id"] != "CUS-00001"
    assert "Hoffmann" not in text_of(changed).split("(Earlier")[0]


# How a request names a record of each saved variable's kind: by its id, or by a name only
# one record of the data has.
NAMED_BY = {
    "order": "id",
    "employee": "name",
    "ticket": "id",
    "invoice": "number",
    "expense": "id",
    "incident": "id",
    "contract": "id",
    "vendor": "name",
    "campaign": "name",
    "candidate": "name",
}


@pytest.mark.parametrize("variable", sorted(NAMED_BY))
def test_every_reader_asked_about_another_record_works_on_that_one(
    deployment, user, variable: str
) -> None:
    """With one order (ticket, vendor…) saved, "This is about ORD-000004" is about that one:
    no reader answers with the saved record, and none is shown as a hand-off from it."""
    graph = build_handoff_graph(list(deployment.account.agents.values()))
    creator = next(
        name
        for name in graph.writers(variable)
        if (args := data_command(deployment, name)) is not None and args.action == "create"
    )
    field = NAMED_BY[variable]
    source = VARIABLE_SOURCES[variable]
    readers = [name for name in graph.readers(variable) if data_command(deployment, name)]
    assert readers
    for reader in readers:
        first = save_variable(deployment, user, creator, variable)
        assert first is not None, creator
        saved = state_of(deployment, user, first.convid)["conv"][variable]
        other = next(
            r
            for r in deployment.account.engine.data.records(source)[3:]
            if r[field] != saved[field]
            and len(deployment.account.engine.data.lookup(source, where={field: r[field]})) == 1
        )
        answer = run_agent(deployment, user, reader, f"This is about {other[field]}", first.convid)
        state = state_of(deployment, user, first.convid)
        assert str(saved[field]) not in text_of(answer), (reader, answer.parts)
        assert variable not in state["runs"][-1]["reads"], reader
