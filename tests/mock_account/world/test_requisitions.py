"""A purchase requisition is for as many as the request asks, priced for all of them."""

from __future__ import annotations

from handoff_journeys import last_tool_result, run_agent, state_of

from mock_account.world.recipe import shown_money


def test_a_requisition_is_for_the_quantity_asked(deployment, user) -> None:
    request_text = "Buy 20 office chairs for the Madrid office"
    result = run_agent(deployment, user, "CreatePurchaseRequisition", request_text, None)
    item = last_tool_result(state_of(deployment, user, result.convid), "CreatePurchaseRequisition")
    assert item["quantity"] == 20 and "Office Chair" in item["name"], item
    assert item["total"] == round(item["price"] * 20, 2)
    text = result.parts[0]["text"]
    assert text.startswith(
        f"I raised a purchase requisition for 20 x {item['name']} at about "
        f"{shown_money(item['total'], item['currency'])} "
    ), text


def test_an_amount_said_for_all_of_them_is_the_total_and_one_said_each_the_price(
    deployment, user
) -> None:
    agent = "CreatePurchaseRequisition"
    # It was priced at 18,000 EUR a laptop: 270,000 EUR.
    for request_text, price, total in (
        ("Raise a purchase order for 15 laptops from Dell for about 18,000 EUR", 1200, 18000),
        ("Buy 15 laptops at 1,200 EUR each", 1200, 18000),
        ("Buy 10 monitors at 300 EUR", 300, 3000),
    ):
        result = run_agent(deployment, user, agent, request_text, None)
        item = last_tool_result(state_of(deployment, user, result.convid), agent)
        assert (item["price"], item["total"]) == (price, total), (request_text, item)
        assert f" at about {total} EUR " in result.parts[0]["text"], result.parts


def test_office_supplies_ordered_by_the_number_say_how_many(deployment, user) -> None:
    agent = "OrderOfficeSupplies"
    result = run_agent(deployment, user, agent, "I need 20 standing desks for the Lyon team", None)
    item = last_tool_result(state_of(deployment, user, result.convid), agent)
    # "I ordered Summit Standing Desk" for twenty.
    assert item["quantity"] == 20, item
    assert result.parts[0]["text"].startswith(f"I ordered 20 x {item['name']} from the catalogue")
    one = run_agent(deployment, user, agent, "We've run out of printer paper", None)
    assert one.parts[0]["text"].startswith("I ordered Printer Paper from the catalogue"), one.parts


def test_two_more_of_a_requisition_raised_here_are_added_to_it(deployment, user) -> None:
    first = run_agent(
        deployment,
        user,
        "CreatePurchaseRequisition",
        "Raise a purchase request for 12 standing desks, about SGD 780 each",
        None,
    )
    assert "12 x " in first.parts[0]["text"], first.parts
    more = run_agent(
        deployment,
        user,
        "CreatePurchaseRequisition",
        "Add two more, sales wants them too.",
        first.convid,
    )
    text = more.parts[0]["text"]
    assert "14 x " in text and "desk" in text.lower(), text
