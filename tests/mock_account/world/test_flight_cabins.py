"""A cabin asked for is booked and priced, as far as the travel policy allows (business class
on flights over 8 hours, premium economy from 5, never first); "business class" was ignored
and a London-New York flight cost 604 GBP."""

from __future__ import annotations

from handoff_journeys import answer_of, state_of

AGENT = "BookBusinessFlight"


def _fare(deployment, user, request_text: str) -> tuple[str, float]:
    result = deployment.account.exec_agent(user, AGENT, {"query": request_text}, None)
    trip = state_of(deployment, user, result.convid)["conv"]["trip"]
    return result.parts[0]["text"], float(trip["cost"])


def test_a_cabin_the_policy_allows_is_booked_and_priced_as_such(deployment, user) -> None:
    economy, plain = _fare(
        deployment, user, "Book me a flight from Singapore to London on 12 January"
    )
    business, fare = _fare(
        deployment, user, "Book me a flight from Singapore to London on 12 January, business class"
    )
    assert business.startswith("I booked flight ") and " in business class from Singapore " in (
        business
    ), business
    assert " in business class" not in economy and " in economy" not in economy, economy
    assert fare > 2.5 * plain, (fare, plain)


def test_a_cabin_the_policy_does_not_allow_is_not_booked(deployment, user) -> None:
    text = answer_of(
        deployment,
        user,
        AGENT,
        "Book me a flight from London to Paris on 12 January, business class",
        None,
    )
    assert " in economy (business class is for flights over 8 hours; this one takes about 1)" in (
        text
    ), text


def test_the_seat_asked_for_is_the_seat_the_airline_is_asked_for(deployment, user) -> None:
    booked = deployment.account.exec_agent(
        user, AGENT, {"query": "Book a flight to Tokyo for the week of 11 January"}, None
    )
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    # It said "Your seat request ... has been sent to the airline", the aisle unsaid.
    aisle = answer_of(
        deployment, user, "ChooseFlightSeat", "Change my seat to an aisle", booked.convid
    )
    assert aisle.startswith(
        f"I sent the airline your request for an aisle seat on flight {trip['flight']} to Tokyo "
        "on 2027-01-11."
    ), aisle
    legroom = answer_of(
        deployment, user, "ChooseFlightSeat", "Move me to an exit row seat", booked.convid
    )
    assert legroom.startswith("I sent the airline your request for an exit row seat "), legroom
