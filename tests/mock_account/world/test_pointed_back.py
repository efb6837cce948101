"""A request that points back to a record the conversation would hold ("that trip", "that
order") in a conversation that holds none, and names none, is asked which one: nothing is
made from a record made up. Once the conversation holds it, the same words work from it."""

from __future__ import annotations

import pytest
from handoff_journeys import records_of, run_agent, state_of


@pytest.mark.parametrize(
    ("agent", "request_text", "which"),
    [
        ("ReserveRentalCar", "Book a rental car for that trip", "Which trip?"),
        ("CreateCustomerInvoice", "Invoice them for that order", "Which order?"),
        ("SubmitExpenseClaim", "File the expense for the same trip", "Which trip?"),
        # Where the conversation holds nothing the agent reads, "the customer" points back too.
        ("CreateCustomerInvoice", "Invoice the customer for it", "Which customer?"),
        (
            "PlaceCustomerOrder",
            "The customer confirmed, please place the order for 200 licences",
            "Which customer?",
        ),
    ],
)
def test_a_record_pointed_back_to_and_not_held_is_asked_for(
    deployment, user, agent, request_text, which
) -> None:
    result = run_agent(deployment, user, agent, request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith(f"{which} There is none in this conversation yet"), text
    assert records_of(state_of(deployment, user, result.convid)["conv"]) == {}


def test_once_held_the_record_pointed_back_to_is_used(deployment, user) -> None:
    booked = run_agent(deployment, user, "BookBusinessFlight", "Fly me to Oslo on 8 January", None)
    car = run_agent(
        deployment, user, "ReserveRentalCar", "Book a rental car for that trip", booked.convid
    )
    text = car.parts[0]["text"]
    assert text.startswith("I reserved "), text
    assert " for you in Oslo, pick-up on 2027-01-08" in text, text


def test_this_names_what_the_request_hands_over(deployment, user) -> None:
    text = "Enter this supplier invoice for 2,400 EUR into accounts payable"
    result = run_agent(deployment, user, "RecordSupplierInvoice", text, None)
    assert state_of(deployment, user, result.convid)["conv"]["invoice"]["amount"] == 2400


def test_a_customer_is_asked_for_by_name_a_document_by_number(deployment, user) -> None:
    customer = run_agent(
        deployment, user, "CreateCustomerInvoice", "Bill the customer for it", None
    )
    assert "tell me its name, or start with the customer itself" in customer.parts[0]["text"]
    order = run_agent(deployment, user, "ExpediteCustomerOrder", "Ship that order today", None)
    assert "tell me its number (ORD-…)" in order.parts[0]["text"], order.parts


def test_the_record_a_request_names_is_no_pointer_back(deployment, user) -> None:
    text = "Invoice the customer for order ORD-000021"
    result = run_agent(deployment, user, "CreateCustomerInvoice", text, None)
    assert result.parts[0]["text"].startswith("I raised invoice INV-"), result.parts
    assert "(order ORD-000021)" in result.parts[0]["text"], result.parts


def test_an_order_after_a_quote_is_for_the_quotes_customer(deployment, user) -> None:
    # A quote for a customer of ours makes them the customer of the conversation: "turn it
    # into an order" is their order, not one asked for again or booked for someone at random.
    quote = run_agent(
        deployment, user, "CreateSalesQuote", "Send a quote to Lakeside Dental for 25 laptop docks"
    , None)  # fmt: skip
    customer = state_of(deployment, user, quote.convid)["conv"]["customer"]
    assert customer["name"] == "Lakeside Dental" and customer["id"].startswith("CUS-"), customer
    follow_up = "Turn it into an order"
    best = deployment.account.index.search(follow_up, limit=1)[0].agent_name
    assert best == "PlaceCustomerOrder", best
    placed = run_agent(deployment, user, best, follow_up, quote.convid).parts[0]["text"]
    order = state_of(deployment, user, quote.convid)["conv"]["order"]
    assert order["customer_id"] == customer["id"], order
    assert placed.startswith(f"Order {order['id']} for Lakeside Dental is placed"), placed


def test_a_quote_for_someone_we_do_not_sell_to_saves_no_customer(deployment, user) -> None:
    quote = run_agent(
        deployment, user, "CreateSalesQuote", "Put together a quote for 25 laptop docks", None
    )
    assert "customer" not in state_of(deployment, user, quote.convid)["conv"]
    order = run_agent(deployment, user, "PlaceCustomerOrder", "Turn it into an order", quote.convid)
    assert order.parts[0]["text"].startswith("Which customer is the order for?"), order.parts
