"""An order holds what the request names: a customer's order is placed for the products
asked for, a change that names another product swaps it in, and the order's invoice goes
to the order's customer."""

from __future__ import annotations

import pytest
from handoff_journeys import (
    answer_of,
    followups_of,
    last_tool_result,
    reader_request,
    run_agent,
    state_of,
)

from mock_account.world.recipe import shown_money


def test_an_order_of_webcams_for_a_customer_is_a_new_order_of_webcams(deployment, user) -> None:
    request_text = "Order 5 webcams for Lakeside Dental with next day delivery"
    hits = deployment.account.index.search(request_text, limit=1)
    assert hits[0].agent_name == "PlaceCustomerOrder"
    result = run_agent(deployment, user, "PlaceCustomerOrder", request_text, None)
    order = state_of(deployment, user, result.convid)["conv"]["order"]
    assert (order["quantity"], order["customer_id"]) == (5, "CUS-00009")
    assert "Webcam" in order["product"], order


def test_a_change_that_names_another_product_swaps_it_in(deployment, user) -> None:
    request_text = "Lakeside Dental wants 5 webcams on their order instead"
    result = run_agent(deployment, user, "AmendOpenOrder", request_text, None)
    order = last_tool_result(state_of(deployment, user, result.convid), "AmendOpenOrder")
    assert order["customer_id"] == "CUS-00009" and "Webcam" in order["product"], order
    assert order["quantity"] == 5
    assert f"it now holds 5 x {order['product']}" in result.parts[0]["text"]
    # More of the same product still adds to it.
    more = run_agent(
        deployment, user, "AmendOpenOrder", "Add 2 more webcams to that order", result.convid
    )
    assert state_of(deployment, user, more.convid)["conv"]["order"]["quantity"] == 7, more.parts


def test_an_order_is_invoiced_to_its_customer(deployment, user) -> None:
    found = run_agent(
        deployment, user, "ShowCustomerOrderHistory", "Show me order ORD-000009", None
    )
    conv = state_of(deployment, user, found.convid)["conv"]
    assert conv["order"]["customer_id"] == "CUS-00009"
    request_text = reader_request(deployment, "CreateCustomerInvoice", "order", conv)
    result = run_agent(deployment, user, "CreateCustomerInvoice", request_text, found.convid)
    invoice = state_of(deployment, user, result.convid)["conv"]["invoice"]
    assert invoice["party"] == "Lakeside Dental", result.parts


def test_an_order_named_in_a_new_conversation_is_the_one_billed(deployment, user) -> None:
    order = next(o for o in deployment.account.engine.data.records("orders") if o["quantity"] > 1)
    customer = deployment.account.engine.data.lookup(
        "customers", where={"id": order["customer_id"]}
    )
    request_text = f"Please bill the customer for order {order['id']}"
    result = run_agent(deployment, user, "CreateCustomerInvoice", request_text, None)
    invoice = state_of(deployment, user, result.convid)["conv"]["invoice"]
    assert invoice["party"] == customer[0]["name"], result.parts
    assert (invoice["amount"], invoice["currency"]) == (order["total"], order["currency"])


def test_a_change_to_an_order_does_not_cancel_it(deployment, user) -> None:
    request_text = "Change order ORD-000009, please"
    agent, _ = deployment.account.route(user, request_text, None)
    assert agent == "AmendOpenOrder"
    result = run_agent(deployment, user, agent, request_text, None)
    assert "cancelled" not in result.parts[0]["text"], result.parts
    assert "order" not in state_of(deployment, user, result.convid)["conv"]


