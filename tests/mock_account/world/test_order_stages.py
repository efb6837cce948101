"""An order is worked on at the stage it is at: an order not shipped yet has arrived
neither damaged nor broken and cannot be returned; a delivered one can no longer be rushed,
changed, cancelled or chased as late. The answer says the order's stage instead, and no
follow-up offers what the stage rules out."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of, followups_of, run_agent, state_of

from mock_account.world import fits


def _order(deployment, status: str) -> dict:
    return next(
        o for o in deployment.account.engine.data.records("orders") if o["status"] == status
    )


@pytest.mark.parametrize(
    ("agent", "request_text"),
    [
        ("ReportDamagedDelivery", "Order {id} arrived damaged, the box was crushed"),
        ("StartProductReturn", "The customer wants to return order {id}"),
        (
            "FileWarrantyClaim",
            "The {product} from order {id} stopped working, file a warranty claim",
        ),
    ],
)
def test_an_order_not_shipped_yet_has_nothing_delivered_to_work_on(
    deployment, user, agent, request_text
) -> None:
    order = _order(deployment, "placed")
    query = request_text.format(**order)
    assert deployment.account.index.search(query, limit=1)[0].agent_name == agent
    result = run_agent(deployment, user, agent, query, None)
    text = result.parts[0]["text"]
    assert text.startswith(f"Order {order['id']} ({order['quantity']} x {order['product']})"), text
    assert "has not shipped yet" in text, text
    # No ticket is opened, and no replacement sent, for an order that has not arrived.
    assert "ticket" not in state_of(deployment, user, result.convid)["conv"]
    assert "replacement" not in text


@pytest.mark.parametrize(
    ("agent", "request_text"),
    [
        ("ExpediteCustomerOrder", "Can we rush order {id}? They need it by Friday"),
        ("CancelCustomerOrder", "Cancel order {id}, the customer changed their mind"),
        ("TrackLateDelivery", "Where is order {id}? The delivery is late"),
        ("ExpediteSupplierDelivery", "Chase our supplier to speed up the delivery for order {id}"),
    ],
)
def test_a_delivered_order_is_not_rushed_cancelled_or_chased(
    deployment, user, agent, request_text
) -> None:
    order = _order(deployment, "delivered")
    first = run_agent(
        deployment, user, "ShowCustomerOrderHistory", f"Show me order {order['id']}", None
    )
    assert state_of(deployment, user, first.convid)["conv"]["order"]["status"] == "delivered"
    query = request_text.format(**order)
    assert deployment.account.index.search(query, limit=1)[0].agent_name == agent
    text = answer_of(deployment, user, agent, query, first.convid)
    assert text.startswith(f"Order {order['id']} ({order['quantity']} x {order['product']})"), text
    assert "was delivered" in text, text
    # Nothing was changed: the order is still delivered, not cancelled.
    assert state_of(deployment, user, first.convid)["conv"]["order"]["status"] == "delivered"


def test_a_new_order_is_offered_what_its_stage_allows(deployment, user) -> None:
    placed = run_agent(
        deployment,
        user,
        "PlaceCustomerOrder",
        "Place an order of 10 standing desks for Hoffmann Logistics",
        None,
    )
    conv = state_of(deployment, user, placed.convid)["conv"]
    assert conv["order"]["status"] == "placed"
    followups = followups_of(deployment)
    for reader in ("ReportDamagedDelivery", "StartProductReturn", "FileWarrantyClaim"):
        assert followups.written(reader, "order", conv) is None, reader
    offered = followups.suggest(
        "PlaceCustomerOrder", written=["order"], conv=conv, already_ran={"PlaceCustomerOrder"}
    )
    assert len(offered) == 3, offered
    for suggestion in offered:
        text = answer_of(deployment, user, suggestion.agent, suggestion.request, placed.convid)
        assert "has not shipped yet" not in text and "was delivered" not in text, (suggestion, text)


def test_a_delivered_order_is_offered_a_return_not_a_rush(deployment, user) -> None:
    order = _order(deployment, "delivered")
    found = run_agent(
        deployment, user, "ShowCustomerOrderHistory", f"Show me order {order['id']}", None
    )
    conv = state_of(deployment, user, found.convid)["conv"]
    followups = followups_of(deployment)
    assert followups.written("ExpediteCustomerOrder", "order", conv) is None
    assert followups.written("StartProductReturn", "order", conv) is not None
    returned = run_agent(
        deployment,
        user,
        "StartProductReturn",
        f"The customer wants to return order {order['id']}",
        found.convid,
    )
    assert "is authorised" in returned.parts[0]["text"], returned.parts
    assert fits(state_of(deployment, user, found.convid)["conv"]["order"], {"status": "returned"})


def test_the_status_of_an_order_goes_to_an_order_agent(deployment, user) -> None:
    # Not to the incident-status agent, which would ask "Which incident?".
    request_text = "What's the status of order ORD-000021?"
    best = deployment.account.index.search(request_text, limit=1)[0].agent_name
    assert best == "TrackLateDelivery", best
    answer = run_agent(deployment, user, best, request_text, None).parts[0]["text"]
    assert answer.startswith("Order ORD-000021 ("), answer
