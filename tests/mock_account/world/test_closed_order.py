"""A cancelled order is over for every agent that reads it: none expedites, changes, bills,
returns or tracks it as if it were still on its way. A request that names another order is
about that one."""

from __future__ import annotations

from handoff_journeys import last_tool_result, reader_request, run_agent, state_of

from agents_catalog.graph import build_handoff_graph

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
