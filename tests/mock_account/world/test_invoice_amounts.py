"""An invoice is for what the request bills: a rate times the hours or days said, to the
customer named (also after "Bill …"), and a double charge is credited back by its amount."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of, state_of


@pytest.mark.parametrize(
    ("request_text", "said"),
    [
        # It raised 150 EUR: one hour.
        (
            "Create an invoice for Orion Retail for 5 hours of consulting at 150 EUR per hour",
            "to Orion Retail for 750 EUR (5 hours at 150 EUR per hour)",
        ),
        # "Bill" was read as the first name of a person "Bill Kestrel", and the invoice went
        # to a customer picked at random.
        (
            "Bill Kestrel for 3 days of training at 900 GBP a day",
            "to Kestrel Energy for 2700 GBP (3 days at 900 GBP per day)",
        ),
        # A flat amount stays as it is.
        (
            "Invoice Hoffmann Logistics 1200 EUR for the workshop",
            "to Hoffmann Logistics for 1200 EUR",
        ),
    ],
)
def test_an_invoice_bills_what_the_request_says(deployment, user, request_text, said) -> None:
    routed, _ = deployment.account.route(user, request_text, None)
    assert routed == "CreateCustomerInvoice", routed
    text = answer_of(deployment, user, routed, request_text, None)
    assert text.startswith("I raised invoice INV-") and said in text, text


def test_a_double_charge_is_credited_by_its_amount(deployment, user) -> None:
    request_text = (
        "Our customer Brightwater Foods was double charged 250 EUR on their last invoice, "
        "refund them"
    )
    routed, _ = deployment.account.route(user, request_text, None)
    # It opened a dispute of the user's own card charge.
    assert routed == "CorrectInvoiceError", routed
    result = deployment.account.exec_agent(user, routed, {"query": request_text}, None)
    invoice = state_of(deployment, user, result.convid)["conv"]["invoice"]
    text = result.parts[0]["text"]
    assert invoice["party"] == "Brightwater Foods" and invoice["currency"] == "EUR"
    assert text.startswith(
        f"I issued a credit note of 250 EUR against invoice {invoice['number']} to Brightwater "
        f"Foods and a corrected invoice for {invoice['amount']} EUR."
    ), text
    original = deployment.account.engine.data.lookup(
        "invoices", where={"number": invoice["number"]}
    )[0]
    assert invoice["amount"] == pytest.approx(original["amount"] - 250)
