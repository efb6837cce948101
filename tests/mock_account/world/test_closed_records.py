"""Records that are over stay over: a cancelled order is not expedited, changed, billed,
returned or tracked as if it were on its way; a closed case is not escalated, though it is
still looked at and surveyed; a paid invoice is not paid or chased again. A request that
names another record is about that one."""

from __future__ import annotations

from handoff_journeys import last_tool_result, reader_request, run_agent, state_of

from agents_catalog.graph import build_handoff_graph
from mock_account.conversations.followups import Followups

CLOSED = (
    "Order ORD-000004 ({quantity} x {product}) is cancelled, so it can no longer be shipped, "
    "changed, billed or returned."
)


def _cancelled_order(deployment, user) -> tuple[str, dict]:
    cancelled = run_agent(deployment, user, "CancelCustomerOrder", "Cancel order ORD-000004", None)
    order = state_of(deployment, user, cancelled.convid)["conv"]["order"]
    assert (order["id"], order["status"]) == ("ORD-000004", "cancelled")
    return cancelled.convid, order


def test_every_reader_of_a_cancelled_order_says_it_is_cancelled(deployment, user) -> None:
    graph = build_handoff_graph(list(deployment.account.agents.values()))
    readers = sorted({r for _, variable, r in graph.edges() if variable == "order"})
    assert len(readers) >= 10
    closed: dict[str, str] = {}
    for reader in readers:
        convid, order = _cancelled_order(deployment, user)
        request_text = reader_request(deployment, reader, "order", {"order": order})
        assert request_text, reader
        answer = run_agent(deployment, user, reader, request_text, convid)
        assert answer.success, (reader, answer.error)
        closed[reader] = answer.parts[0]["text"]
        assert state_of(deployment, user, convid)["conv"]["order"] == order, reader
    expected = CLOSED.format(**order)
    wrong = {r: text for r, text in closed.items() if not text.startswith(expected)}
    assert not wrong, wrong


def test_an_invoice_for_another_order_is_not_refused(deployment, user) -> None:
    convid, _ = _cancelled_order(deployment, user)
    answer = run_agent(
        deployment, user, "CreateCustomerInvoice", "Invoice order ORD-000010", convid
    )
    invoice = last_tool_result(state_of(deployment, user, convid), "CreateCustomerInvoice")
    assert invoice is not None and invoice["order"] == "ORD-000010", answer.parts
    assert answer.parts[0]["text"].startswith(f"I raised invoice {invoice['number']}")


def test_a_closed_case_is_not_escalated_but_still_shown_and_surveyed(deployment, user) -> None:
    closed = run_agent(
        deployment, user, "CloseResolvedCase", "Close ticket TCK-000010, it is resolved", None
    )
    ticket = state_of(deployment, user, closed.convid)["conv"]["ticket"]
    assert (ticket["id"], ticket["status"]) == ("TCK-000010", "closed")
    escalated = run_agent(
        deployment, user, "EscalateSupportCase", "Escalate that case, it is urgent", closed.convid
    )
    said = f'Case TCK-000010 ("{ticket["subject"]}") is closed; open a new case if the problem'
    assert escalated.parts[0]["text"].startswith(said)
    assert state_of(deployment, user, closed.convid)["conv"]["ticket"] == ticket
    shown = run_agent(
        deployment,
        user,
        "CheckSupportCaseStatus",
        "What is the status of that case?",
        closed.convid,
    )
    assert shown.parts[0]["text"].startswith(f'Case TCK-000010 "{ticket["subject"]}" is closed')
    survey = run_agent(
        deployment, user, "SendSatisfactionSurvey", "Send the survey for that case", closed.convid
    )
    assert survey.parts[0]["text"].startswith("The satisfaction survey for case TCK-000010 ")
    assert f'("{ticket["subject"]}") is sent to the customer.' in survey.parts[0]["text"]
    # Nobody is paged for it, nor is paging suggested (it was, and paged, after the close).
    paged = run_agent(
        deployment, user, "PageOnCallEngineer", "Page the on-call for that case", closed.convid
    )
    assert paged.parts[0]["text"].startswith(
        "Case TCK-000010 is closed, so there is nobody to page for it"
    ), paged.parts
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    suggested = {s.agent for s in followups.suggest("CloseResolvedCase", conv={"ticket": ticket})}
    assert "PageOnCallEngineer" not in suggested and suggested, suggested


def test_a_survey_of_the_users_own_it_ticket_goes_to_them(deployment, user) -> None:
    opened = run_agent(deployment, user, "ReportBrokenLaptop", "My laptop screen is cracked", None)
    survey = run_agent(
        deployment, user, "SendSatisfactionSurvey", "Send the survey for that case", opened.convid
    )
    # An internal ticket has no customer to survey.
    assert survey.parts[0]["text"].split(" I used ")[0].endswith(") is sent to you."), survey.parts


def test_a_paid_invoice_is_not_paid_again(deployment, user) -> None:
    paid = run_agent(
        deployment, user, "ApplyCustomerPayment", "Invoice INV-000003 has been paid", None
    )
    invoice = state_of(deployment, user, paid.convid)["conv"]["invoice"]
    assert (invoice["number"], invoice["status"]) == ("INV-000003", "paid"), paid.parts
    again = run_agent(
        deployment, user, "ChaseOverdueInvoice", "Chase that invoice, it is overdue", paid.convid
    )
    assert again.parts[0]["text"].startswith("Invoice INV-000003 (")
    assert "is already paid; there is nothing left to chase or change." in again.parts[0]["text"]
    assert state_of(deployment, user, paid.convid)["conv"]["invoice"] == invoice


def test_a_customers_overdue_invoice_is_one_they_have_not_paid(deployment, user) -> None:
    data = deployment.account.engine.world.data

    def receivable(party: str) -> list[dict]:
        return [
            r
            for r in data.records("invoices")
            if r["party"] == party and r["direction"] == "receivable"
        ]

    paid_all = next(
        party
        for party in sorted({r["party"] for r in data.records("invoices")})
        if len(receivable(party)) > 1 and all(r["status"] == "paid" for r in receivable(party))
    )
    text = f"Send a payment reminder to {paid_all} for their overdue invoice"
    chased = run_agent(deployment, user, "ChaseOverdueInvoice", text, None)
    said = chased.parts[0]["text"]
    # A reminder went out for an invoice they had paid.
    assert "was sent to" not in said, said
    assert f" to {paid_all} is already paid" in said, said
    assert said.endswith(f"So is every other invoice for {paid_all}."), said
    assert "invoice" not in state_of(deployment, user, chased.convid)["conv"]
    # One that has an unpaid invoice is reminded of that one.
    mixed = next(
        party
        for party in sorted({r["party"] for r in data.records("invoices")})
        if any(r["status"] == "paid" for r in receivable(party))
        and any(r["status"] in ("sent", "overdue") for r in receivable(party))
    )
    text = f"Send a payment reminder to {mixed} for their overdue invoice"
    chased = run_agent(deployment, user, "ChaseOverdueInvoice", text, None)
    invoice = state_of(deployment, user, chased.convid)["conv"]["invoice"]
    unpaid = {r["number"] for r in receivable(mixed) if r["status"] != "paid"}
    assert invoice["number"] in unpaid, (invoice, chased.parts)
