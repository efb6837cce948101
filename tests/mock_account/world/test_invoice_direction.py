"""An invoice is either one we issued (receivable: the customer owes us) or a bill a
supplier sent us (payable: we owe them). Agents that collect money work only on the first,
agents that check a supplier's bill only on the second; a record of the other kind is
refused with the reason, left as it is, and never suggested to them."""

from __future__ import annotations

import pytest
from handoff_journeys import (
    TODAY,
    answer_of,
    last_tool_result,
    reader_request,
    run_agent,
    state_of,
)

from mock_account.conversations.followups import Followups

SUPPLIER_BILL = "Enter this supplier invoice for 2,400 EUR into accounts payable"
CUSTOMER_INVOICE = "Invoice Hoffmann Logistics for the 40 licences they ordered last week"
# Agents that collect what a customer owes us, and agents that check what a supplier billed.
COLLECTORS = [
    "ApplyCustomerPayment",
    "ChaseOverdueInvoice",
    "CheckCustomerPaymentStanding",
    "CorrectInvoiceError",
    "SendDemandLetter",
]
SUPPLIER_CHECKS = ["MatchInvoiceToPurchaseOrder", "RequestSupplierCreditNote"]


def _offered(deployment, writer: str, conv: dict) -> set[str]:
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    return {s.agent for s in followups.suggest(writer, conv=conv, limit=20)}


def _refused(deployment, user, writer: str, request_text: str, reader: str) -> tuple[str, dict]:
    """The reader's answer to its own follow-up on what the writer saved, checking that it
    left the saved invoice as it was and took no other."""
    first = run_agent(deployment, user, writer, request_text, None)
    saved = state_of(deployment, user, first.convid)["conv"]
    follow_up = reader_request(deployment, reader, "invoice", saved)
    text = answer_of(deployment, user, reader, follow_up, first.convid)
    state = state_of(deployment, user, first.convid)
    assert state["conv"]["invoice"] == saved["invoice"]
    assert last_tool_result(state, reader) is None
    assert reader not in _offered(deployment, writer, saved)
    return text, saved["invoice"]


def test_every_invoice_goes_the_way_its_party_does(deployment) -> None:
    data = deployment.account.engine.data
    suppliers = {v["name"] for v in data.records("vendors")}
    invoices = data.records("invoices")
    assert {i["direction"] for i in invoices} == {"receivable", "payable"}
    for invoice in invoices:
        assert invoice["direction"] == (
            "payable" if invoice["party"] in suppliers else "receivable"
        )
        if invoice["status"] == "overdue":
            assert invoice["due_date"] < deployment.account.engine.data.anchor.isoformat()


def test_a_supplier_bill_comes_from_a_supplier(deployment, user) -> None:
    booked = run_agent(deployment, user, "RecordSupplierInvoice", SUPPLIER_BILL, None)
    bill = state_of(deployment, user, booked.convid)["conv"]["invoice"]
    suppliers = {v["name"] for v in deployment.account.engine.data.records("vendors")}
    assert bill["direction"] == "payable"
    assert bill["party"] in suppliers, bill


@pytest.mark.parametrize("collector", COLLECTORS)
def test_nothing_is_collected_on_a_bill_a_supplier_sent_us(deployment, user, collector) -> None:
    text, bill = _refused(deployment, user, "RecordSupplierInvoice", SUPPLIER_BILL, collector)
    assert text.startswith(
        f"{bill['number']} is a bill from {bill['party']} to us (we owe them 2400 EUR), not an "
        f"invoice we issued; there is nothing to collect from {bill['party']} on it."
    ), text


@pytest.mark.parametrize("reader", SUPPLIER_CHECKS)
def test_an_invoice_we_issued_is_not_checked_as_a_supplier_bill(deployment, user, reader) -> None:
    text, invoice = _refused(deployment, user, "CreateCustomerInvoice", CUSTOMER_INVOICE, reader)
    assert text.startswith(
        f"{invoice['number']} is an invoice we issued to Hoffmann Logistics (they owe us "
    ), text


