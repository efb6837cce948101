"""A question that names no company, person or destination makes none up: "How do I get a
new vendor set up?" asks which supplier instead of onboarding a made-up one, "How early do I
need to book my flights?" books no flight; named, it goes ahead."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of, records_of, run_agent, state_of


@pytest.mark.parametrize(
    ("agent", "request_text", "answer"),
    [
        (
            # How it is done, not a request to do it (``test_how_questions``).
            "OnboardNewSupplier",
            "How do I get a new vendor set up so I can buy from them?",
            "I can do that for you here (register a new supplier in the purchasing system)",
        ),
        (
            "OnboardNewSupplier",
            "We need to get a new vendor set up so we can buy from them",
            "Which supplier is it? Tell me its name and I will go ahead",
        ),
        (
            "DraftDataProcessingAgreement",
            "Does this processor need standard contractual clauses for transfers to the US?",
            "Which contract is it? Tell me who it is with and I will go ahead",
        ),
        (
            "BookBusinessFlight",
            "How early do I need to book my flights?",
            "Which trip is it? Tell me where you are going and I will go ahead",
        ),
    ],
)
def test_a_question_naming_nobody_makes_nobody_up(deployment, user, agent, request_text, answer):
    result = run_agent(deployment, user, agent, request_text, None)
    assert result.parts[0]["text"].startswith(answer), result.parts
    assert records_of(state_of(deployment, user, result.convid)["conv"]) == {}


def test_a_request_naming_the_company_goes_ahead(deployment, user) -> None:
    result = run_agent(
        deployment, user, "OnboardNewSupplier", "Onboard Meridian Optics as a supplier", None
    )
    assert "Meridian Optics" in result.parts[0]["text"], result.parts
    assert state_of(deployment, user, result.convid)["conv"]["vendor"]["name"] == "Meridian Optics"


def test_a_customer_named_as_a_new_supplier_is_the_one_onboarded(deployment, user) -> None:
    # Castellano Textiles buys from us; set up as a supplier, it is that company (and in its
    # country), not another one made up.
    customer = deployment.account.engine.data.lookup(
        "customers", where={"name": "Castellano Textiles"}
    )[0]
    text = "Set up Castellano Textiles as a new supplier"
    result = run_agent(deployment, user, "OnboardNewSupplier", text, None)
    assert result.parts[0]["text"].startswith("I started onboarding Castellano Textiles as"), (
        result.parts
    )
    vendor = state_of(deployment, user, result.convid)["conv"]["vendor"]
    assert (vendor["name"], vendor["country"]) == ("Castellano Textiles", customer["country"])


@pytest.mark.parametrize(
    "request_text",
    [
        "We need a new supplier of packaging in Poland",  # it onboarded "Pollard Foods"
        "Onboard the translation agency we picked for the product launch",
    ],
)
def test_a_new_supplier_nobody_names_is_asked_for(deployment, user, request_text) -> None:
    result = run_agent(deployment, user, "OnboardNewSupplier", request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith("Which supplier is it? Tell me its name"), text
    assert "vendor" not in state_of(deployment, user, result.convid)["conv"]


@pytest.mark.parametrize(
    ("agent", "request_text"),
    [
        ("RequestSupplierQuotes", "Get quotes from suppliers"),
        ("FindApprovedSupplier", "Which supplier is the cheapest?"),
    ],
)
def test_suppliers_for_nothing_named_are_asked_for(deployment, user, agent, request_text) -> None:
    result = run_agent(deployment, user, agent, request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith("Which goods or services is it for?"), text
    assert "vendor" not in state_of(deployment, user, result.convid)["conv"]


@pytest.mark.parametrize(
    ("request_text", "category"),
    [
        ("Get quotes for 50 ergonomic office chairs", "office supplies"),
        ("Send an RFQ to our packaging suppliers and compare prices", "logistics"),
        ("Get three quotes for 500 branded water bottles", "marketing services"),
    ],
)
def test_quotes_go_to_suppliers_of_what_is_bought(deployment, user, request_text, category) -> None:
    result = run_agent(deployment, user, "RequestSupplierQuotes", request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith("I sent the request for quotation to "), text
    supplier = text.removeprefix("I sent the request for quotation to ").split(" and other")[0]
    found = deployment.account.engine.world.data.lookup("vendors", where={"name": supplier})
    assert found and found[0]["category"] == category, (text, found)


@pytest.mark.parametrize(
    ("agent", "request_text"),
    [
        ("FixVpnConnection", "What's the status of my VPN ticket?"),
        ("ReportBrokenLaptop", "When will my laptop repair be done?"),
    ],
)
def test_a_question_about_how_a_ticket_stands_opens_none(
    deployment, user, agent, request_text
) -> None:
    # Both opened a new ticket and answered with its number.
    result = run_agent(deployment, user, agent, request_text, None)
    assert result.parts[0]["text"].startswith(
        "Which ticket? There is none in this conversation yet; tell me its number (TCK-…)"
    ), result.parts
    assert "ticket" not in state_of(deployment, user, result.convid)["conv"]
    # Reported, the problem opens one.
    opened = run_agent(deployment, user, "ReportBrokenLaptop", "My laptop screen is cracked", None)
    assert opened.parts[0]["text"].startswith("I opened repair ticket TCK-"), opened.parts


def test_an_invoice_for_them_with_nobody_saved_is_raised_to_nobody(deployment, user) -> None:
    onboarded = run_agent(
        deployment,
        user,
        "OnboardNewSupplier",
        "Onboard Castellano Textiles as a new supplier",
        None,
    )
    text = answer_of(
        deployment,
        user,
        "CreateCustomerInvoice",
        "Record their invoice for 4,500 EUR due 30 December",
        onboarded.convid,
    )
    # It raised the invoice to a customer picked at random.
    assert text.startswith("Whose invoice is it? Nobody it could be for is saved"), text
    assert "invoice" not in state_of(deployment, user, onboarded.convid)["conv"]


def test_a_claim_said_to_be_mine_that_is_a_colleagues_is_left_alone(deployment, user) -> None:
    claim = deployment.account.engine.data.lookup("expenses", where={"id": "EXP-00012"})[0]
    assert claim["employee"] != user.name
    text = answer_of(
        deployment,
        user,
        "ApproveTeamExpenses",
        "My expense claim EXP-00012 was rejected, why?",
        None,
    )
    # It put the colleague's claim up for the user's decision.
    assert text.startswith(
        f"EXP-00012 is {claim['employee']}'s {claim['category']} claim, not one of yours"
    ), text


def test_a_desk_in_an_office_is_no_hotel_room(deployment, user) -> None:
    text = answer_of(
        deployment,
        user,
        "BookHotelStay",
        "Reserve a desk in the Berlin office for next Monday",
        None,
    )
    # It reserved a hotel room in Berlin.
    assert text.startswith("I book hotel rooms for work trips, not desks"), text


def test_a_taxi_to_the_hotel_is_no_hotel_room(deployment, user) -> None:
    booked = run_agent(
        deployment, user, "BookBusinessFlight", "I need to fly to Berlin next Tuesday", None
    )
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    text = answer_of(
        deployment,
        user,
        "BookHotelStay",
        "Book a taxi from the airport to the hotel",
        booked.convid,
    )
    # It reserved a room at the trip's hotel.
    assert text.startswith("I book hotel rooms, not taxis or transfers"), text
    assert state_of(deployment, user, booked.convid)["conv"]["trip"] == trip
