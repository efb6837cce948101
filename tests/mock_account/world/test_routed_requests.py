"""Requests that a prospect typed and search sent to an agent that did something else: a
post-mortem is not a social media post, a customer about to leave is looked into, not sent
a gesture nobody asked for."""

from __future__ import annotations

import pytest
from handoff_journeys import run_agent

from mock_account.world.recipe import shown_money


@pytest.mark.parametrize(
    ("request_text", "agent"),
    [
        ("Write a post-mortem", "WriteIncidentPostmortem"),  # it drafted a social media post
        # It "rebooked" a flight nobody said was cancelled.
        ("Find me a flight to New York next month under 900 USD", "BookBusinessFlight"),
        (
            "Our biggest customer Orion Retail is threatening to churn, what's going on with them?",
            "ReviewAccountHealth",  # it prepared a goodwill voucher
        ),
    ],
)
def test_a_request_goes_to_the_agent_that_does_what_it_asks(
    deployment, user, request_text, agent
) -> None:
    routed, _ = deployment.account.route(user, request_text, None)
    assert routed == agent


def test_working_from_home_is_not_recorded_as_a_sick_day(deployment, user) -> None:
    # No agent arranges working from home; the one search finds for it records sick days, and
    # it said "Get well soon" and told the manager of an absence.
    request_text = "I want to work from home on Friday"
    routed, _ = deployment.account.route(user, request_text, None)
    assert routed == "ReportSickLeave"
    result = deployment.account.exec_agent(user, routed, {"query": request_text}, None)
    assert result.result_code == "failCommand", result.parts
    assert result.error.startswith("I record sick days, and working from home is not one")
    sick = deployment.account.exec_agent(
        user, routed, {"query": "I have the flu and won't make it in today"}, None
    )
    assert sick.parts[0]["text"].startswith("Get well soon, "), sick.parts


def test_a_meeting_room_is_not_booked_as_an_av_ticket(deployment, user) -> None:
    # No agent books rooms; the meeting-room AV agent logged a repair ticket for the booking.
    request_text = "Book a meeting room for 10 people tomorrow at 2pm"
    routed, _ = deployment.account.route(user, request_text, None)
    result = deployment.account.exec_agent(user, routed, {"query": request_text}, None)
    assert routed == "FixMeetingRoomAv" and result.result_code == "failCommand", result.parts
    assert result.error.startswith("I fix the screens, cameras and speakerphones of meeting rooms")


def test_a_restaurant_table_is_not_booked_as_a_hotel_room(deployment, user) -> None:
    # No agent books restaurants; the hotel agent reserved two nights in Madrid for it.
    request_text = "Book a table for 6 at a restaurant in Madrid on Friday evening"
    routed, _ = deployment.account.route(user, request_text, None)
    result = deployment.account.exec_agent(user, routed, {"query": request_text}, None)
    assert routed == "BookHotelStay", routed
    assert result.parts[0]["text"].startswith(
        "I book hotel rooms for work trips, not restaurant tables, so I booked nothing."
    ), result.parts
    assert "trip" not in deployment.account.state_view(user, result.convid)["state"]["conv"]
    # A hotel near a restaurant is still a room.
    near = "Book me a hotel near the Botin restaurant in Madrid for two nights from Friday"
    room = deployment.account.exec_agent(user, "BookHotelStay", {"query": near}, None)
    assert room.parts[0]["text"].startswith("I reserved a room at "), room.parts


@pytest.mark.parametrize(
    ("request_text", "agent"),
    [
        # "the whole trip" sent it to the agent that cancels trips: the trip was cancelled.
        ("Book a hotel there for the whole trip", "BookHotelStay"),
        ("Who is my manager?", "FindColleagueInDirectory"),  # it matched no agent
        # A sales quote for our customer, at our prices, for boxes we wanted to buy.
        ("Ask them for quotes for 5,000 boxes", "RequestSupplierQuotes"),
        # A trade show booth.
        ("Our customer Orion Retail wants 20 standing desks", "PlaceCustomerOrder"),
        # The lost-device agent, for a laptop of the new hire.
        ("Order her a laptop", "SetUpNewHireEquipment"),
        # It raised the campaign's budget ("The budget of … is now 20000 EUR").
        ("How is the campaign doing?", "ReportCampaignResults"),
        # The marketing calendar ("Next up on the calendar is …").
        ("I'm going to Tokyo next month for a week, can you book it?", "BookBusinessFlight"),
        # One unit's list price, for nobody.
        ("Customer Nordic Steel wants a quote for 40 ergonomic chairs", "CreateSalesQuote"),
        # Its billing schedule.
        (
            "Hoffmann Logistics wants to renew their contract for two more years",
            "AmendSignedContract",
        ),
    ],
)
def test_a_follow_up_goes_to_the_agent_that_does_what_it_asks(
    deployment, user, request_text, agent
) -> None:
    routed, _ = deployment.account.route(user, request_text, None)
    assert routed == agent


def test_a_hotel_nobody_said_the_city_of_is_not_picked_at_random(deployment, user) -> None:
    # It booked a room in Chicago, and gave the policy limit "for hotels in Warsaw".
    booked = run_agent(deployment, user, "BookHotelStay", "Book me a hotel for next week", None)
    assert booked.parts[0]["text"].startswith("Which city do you need the hotel in?"), booked
    policy = run_agent(deployment, user, "CheckTravelPolicy", "What is the daily per diem?", None)
    # The user's own city, not one picked at random.
    assert "the hotel in Singapore is paid separately" in policy.parts[0]["text"], policy.parts
    london = run_agent(
        deployment,
        user,
        "CheckTravelPolicy",
        "How much can I spend per night on a hotel in London?",
        None,
    )
    assert london.parts[0]["text"].startswith("The policy limit for hotels in London is"), london


def test_a_price_a_night_is_no_stay_of_one_night(deployment, user) -> None:
    # "150 EUR a night" was read as one night: a room for next week was booked for one.
    text = run_agent(
        deployment,
        user,
        "BookHotelStay",
        "Find me a hotel in Berlin under 150 EUR a night for next week",
        None,
    ).parts[0]["text"]
    assert "in Berlin" in text and "from 2026-12-07 to 2026-12-11, 4 nights" in text, text


def test_invoice_them_for_it_after_an_order_bills_that_order(deployment, user) -> None:
    # "Invoice them for it" shares its one word with every invoice agent, so it matched none
    # and went back to the order agent: "Order … was placed …, so I did not place a second one".
    placed = run_agent(
        deployment,
        user,
        "PlaceCustomerOrder",
        "Place an order of 10 standing desks for Orion Retail",
        None,
    )
    routed, _ = deployment.account.route(user, "Invoice them for it", placed.convid)
    assert routed == "CreateCustomerInvoice"
    billed = run_agent(deployment, user, routed, "Invoice them for it", placed.convid)
    order = deployment.account.state_view(user, placed.convid)["state"]["conv"]["order"]
    assert billed.parts[0]["text"].startswith("I raised invoice INV-"), billed.parts
    assert f"{shown_money(order['total'], 'GBP')} (order {order['id']})" in billed.parts[0]["text"]
