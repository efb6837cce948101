"""Suggested follow-ups answer about what the conversation holds: the hotel limit where the
trip goes, the supplier that is the other party of the saved contract."""

from __future__ import annotations

from handoff_journeys import run_agent

BERLIN = "I need to fly to Berlin next Tuesday for a client meeting"


def test_the_hotel_limit_is_for_where_the_trip_goes(deployment, user) -> None:
    trip = run_agent(deployment, user, "BookBusinessFlight", BERLIN, None)
    policy = run_agent(
        deployment,
        user,
        "CheckTravelPolicy",
        "How much can I spend per night on a hotel in Berlin?",
        trip.convid,
    )
    text = policy.parts[0]["text"]
    assert text.startswith("The policy limit for hotels in Berlin is about "), text
    assert "I used the trip to Berlin" in text


def test_the_supplier_renegotiated_is_the_other_party_of_the_contract(deployment, user) -> None:
    found = run_agent(deployment, user, "CheckContractExpiry", "When does CTR-00022 expire?", None)
    brief = run_agent(
        deployment,
        user,
        "RenegotiateSupplierPricing",
        "The supplier on contract CTR-00022 wants to raise prices, help me renegotiate",
        found.convid,
    )
    text = brief.parts[0]["text"]
    assert text.startswith("I prepared a negotiation brief for Nimbus Cloud "), text
    assert "I used contract CTR-00022 with Nimbus Cloud" in text


def test_a_contract_with_a_customer_names_no_supplier_for_it(deployment, user) -> None:
    request_text = "Sign an NDA with Castellano Textiles"
    nda = run_agent(deployment, user, "DraftNondisclosureAgreement", request_text, None)
    brief = run_agent(
        deployment,
        user,
        "RenegotiateSupplierPricing",
        "The supplier on that contract wants to raise prices, help me renegotiate",
        nda.convid,
    )
    assert brief.parts[0]["text"].startswith("I found no supplier for Castellano Textiles.")