def test_each_kind_of_invoice_is_offered_to_the_agents_that_work_on_it(deployment, user) -> None:
    booked = run_agent(deployment, user, "RecordSupplierInvoice", SUPPLIER_BILL, None)
    offered = _offered(
        deployment, "RecordSupplierInvoice", state_of(deployment, user, booked.convid)["conv"]
    )
    assert "MatchInvoiceToPurchaseOrder" in offered
    raised = run_agent(deployment, user, "CreateCustomerInvoice", CUSTOMER_INVOICE, None)
    offered = _offered(
        deployment, "CreateCustomerInvoice", state_of(deployment, user, raised.convid)["conv"]
    )
    assert {"ChaseOverdueInvoice", "CheckCustomerPaymentStanding"} <= offered


def test_a_supplier_bill_named_by_its_number_is_not_chased(deployment, user) -> None:
    result = run_agent(
        deployment, user, "ChaseOverdueInvoice", "Send a second dunning notice for INV-000412", None
    )
    assert result.parts[0]["text"].startswith(
        "INV-000412 is a bill from Nordwind Logistics to us"
    ), result.parts


def test_a_demand_letter_is_for_an_overdue_debt(deployment, user) -> None:
    # An invoice raised today is not yet owed: no letter before action, and none is offered.
    text, invoice = _refused(
        deployment, user, "CreateCustomerInvoice", CUSTOMER_INVOICE, "SendDemandLetter"
    )
    assert (
        text.startswith(f"Invoice {invoice['number']} to Hoffmann Logistics (")
        and "is sent, not overdue: there is no overdue debt on it to act on." in text
    ), text
    # Globex's overdue invoice: chased, then the letter follows.
    chased = run_agent(
        deployment, user, "ChaseOverdueInvoice", "Send a second dunning notice for INV-000318", None
    )
    saved = state_of(deployment, user, chased.convid)["conv"]
    assert saved["invoice"]["status"] == "overdue"
    assert "SendDemandLetter" in _offered(deployment, "ChaseOverdueInvoice", saved)
    follow_up = reader_request(deployment, "SendDemandLetter", "invoice", saved)
    text = answer_of(deployment, user, "SendDemandLetter", follow_up, chased.convid)
    assert text.startswith(
        "I drafted a formal demand for invoice INV-000318 owed by Globex Corporation"
    ), text


def test_a_reminder_before_the_due_date_does_not_make_an_invoice_overdue(deployment, user) -> None:
    raised = run_agent(deployment, user, "CreateCustomerInvoice", CUSTOMER_INVOICE, None)
    saved = state_of(deployment, user, raised.convid)["conv"]
    follow_up = reader_request(deployment, "ChaseOverdueInvoice", "invoice", saved)
    assert follow_up.startswith("Send Hoffmann Logistics a payment reminder for invoice INV-")
    run_agent(deployment, user, "ChaseOverdueInvoice", follow_up, raised.convid)
    invoice = state_of(deployment, user, raised.convid)["conv"]["invoice"]
    assert invoice["due_date"] > TODAY.date().isoformat()
    assert invoice["status"] == "sent"


def test_an_invoice_raised_is_sent_not_a_draft(deployment, user) -> None:
    # "I raised invoice …, due on …" and then "status draft" on the payment standing said two
    # things of one invoice.
    raised = run_agent(deployment, user, "CreateCustomerInvoice", CUSTOMER_INVOICE, None)
    assert raised.parts[0]["text"].startswith("I raised invoice "), raised.parts
    assert state_of(deployment, user, raised.convid)["conv"]["invoice"]["status"] == "sent"


def test_a_credit_note_for_a_bill_not_on_record_is_against_a_bill_we_owe(deployment, user) -> None:
    result = run_agent(
        deployment,
        user,
        "RequestSupplierCreditNote",
        "get a credit note for the 6 missing monitors, SGD 2,934 total",
        None,
    )
    text = result.parts[0]["text"]
    # Not an invoice we issued to a customer, refused as one.
    assert "not a bill from a supplier" not in text, text
    assert text.startswith("I asked ") and "for a credit note against invoice INV-" in text, text