@pytest.mark.parametrize(
    ("request_text", "holds"),
    [
        # A change of item: "tables" of an order is not a database's tables.
        ("Change order ORD-000002 to 8 tables", "8 x Pulse Meeting Table"),
        # "units" count what the order holds: the product stays.
        ("Reduce order ORD-000002 from 40 to 30 units", "30 x Summit Standing Desk"),
    ],
)
def test_an_order_change_holds_what_the_request_says(
    deployment, user, request_text: str, holds: str
) -> None:
    agent, _ = deployment.account.route(user, request_text, None)
    assert agent == "AmendOpenOrder"
    result = run_agent(deployment, user, agent, request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith(f"I changed order ORD-000002: it now holds {holds} for "), text


@pytest.mark.parametrize(
    ("agent", "request_text", "said"),
    [
        (
            "AmendOpenOrder",
            "Change order ORD-000009, please",
            "Order ORD-000009 (40 x Summit Standing Desk) is as it was",
        ),
        (
            "UpdateCustomerContact",
            "Update the contact details for Hoffmann Logistics",
            "Hoffmann Logistics is as it was",
        ),
    ],
)
def test_a_change_that_names_nothing_to_change_changes_nothing(
    deployment, user, agent, request_text, said
) -> None:
    result = run_agent(deployment, user, agent, request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith(said) and "changed" not in text.split(";")[0], text
    assert last_tool_result(state_of(deployment, user, result.convid), agent) is None


def test_a_customers_latest_order_is_the_one_billed(deployment, user) -> None:
    data = deployment.account.engine.data
    customer = data.lookup("customers", where={"name": "Hoffmann Logistics"})[0]
    latest = data.lookup("orders", where={"customer_id": customer["id"]})[-1]
    found = run_agent(
        deployment,
        user,
        "LookUpCustomerAccount",
        "Pull up the account for Hoffmann Logistics",
        None,
    )
    request_text = "Invoice Hoffmann Logistics for their latest order"
    result = run_agent(deployment, user, "CreateCustomerInvoice", request_text, found.convid)
    invoice = state_of(deployment, user, found.convid)["conv"]["invoice"]
    assert invoice["party"] == "Hoffmann Logistics", result.parts
    assert (invoice["amount"], invoice["currency"]) == (latest["total"], latest["currency"])
    assert latest["id"] in result.parts[0]["text"], result.parts


def test_accessories_for_a_customer_are_a_sale_not_a_device_for_our_staff(deployment, user) -> None:
    request_text = "Order 10 headsets for Orion Retail"
    result = run_agent(deployment, user, "OrderDeskAccessories", request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith("Orion Retail is a customer of ours"), text
    assert "Place a customer order of 10 headsets for Orion Retail" in text
    assert (
        last_tool_result(state_of(deployment, user, result.convid), "OrderDeskAccessories") is None
    )
    # Asked that way, or as "place an order of ... for" a customer, it is a customer order.
    for asked in (
        "Place a customer order of 10 headsets for Orion Retail",
        "Place an order of 10 headsets for Hoffmann Logistics",
    ):
        agent, _ = deployment.account.route(user, asked, None)
        assert agent == "PlaceCustomerOrder", asked


def test_a_new_order_names_its_customer_and_is_not_called_late(deployment, user) -> None:
    request_text = "Place a customer order of 10 headsets for Orion Retail"
    result = run_agent(deployment, user, "PlaceCustomerOrder", request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith("Order ORD-") and " for Orion Retail is placed: 10 x " in text, text
    conv = state_of(deployment, user, result.convid)["conv"]
    offered = followups_of(deployment).suggest(
        "PlaceCustomerOrder", written=["order"], conv=conv, already_ran={"PlaceCustomerOrder"}
    )
    assert offered and not any("late" in s.request for s in offered), offered


def test_an_order_for_a_company_that_is_not_a_customer_opens_its_account(deployment, user) -> None:
    request_text = "Greenfield Schools wants 20 office chairs and 5 standing desks"
    result = run_agent(deployment, user, "PlaceCustomerOrder", request_text, None)
    text = result.parts[0]["text"]
    order = state_of(deployment, user, result.convid)["conv"]["order"]
    # Not booked to another customer: to a new account of theirs, and the answer says so.
    known = {c["id"] for c in deployment.account.engine.data.records("customers")}
    assert order["customer_id"] not in known, order
    assert text.startswith(f"Order {order['id']} for Greenfield Schools is placed: 20 x "), text
    assert (
        f"Greenfield Schools is new to us, so I opened their customer account "
        f"{order['customer_id']} with this order." in text
    ), text
    # Their next order in the conversation is on that account.
    again = run_agent(deployment, user, "AmendOpenOrder", "Make it 25 chairs", result.convid)
    changed = state_of(deployment, user, again.convid)["conv"]["order"]
    assert changed["customer_id"] == order["customer_id"] and changed["quantity"] == 25, changed


def _damaged_at_orion(deployment, user):
    return run_agent(
        deployment,
        user,
        "ReportDamagedDelivery",
        "Our customer Orion Retail says their order arrived damaged",
        None,
    )


def test_a_return_after_a_damaged_delivery_is_for_that_customers_order(deployment, user) -> None:
    reported = _damaged_at_orion(deployment, user)
    ticket = state_of(deployment, user, reported.convid)["conv"]["ticket"]
    answer = run_agent(
        deployment, user, "StartProductReturn", "Open a return for it", reported.convid
    ).parts[0]["text"]
    order = state_of(deployment, user, reported.convid)["conv"]["order"]
    assert order["customer_id"] == ticket["customer_id"] and order["status"] == "returned"
    assert answer.startswith(f"The return for {order['product']} from order {order['id']} "), answer
    assert f"I used ticket {ticket['id']}" in answer, answer


def test_a_customer_with_nothing_delivered_is_named_not_given_an_id(deployment, user) -> None:
    reported = run_agent(
        deployment, user, "ReportDamagedDelivery", "Brightwater's parcel arrived damaged", None
    )
    ticket = state_of(deployment, user, reported.convid)["conv"]["ticket"]
    name = deployment.account.engine.world.data.lookup(
        "customers", where={"id": ticket["customer_id"]}
    )[0]["name"]
    answer = run_agent(
        deployment, user, "StartProductReturn", "Open a return for it", reported.convid
    ).parts[0]["text"]
    assert answer.startswith(f"I found no delivered order for {name} ({ticket['customer_id']})."), (
        answer
    )


def test_after_a_damaged_delivery_the_return_is_suggested_not_a_bug(deployment, user) -> None:
    reported = _damaged_at_orion(deployment, user)
    state = state_of(deployment, user, reported.convid)
    suggested = followups_of(deployment).suggest(
        "ReportDamagedDelivery",
        written=state["runs"][-1]["writes"],
        conv=state["conv"],
        limit=3,
        user=user.email,
    )
    agents = [s.agent for s in suggested]
    assert agents[0] == "StartProductReturn" and "FileBugFromTicket" not in agents, suggested


def test_a_discount_approved_says_how_much_off_and_off_what(deployment, user) -> None:
    order = deployment.account.engine.data.lookup("orders", where={"id": "ORD-000006"})[0]
    text = answer_of(
        deployment, user, "ApproveOrderDiscount", "Can I give 10% off order ORD-000006?", None
    )
    # It said "The discount on order … is approved; the new total is …" and not what it was.
    after = round(order["total"] * 0.9, 2)
    assert text.startswith(
        f"The discount on order ORD-000006 is approved (10% off "
        f"{shown_money(order['total'], order['currency'])}); the new total is "
        f"{shown_money(after, order['currency'])}."
    ), text


@pytest.mark.parametrize(
    ("email", "contact"),
    [
        ("anna@lindqvist.se", "Anna"),
        ("anna.berg@lindqvist.se", "Anna Berg"),
        ("sales@lindqvist.se", None),  # a role's address names nobody
    ],
)
def test_a_new_customers_contact_is_the_person_whose_address_was_given(
    deployment, user, email: str, contact: str | None
) -> None:
    account = deployment.account
    asked = account.exec_agent(
        user, "OpenNewCustomerAccount", {"query": "Set up Lindqvist AB as a new customer"}, None
    )
    answers = {"company_name": "Lindqvist AB", "region": "EMEA", "contact_email": email}
    opened = account.exec_agent(user, "OpenNewCustomerAccount", answers, asked.convid)
    saved = state_of(deployment, user, opened.convid)["conv"]["customer"]
    # It was "with Ashley Padilla as the first contact" at anna@lindqvist.se.
    assert saved["email"] == email
    if contact is not None:
        assert saved["contact"] == contact, saved
        assert f"with {contact} as the first contact" in opened.parts[0]["text"], opened.parts
    else:
        assert saved["contact"] and "@" not in saved["contact"], saved


@pytest.mark.parametrize(
    ("follow_up", "count"),
    [("They want 15 more on that.", 55), ("Add two more to the order.", 42)],
)
def test_more_of_an_order_placed_here_is_added_to_it(
    deployment, user, follow_up: str, count: int
) -> None:
    placed = run_agent(
        deployment,
        user,
        "PlaceCustomerOrder",
        "Place an order for Orion Retail: 40 standing desks",
        None,
    )
    order = state_of(deployment, user, placed.convid)["conv"]["order"]
    agent, _ = deployment.account.route(user, follow_up, placed.convid)
    result = run_agent(deployment, user, agent, follow_up, placed.convid)
    changed = state_of(deployment, user, placed.convid)["conv"]["order"]
    assert changed["id"] == order["id"] and changed["customer_id"] == order["customer_id"], changed
    assert changed["quantity"] == count, result.parts
    assert changed["total"] == pytest.approx(order["total"] / 40 * count, abs=0.05)
    assert f"{count} x Summit Standing Desk" in result.parts[0]["text"], result.parts


def test_accessories_asked_for_are_those_not_a_device_of_another_kind(deployment, user) -> None:
    request_text = "need 12 standing desks for the new area on level 14"
    result = run_agent(deployment, user, "OrderDeskAccessories", request_text, None)
    text = result.parts[0]["text"]
    # Twelve phones were ordered for it.
    assert text.startswith("I ordered 12 standing desks ("), text
