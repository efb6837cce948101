"""A booking moved by a follow-up is the same booking on new days: "Move it to Friday" after a
trip of four days is four days from Friday, not a trip that comes back the day it leaves.

Such a follow-up matches no agent of its own, so it goes back to the agent that made the
booking, which changes what it made instead of merging the new first day with the old last
one. A booking elsewhere is still another booking."""

from __future__ import annotations

from handoff_journeys import routed_answer, run_agent, state_of


def test_a_trip_moved_to_another_day_keeps_its_length_and_fare(deployment, user) -> None:
    booked = run_agent(
        deployment,
        user,
        "BookBusinessFlight",
        "Book me a flight to Lisbon on 14 December, back on the 18th",
        None,
    )
    before = state_of(deployment, user, booked.convid)["conv"]["trip"]
    agent, text = routed_answer(deployment, user, "Move it to the 16th", booked.convid)
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    assert agent == "BookBusinessFlight"
    assert (trip["start_date"], trip["end_date"]) == ("2026-12-16", "2026-12-20"), trip
    assert trip["destination"] == "Lisbon" and trip["hotel"] == before["hotel"]
    # New days mean a new flight, at the fare of the trip.
    assert trip["flight"] != before["flight"] and trip["cost"] == before["cost"]
    assert "leaving 2026-12-16 and returning 2026-12-20" in text, text
    # Said as the change it is, with what it was: "I booked flight …" twice read as two trips.
    assert text.startswith(f"I changed your booking as asked: flight {trip['flight']} "), text
    assert f"for {before['cost']:g} {before['currency']}" in text, text
    # Moved again, by a shift: the whole trip two days later.
    agent, text = routed_answer(deployment, user, "Actually push it back two days", booked.convid)
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    assert (trip["start_date"], trip["end_date"]) == ("2026-12-18", "2026-12-22"), (agent, text)


def test_a_stay_moved_keeps_its_nights_and_its_trip_moves_with_it(deployment, user) -> None:
    booked = run_agent(
        deployment,
        user,
        "BookHotelStay",
        "I need to go to Lisbon on 14 December for three nights",
        None,
    )
    assert "from 2026-12-14 to 2026-12-17, 3 nights" in booked.parts[0]["text"], booked.parts
    agent, text = routed_answer(deployment, user, "Move it to the 16th", booked.convid)
    assert agent == "BookHotelStay"
    assert "from 2026-12-16 to 2026-12-19, 3 nights" in text, text
    # The trip that is only this stay moves with it: what is suggested next ("travelling on
    # 16 December") and what a flight "for that trip" flies on read these days.
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    assert (trip["start_date"], trip["end_date"]) == ("2026-12-16", "2026-12-19"), trip
    agent, text = routed_answer(deployment, user, "Stay two nights longer", booked.convid)
    assert agent == "BookHotelStay"
    assert "from 2026-12-16 to 2026-12-21, 5 nights" in text, text


def test_a_stay_made_longer_is_changed_and_asked_about_it_is_described(deployment, user) -> None:
    agent = "BookHotelStay"
    booked = run_agent(
        deployment, user, agent, "Book me a hotel in London from 8 to 10 December", None
    )
    room = booked.parts[0]["text"]
    hotel = room.removeprefix("I reserved a room at ").split(" in London")[0]
    longer = run_agent(deployment, user, agent, "Actually make it three nights", booked.convid)
    assert longer.parts[0]["text"].startswith(
        f"I changed your reservation as asked: the room at {hotel} in London"
    ), longer
    assert "from 2026-12-08 to 2026-12-11, 3 nights" in longer.parts[0]["text"], longer.parts
    again = run_agent(deployment, user, agent, "What hotel am I staying in?", booked.convid)
    assert again.parts[0]["text"].startswith(
        f"A room at {hotel} in London from 2026-12-08 to 2026-12-11 (3 nights at "
    ), again.parts
    assert 'To change it, say how: "move it to the 18th"' in again.parts[0]["text"]


def test_a_rental_car_moved_keeps_its_days(deployment, user) -> None:
    agent = "ReserveRentalCar"
    booked = run_agent(
        deployment, user, agent, "I need a rental car in Madrid from 7 to 9 December", None
    )
    assert "pick-up on 2026-12-07 and drop-off on 2026-12-09" in booked.parts[0]["text"]
    moved = run_agent(deployment, user, agent, "Move it to the 20th", booked.convid)
    text = moved.parts[0]["text"]
    assert "pick-up on 2026-12-20 and drop-off on 2026-12-22: 2 days" in text, text


