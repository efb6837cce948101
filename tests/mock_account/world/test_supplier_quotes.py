"""A request for quotes after a supplier was named goes to that supplier, with the quantity
the request states already in the form; a form shows no half-filled default."""

from __future__ import annotations

from handoff_journeys import run_agent, state_of

AGENT = "RequestSupplierQuotes"


def test_quotes_are_asked_of_the_supplier_just_onboarded(deployment, user) -> None:
    onboard = "We need a new supplier of cardboard boxes, Kartonwerk GmbH in Hamburg"
    supplier = run_agent(deployment, user, "OnboardNewSupplier", onboard, None)
    vendor = state_of(deployment, user, supplier.convid)["conv"]["vendor"]
    asked = deployment.account.exec_agent(
        user, AGENT, {"query": "Ask them for quotes for 5,000 boxes"}, supplier.convid
    )
    quantity = next(i for i in asked.ask_input["inputs"] if i["name"] == "quantity")
    assert quantity["default"] == "5000 x box", quantity  # the form was empty
    done = deployment.account.exec_agent(
        user, AGENT, {"quantity": quantity["default"], "criteria": ["price"]}, supplier.convid
    )
    text = done.parts[0]["text"]
    # It answered "Which goods or services is it for?" with the supplier saved.
    assert text.startswith("I sent the request for quotation to Kartonwerk GmbH and other"), text
    assert f"I used the vendor Kartonwerk GmbH ({vendor['id']}) already saved" in text


def test_a_form_default_of_values_not_stated_is_left_empty(deployment, user) -> None:
    asked = deployment.account.exec_agent(
        user, AGENT, {"query": "Send an RFQ to our packaging suppliers and compare prices"}, None
    )
    quantity = next(i for i in asked.ask_input["inputs"] if i["name"] == "quantity")
    assert "default" not in quantity or quantity["default"] is None, quantity  # it was " "
