"""A purchase requisition is for as many as the request asks, priced for all of them."""

from __future__ import annotations

from handoff_journeys import last_tool_result, run_agent, state_of


def test_a_requisition_is_for_the_quantity_asked(deployment, user) -> None:
    request_text = "Buy 20 office chairs for the Madrid office"
    result = run_agent(deployment, user, "CreatePurchaseRequisition", request_text, None)
    item = last_tool_result(state_of(deployment, user, result.convid), "CreatePurchaseRequisition")
    assert item["quantity"] == 20 and "Office Chair" in item["name"], item
    assert item["total"] == round(item["price"] * 20, 2)
    text = result.parts[0]["text"]
    assert text.startswith(
        f"I raised a purchase requisition for 20 x {item['name']} at about {item['total']:g} "
    ), text
