"""A user's own IT ticket (a cracked laptop screen) belongs to no customer: it gets none,
keeps none when it is closed, and no follow-up about its customer or a product bug is
suggested for it, while a customer's case still gets them."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of, run_agent, state_of

from mock_account.conversations.followups import Followups

CUSTOMER_READERS = (
    "OfferGoodwillGesture",
    "FileBugFromTicket",
    "FindReleaseWithFix",
    "RequestHotfix",
    "ReviewAccountHealth",
)


def _it_ticket(deployment, user):
    request_text = "My laptop screen is cracked, I need it repaired"
    return run_agent(deployment, user, "ReportBrokenLaptop", request_text, None)


def test_an_it_ticket_has_no_customer_and_no_customer_followups(deployment, user) -> None:
    account = deployment.account
    broken = _it_ticket(deployment, user)
    conv = state_of(deployment, user, broken.convid)["conv"]
    assert conv["ticket"]["customer_id"] == ""
    followups = Followups(account.agents.values(), account.index)
    offered = {r: followups.written(r, "ticket", conv) for r in CUSTOMER_READERS}
    assert offered == dict.fromkeys(CUSTOMER_READERS), offered
    # Its own follow-ups are still there.
    assert followups.written("CheckSupportCaseStatus", "ticket", conv)
    request_text = f"The issue is fixed, close {conv['ticket']['id']}"
    run_agent(deployment, user, "CloseResolvedCase", request_text, broken.convid)
    closed = state_of(deployment, user, broken.convid)["conv"]["ticket"]
    assert (closed["status"], closed["customer_id"]) == ("closed", "")


def test_a_customer_case_keeps_its_customer_followups(deployment, user) -> None:
    account = deployment.account
    case = run_agent(
        deployment,
        user,
        "OpenSupportCase",
        "Raise a support request for Lakeside Dental, their dashboards show no data",
        None,
    )
    conv = state_of(deployment, user, case.convid)["conv"]
    assert conv["ticket"]["customer_id"].startswith("CUS-")
    followups = Followups(account.agents.values(), account.index)
    assert followups.written("FileBugFromTicket", "ticket", conv)
    assert followups.written("OfferGoodwillGesture", "ticket", conv)


def test_a_gesture_for_an_it_tickets_customer_names_none_or_the_one_asked(deployment, user) -> None:
    broken = _it_ticket(deployment, user)
    none = run_agent(
        deployment,
        user,
        "OfferGoodwillGesture",
        "The customer of that ticket had a bad week, offer them a goodwill gesture",
        broken.convid,
    )
    assert none.parts[0]["text"].startswith(
        "The ticket saved in this conversation has no customer, so there is none to work on."
    )
    request_text = "Offer Lakeside Dental a goodwill gesture, they had a bad week"
    text = answer_of(deployment, user, "OfferGoodwillGesture", request_text, broken.convid)
    assert text.startswith("I prepared the goodwill gesture for Lakeside Dental "), text
    assert "I used ticket" not in text
    assert "ticket" not in state_of(deployment, user, broken.convid)["runs"][-1]["reads"]


@pytest.mark.parametrize(
    "request_text",
    [
        "Open a support ticket for Hoffmann Logistics: their delivery arrived damaged",
        "Open a ticket for Hoffmann Logistics, their delivery arrived damaged",
    ],
)
def test_a_ticket_is_about_what_is_wrong_not_the_ask_to_open_it(
    deployment, user, request_text
) -> None:
    result = run_agent(deployment, user, "ReportDamagedDelivery", request_text, None)
    ticket = state_of(deployment, user, result.convid)["conv"]["ticket"]
    assert ticket["subject"] == "Their delivery arrived damaged", ticket
    assert '"Their delivery arrived damaged"' in result.parts[0]["text"], result.parts


def test_the_vpn_answer_gives_the_steps_it_points_to(deployment, user) -> None:
    # It said "If the steps above don't help" with no steps above.
    text = "The VPN keeps disconnecting every 10 minutes since this morning"
    answer = run_agent(deployment, user, "FixVpnConnection", text, None).parts[0]["text"]
    assert answer.startswith("First try this: quit the VPN client and sign in again"), answer
    assert "above" not in answer
