"""Suggested follow-ups answer about what the conversation holds: the hotel limit where the
trip goes, the supplier that is the other party of the saved contract."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of, last_tool_result, run_agent, state_of

from mock_account.conversations.followups import Followups

BERLIN = "I need to fly to Berlin next Tuesday for a client meeting"


def test_the_hotel_limit_is_for_where_the_trip_goes(deployment, user) -> None:
    trip = run_agent(deployment, user, "BookBusinessFlight", BERLIN, None)
    request_text = "How much can I spend per night on a hotel in Berlin?"
    text = answer_of(deployment, user, "CheckTravelPolicy", request_text, trip.convid)
    assert text.startswith("The policy limit for hotels in Berlin is about "), text
    assert "I used the trip to Berlin" in text


def test_the_supplier_renegotiated_is_the_other_party_of_the_contract(deployment, user) -> None:
    found = run_agent(deployment, user, "CheckContractExpiry", "When does CTR-00022 expire?", None)
    request_text = "The supplier on contract CTR-00022 wants to raise prices, help me renegotiate"
    text = answer_of(deployment, user, "RenegotiateSupplierPricing", request_text, found.convid)
    assert text.startswith("I prepared a negotiation brief for Nimbus Cloud "), text
    assert "I used contract CTR-00022 with Nimbus Cloud" in text


@pytest.mark.parametrize(
    ("writer", "request_text", "refusal"),
    [
        (
            "DraftNondisclosureAgreement",
            "Sign an NDA with Castellano Textiles",
            "{id} is a non-disclosure agreement with Castellano Textiles; it sets no prices, "
            "supply or fees to work from.",
        ),
        (
            "DraftStatementOfWork",
            "Write the SOW for the data migration project with Initech",
            "Initech is a customer of ours on contract {id}, not a supplier.",
        ),
    ],
)
def test_no_supplier_prices_are_renegotiated_from_an_nda_or_a_customer_contract(
    deployment, user, writer, request_text, refusal
) -> None:
    first = run_agent(deployment, user, writer, request_text, None)
    conv = state_of(deployment, user, first.convid)["conv"]
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    assert followups.written("RenegotiateSupplierPricing", "contract", conv) is None
    text = answer_of(
        deployment,
        user,
        "RenegotiateSupplierPricing",
        "The supplier on that contract wants to raise prices, help me renegotiate",
        first.convid,
    )
    assert text.startswith(refusal.format(id=conv["contract"]["id"])), text


def test_a_customer_briefing_for_a_visit_is_about_a_customer_there(deployment, user) -> None:
    stay = run_agent(
        deployment, user, "BookHotelStay", "Book a hotel in Paris from 3 to 5 March", None
    )
    briefing = run_agent(
        deployment,
        user,
        "PrepareCustomerVisit",
        "Give me a customer briefing for my visit to Paris",
        stay.convid,
    )
    customer = last_tool_result(state_of(deployment, user, stay.convid), "PrepareCustomerVisit")
    assert customer["country"] == "France", briefing.parts
    assert "based in France" in briefing.parts[0]["text"]


def test_no_followup_says_a_trip_ahead_was_already_travelled(deployment, user) -> None:
    trip = run_agent(deployment, user, "BookBusinessFlight", BERLIN, None)
    conv = state_of(deployment, user, trip.convid)["conv"]
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    request_text = followups.written("ClaimTravelTimeInLieu", "trip", conv)
    assert request_text == (
        "Can I have a day back in lieu for travelling on 8 December for the Berlin trip?"
    )


def test_the_supplier_chased_for_an_order_sells_what_was_ordered(deployment, user) -> None:
    request_text = "Place an order of 10 standing desks for Hoffmann Logistics"
    order = run_agent(deployment, user, "PlaceCustomerOrder", request_text, None)
    conv = state_of(deployment, user, order.convid)["conv"]
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    chase = followups.written("ExpediteSupplierDelivery", "order", conv)
    # An order placed today is not late: the follow-up does not say so.
    assert chase == f"Chase our supplier to speed up the delivery for order {conv['order']['id']}"
    text = answer_of(deployment, user, "ExpediteSupplierDelivery", chase, order.convid)
    supplier = last_tool_result(
        state_of(deployment, user, order.convid), "ExpediteSupplierDelivery"
    )
    assert supplier["category"] == "office supplies", text
    assert "our office supplies supplier" in text and "overdue" not in text


def test_an_expense_is_handed_only_to_agents_for_its_kind(deployment, user) -> None:
    trip = run_agent(deployment, user, "BookBusinessFlight", BERLIN, None)
    claim = "File my travel expenses for the Berlin trip"
    run_agent(deployment, user, "SubmitExpenseClaim", claim, trip.convid)
    conv = state_of(deployment, user, trip.convid)["conv"]
    assert conv["expense"]["category"] == "travel"
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    # A flight claim is no client dinner, temporary housing or training course.
    for reader in ["ClearGiftsAndHospitality", "RequestRelocationSupport", "RequestTrainingCourse"]:
        assert followups.written(reader, "expense", conv) is None, reader
    # Asked about the trip, the hospitality check takes nothing of the travel claim.
    offer = "A client offered me dinner and tickets during my Berlin trip, can I accept?"
    text = answer_of(deployment, user, "ClearGiftsAndHospitality", offer, trip.convid)
    assert "I used the trip to Berlin" in text and "expense" not in text, text
    # A meal is registered as hospitality, from the claim.
    dinner = run_agent(
        deployment,
        user,
        "SubmitExpenseClaim",
        "I paid 85 euros for a client dinner in Paris yesterday, file the expense",
        None,
    )
    conv = state_of(deployment, user, dinner.convid)["conv"]
    request_text = followups.written("ClearGiftsAndHospitality", "expense", conv)
    assert (
        request_text
        == "I paid 85 EUR for a client dinner, do I need to register it as hospitality?"
    )
    text = answer_of(deployment, user, "ClearGiftsAndHospitality", request_text, dinner.convid)
    assert "I used the meals expense of 85 EUR" in text, text


ONBOARD = "Please onboard Sofia in the Madrid office, she starts on Monday"


def _suggested(deployment, user, agent: str, request_text: str) -> tuple[str, list]:
    result = run_agent(deployment, user, agent, request_text, None)
    conv = state_of(deployment, user, result.convid)["conv"]
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    return result.convid, followups.suggest(agent, conv=conv, limit=4)


def test_a_new_hire_is_followed_by_equipment_and_access_not_by_leaving(deployment, user) -> None:
    _, suggested = _suggested(deployment, user, "StartNewHireOnboarding", ONBOARD)
    assert [s.agent for s in suggested] == [
        "SetUpNewHireEquipment",
        "RequestAppAccess",
        "RequestCorporateCard",
    ]


def test_a_leaver_is_offered_no_flight_or_company_card(deployment, user) -> None:
    text = "Dennis Brown resigned, his last day is 31 January"
    answer = answer_of(deployment, user, "ProcessResignation", text, None)
    assert answer.endswith("the last working day on 2027-01-31.")
    _, suggested = _suggested(deployment, user, "ProcessResignation", text)
    assert {s.agent for s in suggested} <= {"DisableLeaverAccounts", "ApproveTeamExpenses"}
    assert "DisableLeaverAccounts" in {s.agent for s in suggested}


def test_the_new_hire_held_is_who_her_first_name_means(deployment, user) -> None:
    # The data has a Sofia Marin in Sales; the conversation's Sofia is the new hire in IT.
    convid, suggested = _suggested(deployment, user, "StartNewHireOnboarding", ONBOARD)
    held = state_of(deployment, user, convid)["conv"]["employee"]
    for suggestion in suggested:
        run_agent(deployment, user, suggestion.agent, suggestion.request, convid)
        record = last_tool_result(state_of(deployment, user, convid), suggestion.agent)
        assert held["name"] in (record.get("name"), record.get("assigned_to")), suggestion
        assert state_of(deployment, user, convid)["conv"]["employee"] == held


def test_the_users_own_entry_is_followed_by_nothing_about_a_colleague(deployment, user) -> None:
    result = run_agent(deployment, user, "FindColleagueInDirectory", "Who is my manager?", None)
    conv = state_of(deployment, user, result.convid)["conv"]
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    # It offered "Mario Hernandez is leaving, shut off their accounts" to Mario Hernandez.
    assert followups.suggest("FindColleagueInDirectory", conv=conv, user=user.email) == []
    colleague = run_agent(
        deployment, user, "FindColleagueInDirectory", "Look up Daniel Weber's job title", None
    )
    conv = state_of(deployment, user, colleague.convid)["conv"]
    offered = followups.suggest("FindColleagueInDirectory", conv=conv, user=user.email)
    assert offered and all("Daniel Weber" in s.request for s in offered), offered


def test_a_stay_only_trip_is_still_followed_by_the_policy_check(deployment, user) -> None:
    stay = run_agent(
        deployment,
        user,
        "BookHotelStay",
        "Book me a hotel in Lisbon for 3 nights from 14 December",
        None,
    )
    conv = state_of(deployment, user, stay.convid)["conv"]
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    # The policy check reads the trip's transport to say a room runs past it; a trip that is
    # only a stay has none, and is still a trip to check the policy for.
    offered = {s.agent for s in followups.suggest("BookHotelStay", conv=conv, limit=20)}
    assert "CheckTravelPolicy" in offered, offered


def test_a_colleagues_trip_is_followed_by_nothing_of_the_users_own(deployment, user) -> None:
    # After booking Sofia's flight it offered "File my travel expenses for the Berlin trip" and
    # a day in lieu "for travelling", both the user's own.
    booked = run_agent(
        deployment, user, "BookTravelForColleague", "Book a flight to Berlin for Priya Sharma", None
    )
    conv = state_of(deployment, user, booked.convid)["conv"]
    assert conv["trip"]["destination"] == "Berlin"
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    assert followups.suggest("BookTravelForColleague", conv=conv, user=user.email) == []
    # The user's own trip is followed by its claims, as before.
    own = run_agent(deployment, user, "BookBusinessFlight", "Book me a flight to Berlin", None)
    conv = state_of(deployment, user, own.convid)["conv"]
    offered = followups.suggest("BookBusinessFlight", conv=conv, user=user.email)
    assert "File my travel expenses for the Berlin trip" in [s.request for s in offered]