def test_a_booking_elsewhere_is_another_booking_not_a_move(deployment, user) -> None:
    agent = "BookHotelStay"
    booked = run_agent(
        deployment, user, agent, "Book me a hotel in London from 8 to 10 December", None
    )
    other = run_agent(
        deployment, user, agent, "Book me a hotel in Paris instead, from the 10th", booked.convid
    )
    text = other.parts[0]["text"]
    assert " in Paris " in text and "from 2026-12-10" in text, text


def test_a_move_with_no_booking_here_books_no_trip_to_a_place_nobody_named(
    deployment, user
) -> None:
    refused = run_agent(
        deployment,
        user,
        "BookBusinessFlight",
        "Book a flight for Anna Schmidt to Vienna on Monday, back Wednesday",
        None,
    )
    assert refused.parts[0]["text"].startswith("Anna Schmidt is the one travelling")
    agent, text = routed_answer(deployment, user, "Move it to Tuesday", refused.convid)
    # It booked a flight from Singapore to London for Tuesday.
    assert agent == "BookBusinessFlight"
    assert text.startswith("Which trip is it? Tell me where you are going"), text
    assert "trip" not in state_of(deployment, user, refused.convid)["conv"]


def test_a_trip_made_the_week_after_and_a_car_made_an_suv(deployment, user) -> None:
    booked = run_agent(
        deployment,
        user,
        "BookBusinessFlight",
        "Get me on a plane to Toronto from 14 to 18 December for the site visit",
        None,
    )
    # "the week after" was not read: the trip was "already booked" and nothing moved.
    agent, _ = routed_answer(deployment, user, "Actually make it the week after", booked.convid)
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    assert (trip["start_date"], trip["end_date"]) == ("2026-12-21", "2026-12-25"), trip
    car = run_agent(
        deployment,
        user,
        "ReserveRentalCar",
        "Reserve a compact car in Munich from 11 to 13 December",
        None,
    )
    compact = car.parts[0]["text"]
    suv = run_agent(deployment, user, "ReserveRentalCar", "Make it an SUV", car.convid).parts[0]
    # The SUV kept the compact's day rate.
    rate = compact.split(" at ")[1].split(" a day")[0]
    said = suv["text"]
    assert said.startswith("I changed your reservation as asked: an SUV "), said
    assert f" at {rate} a day" not in said, said


def test_a_hotel_for_some_nights_of_a_saved_trip_is_for_those_nights(deployment, user) -> None:
    trip = "Book me a flight to Madrid from 16 to 21 December"
    booked = run_agent(deployment, user, "BookBusinessFlight", trip, None)
    before = state_of(deployment, user, booked.convid)["conv"]["trip"]
    stay = run_agent(
        deployment, user, "BookHotelStay", "Book me a hotel there for 2 nights", booked.convid
    )
    # It was the trip's five nights.
    text = stay.parts[0]["text"]
    assert " in Madrid " in text and "from 2026-12-16 to 2026-12-18, 2 nights" in text, text
    # The trip keeps its flight's days: the room is part of it.
    after = state_of(deployment, user, booked.convid)["conv"]["trip"]
    assert (after["start_date"], after["end_date"]) == (before["start_date"], before["end_date"])


def test_a_trip_made_longer_keeps_its_room_for_all_of_it(deployment, user) -> None:
    trip = "Book me a flight to Lisbon on 14 December, back on the 17th"
    booked = run_agent(deployment, user, "BookBusinessFlight", trip, None)
    run_agent(deployment, user, "BookHotelStay", "Book me a hotel there", booked.convid)
    saved = state_of(deployment, user, booked.convid)["conv"]["trip"]
    assert saved["room_nights"] == 3, saved
    run_agent(deployment, user, "ChangeTripDates", "Extend my stay by two days", booked.convid)
    longer = state_of(deployment, user, booked.convid)["conv"]["trip"]
    assert (longer["end_date"], longer["room_nights"]) == ("2026-12-19", 5), longer


def test_which_hotel_the_trip_holds_is_answered_and_nothing_is_booked(deployment, user) -> None:
    booked = run_agent(
        deployment, user, "BookBusinessFlight", "Book me a flight to Lisbon on 14 December", None
    )
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    # It reserved the room the flight held: a booking made from a question.
    agent, text = routed_answer(deployment, user, "Which hotel am I in?", booked.convid)
    assert agent == "BookHotelStay"
    assert text.startswith(
        f"Your trip holds a room at {trip['hotel']} in Lisbon from {trip['start_date']} to "
        f"{trip['end_date']}; I booked nothing new."
    ), text
    state = state_of(deployment, user, booked.convid)
    assert state["conv"]["trip"] == trip
    assert not any(
        m.get("content")
        for m in state["prompts"]["chat"]["messages"]
        if m.get("role") == "tool_result" and m.get("agent") == "BookHotelStay"
    )


