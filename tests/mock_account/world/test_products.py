"""A price or stock question is about the product it names: the catalogue's product of
that kind (an "ergonomic chair" is a chair, not an ergonomic mouse), or none when the
catalogue has nothing by that name, never another product."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of, last_tool_result, run_agent, state_of

from mock_account.world.recipe import shown_money

AGENT = "CheckProductListPrice"


@pytest.mark.parametrize(
    ("request_text", "product"),
    [
        ("How much do we charge for the X200 scanner?", "X200 Scanner"),
        ("Is the ergonomic chair available and what does it cost?", "Office Chair"),
        ("What's the price of the Flux Office Chair?", "Flux Office Chair"),
    ],
)
def test_the_price_given_is_the_named_products(deployment, user, request_text, product) -> None:
    text = answer_of(deployment, user, AGENT, request_text, None)
    assert text.split(" (SKU-")[0].endswith(product) and " lists at " in text, text


def test_a_product_the_catalogue_lacks_is_not_priced_as_another(deployment, user) -> None:
    request_text = "What is the list price of the A4 label printer and do we have it in stock?"
    text = answer_of(deployment, user, AGENT, request_text, None)
    assert text.startswith("I found no product named A4 Label Printer"), text
    assert "lists at" not in text


def test_a_count_of_something_the_catalogue_lacks_finds_none(deployment, user) -> None:
    # Not the product whose SKU number matches the count (SKU-00200).
    text = "Raise a purchase order for 200 reams of paper from Nordwind Logistics"
    answer = answer_of(deployment, user, "SourceMaterialsForOrder", text, None)
    assert answer.startswith("I found no product named Paper."), answer


@pytest.mark.parametrize(
    "request_text",
    [
        "Raise a purchase order to the cheapest one",
        # The size of an order, or the order itself, is no product ("Unit Order", "Big Order").
        "We won a 5,000 unit order, do we have enough components to build it?",
        "Check component stock for the big order and purchase what's missing",
    ],
)
def test_materials_for_no_product_named_ask_which_one(deployment, user, request_text) -> None:
    text = answer_of(deployment, user, "SourceMaterialsForOrder", request_text, None)
    assert text.startswith("Which product? There is none in this conversation yet"), text


def test_materials_for_a_saved_order_are_its_product(deployment, user) -> None:
    placed = run_agent(
        deployment,
        user,
        "PlaceCustomerOrder",
        "Place an order of 10 webcams for Orion Retail",
        None,
    )
    order = state_of(deployment, user, placed.convid)["conv"]["order"]
    text = answer_of(
        deployment,
        user,
        "SourceMaterialsForOrder",
        f"Do we have enough stock to build order {order['id']}?",
        placed.convid,
    )
    assert text.startswith(f"{order['product']} (SKU-"), text
    # Whether anything is short depends on the stock: the answer claims no shortfall.
    assert "whatever the order needs beyond that" in text


@pytest.mark.parametrize(
    ("request_text", "start"),
    [
        (
            "Prepare a quote for Orion Retail, 20 standing desks",
            "I drafted a quote for Orion Retail: 20 x ",
        ),
        # A company we do not know yet is still whom the quote is for, in the currency asked.
        (
            "Quote Lindqvist AB for 150 seats of the Pro plan, in SEK",
            "I drafted a quote for Lindqvist AB: 150 x ",
        ),
    ],
)
def test_a_quote_is_for_whom_and_how_many_it_was_asked(deployment, user, request_text, start):
    result = run_agent(deployment, user, "CreateSalesQuote", request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith(start), text
    quote = last_tool_result(state_of(deployment, user, result.convid), "CreateSalesQuote")
    assert f"{shown_money(quote['total'], quote['currency'])} in all" in text
    if "SEK" in request_text:
        assert quote["currency"] == "SEK"


def test_a_quote_for_no_product_named_asks_which_one(deployment, user) -> None:
    # "Our premium bundle" is in no catalogue: no product is quoted in its place.
    text = answer_of(
        deployment,
        user,
        "CreateSalesQuote",
        "The prospect wants an offer for our premium bundle, can you price it?",
        None,
    )
    assert text.startswith("Which product is it? Tell me its name or SKU"), text


def test_more_units_of_a_quote_made_here_are_added_to_it(deployment, user) -> None:
    quoted = run_agent(
        deployment,
        user,
        "CreateSalesQuote",
        "Prepare a quote for Orion Retail for 250 units of the Summit Standing Desk",
        None,
    )
    assert "250 x Summit Standing Desk" in quoted.parts[0]["text"], quoted.parts
    more = run_agent(
        deployment,
        user,
        "CreateSalesQuote",
        "Great, and add 50 more units to the quote, they want spares.",
        quoted.convid,
    )
    assert "300 x Summit Standing Desk" in more.parts[0]["text"], more.parts
