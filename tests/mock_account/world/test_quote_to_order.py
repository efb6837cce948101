"""A quote becomes the order: "Turn it into an order" after a quote opens the order form at
the quoted product and quantity, and places it at the quoted price, in the quoted currency.
Before, the form opened empty, and the follow-up suggested after a quote for 20 laptops was
"Place an order of 10 standing desks"."""

from __future__ import annotations

from handoff_journeys import followups_of, routed_answer, run_agent, state_of

from agents_catalog.scheme import load_scheme

QUOTE = "Get me a quote for 20 laptops for Globex"


def _quoted(deployment, user) -> tuple[str, dict]:
    quoted = run_agent(deployment, user, "CreateSalesQuote", QUOTE, None)
    assert quoted.success, quoted.error
    return quoted.convid, state_of(deployment, user, quoted.convid)["conv"]["quote"]


def test_the_quote_saves_what_it_priced_for_whom(deployment, user) -> None:
    convid, quote = _quoted(deployment, user)
    text = run_agent(deployment, user, "CreateSalesQuote", QUOTE, None).parts[0]["text"]
    assert quote["name"] == "Laptop" and quote["quantity"] == 20
    assert quote["customer"] == "Globex Corporation"
    assert quote["total"] == round(quote["price"] * 20, 2)
    assert f"20 x Laptop ({quote['sku']}) at {quote['price']:g} {quote['currency']}" in text


def test_turn_it_into_an_order_opens_the_form_at_the_quote(deployment, user) -> None:
    convid, quote = _quoted(deployment, user)
    agent, _ = deployment.account.route(user, "Turn it into an order", convid)
    assert agent == "PlaceCustomerOrder"
    asked = deployment.account.exec_agent(user, agent, {"query": "Turn it into an order"}, convid)
    opened = {i["name"]: i.get("default") for i in asked.ask_input["inputs"]}
    assert opened["product"] == "Laptop" and opened["quantity"] == "20", opened


def test_the_order_is_at_the_quoted_price_and_says_so(deployment, user) -> None:
    convid, quote = _quoted(deployment, user)
    placed = run_agent(deployment, user, "PlaceCustomerOrder", "Turn it into an order", convid)
    text = placed.parts[0]["text"]
    order = state_of(deployment, user, convid)["conv"]["order"]
    assert (order["product"], order["quantity"]) == ("Laptop", 20)
    assert (order["total"], order["currency"]) == (quote["total"], quote["currency"])
    assert f"I used the quote for Laptop at {quote['price']:g} {quote['currency']} per unit" in text


def test_an_order_of_another_product_takes_nothing_of_the_quote(deployment, user) -> None:
    convid, quote = _quoted(deployment, user)
    request = "Place an order of 5 standing desks for Globex"
    placed = run_agent(deployment, user, "PlaceCustomerOrder", request, convid)
    order = state_of(deployment, user, convid)["conv"]["order"]
    assert order["product"] == "Summit Standing Desk" and order["quantity"] == 5
    assert "I used the quote" not in placed.parts[0]["text"]


def test_a_product_named_without_a_quote_is_no_quote(deployment, user) -> None:
    # The desk the request names stood in for a quote of the catalogue's desk: the order of
    # the British customer was priced in the catalogue's dollars.
    request = "Our customer Orion Retail wants 20 standing desks"
    placed = run_agent(deployment, user, "PlaceCustomerOrder", request, None)
    order = state_of(deployment, user, placed.convid)["conv"]["order"]
    assert order["currency"] == "GBP"
    assert "quote" not in placed.parts[0]["text"]


def test_the_quote_is_suggested_as_the_order_not_other_goods(deployment, user) -> None:
    convid, _ = _quoted(deployment, user)
    conv = state_of(deployment, user, convid)["conv"]
    offered = followups_of(deployment).suggest(
        "CreateSalesQuote", written=["customer", "quote"], conv=conv, limit=6
    )
    orders = [s.request for s in offered if s.agent == "PlaceCustomerOrder"]
    assert orders == ["Globex Corporation accepted the quote, place the order for 20 x Laptop"]
    agent, answer = routed_answer(deployment, user, orders[0], convid)
    assert agent == "PlaceCustomerOrder"


def test_a_quote_for_a_customer_is_in_their_currency(deployment, user) -> None:
    # The desk lists in dollars; the German customer is quoted in euros, as their orders are.
    request = "Put together a quote for 10 standing desks for Hoffmann Logistics"
    quoted = run_agent(deployment, user, "CreateSalesQuote", request, None)
    quote = state_of(deployment, user, quoted.convid)["conv"]["quote"]
    assert quote["name"] == "Summit Standing Desk" and quote["currency"] == "EUR"


def test_a_quote_for_a_prospect_is_theirs_and_their_order_opens_their_account(
    deployment, user
) -> None:
    # "Acme Widgets GmbH" was quoted as the customer Acme Corporation, on its first word.
    request = "Prepare a quote for Acme Widgets GmbH, 10 standing desks"
    quoted = run_agent(deployment, user, "CreateSalesQuote", request, None)
    assert quoted.parts[0]["text"].startswith("I drafted a quote for Acme Widgets GmbH: 10 x")
    conv = state_of(deployment, user, quoted.convid)["conv"]
    assert conv["quote"]["customer"] == "Acme Widgets GmbH" and "customer" not in conv
    placed = run_agent(
        deployment, user, "PlaceCustomerOrder", "Turn it into an order", quoted.convid
    )
    text = placed.parts[0]["text"]
    order = state_of(deployment, user, quoted.convid)["conv"]["order"]
    assert text.startswith(f"Order {order['id']} for Acme Widgets GmbH is placed: 10 x "), text
    assert "Acme Widgets GmbH is new to us, so I opened their customer account" in text, text


def test_a_quote_for_nobody_named_saves_no_customer(deployment, user) -> None:
    quoted = run_agent(
        deployment, user, "CreateSalesQuote", "Prepare a quote for 10 standing desks", None
    )
    quote = state_of(deployment, user, quoted.convid)["conv"]["quote"]
    assert quote["quantity"] == 10 and "customer" not in quote
    assert load_scheme().variables["quote"].errors(quote) == []