def test_a_room_past_the_flight_home_says_so_and_how_to_come_back_later(deployment, user) -> None:
    trip = "Book me a flight to Lisbon on 14 December, back on the 17th"
    booked = run_agent(deployment, user, "BookBusinessFlight", trip, None)
    flight = state_of(deployment, user, booked.convid)["conv"]["trip"]["transport"]
    run_agent(deployment, user, "BookHotelStay", "Book me a hotel there", booked.convid)
    agent, text = routed_answer(deployment, user, "Make it five nights", booked.convid)
    # The room ran to the 19th and the flight back on the 17th, without a word.
    assert agent == "BookHotelStay"
    assert "is now from 2026-12-14 to 2026-12-19, 5 nights" in text, text
    assert (
        f'Your {flight} still comes back on 2026-12-17: to stay, say "Move the trip return to '
        '2026-12-19".'
    ) in text, text
    agent, _ = routed_answer(deployment, user, "Move the trip return to 2026-12-19", booked.convid)
    moved = state_of(deployment, user, booked.convid)["conv"]["trip"]
    assert agent == "ChangeTripDates" and moved["end_date"] == "2026-12-19", (agent, moved)
    assert moved["room_nights"] == 5, moved


def test_a_trip_moved_by_another_agent_moves_the_room_booked_on_it(deployment, user) -> None:
    trip = "Book me a flight to Lisbon on 14 December, back on the 17th"
    booked = run_agent(deployment, user, "BookBusinessFlight", trip, None)
    convid = booked.convid
    run_agent(deployment, user, "BookHotelStay", "Book me a hotel there for 2 nights", convid)
    hotel = state_of(deployment, user, convid)["conv"]["trip"]["hotel"]
    agent, text = routed_answer(deployment, user, "Push my Lisbon trip back a day", convid)
    # The move said nothing of the room, and the hotel agent then gave its old days.
    assert agent == "ChangeTripDates"
    assert "now runs from 2026-12-15 to 2026-12-18" in text, text
    assert f"Your room at {hotel} is from 2026-12-15 to 2026-12-17." in text, text
    agent, text = routed_answer(deployment, user, "Which hotel am I in?", convid)
    assert agent == "BookHotelStay"
    assert text.startswith(
        f"A room at {hotel} in Lisbon from 2026-12-15 to 2026-12-17 (2 nights at "
    ), text
    # Changed by the hotel agent afterwards, the room starts from where it now is.
    agent, text = routed_answer(deployment, user, "Make it three nights", convid)
    assert agent == "BookHotelStay"
    assert "is now from 2026-12-15 to 2026-12-18, 3 nights" in text, text


def test_a_return_moved_by_news_of_a_delay_moves_the_way_back_only(deployment, user) -> None:
    booked = run_agent(
        deployment, user, "BookBusinessFlight", "Fly me to Tokyo, out 15 Dec, back 18 Dec", None
    )
    run_agent(
        deployment,
        user,
        "ChangeTripDates",
        "the meeting slipped a day, push my return to the 19th",
        booked.convid,
    )
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    # "a day" is how far it slipped, not a stay of one day from the 19th.
    assert (trip["start_date"], trip["end_date"]) == ("2026-12-15", "2026-12-19"), trip


def test_a_hotel_near_a_district_is_in_the_city_of_the_trip(deployment, user) -> None:
    booked = run_agent(
        deployment, user, "BookBusinessFlight", "Fly me to Tokyo, out 15 Dec, back 18 Dec", None
    )
    stay = run_agent(
        deployment,
        user,
        "BookHotelStay",
        "hotel near Shinagawa for those nights as well",
        booked.convid,
    )
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    assert trip["destination"] == "Tokyo", trip
    text = stay.parts[0]["text"]
    assert "in Tokyo" in text and "from 2026-12-15 to 2026-12-18" in text, text
    assert "Shinagawa" in text, text
    # Alone, "near Shinagawa" is where to stay.
    alone = run_agent(
        deployment, user, "BookHotelStay", "a hotel near Shinagawa on 15 to 17 December", None
    )
    assert "in Shinagawa" in alone.parts[0]["text"], alone.parts
