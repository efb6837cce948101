"""Requests that a prospect typed and search sent to an agent that did something else: a
post-mortem is not a social media post, a customer about to leave is looked into, not sent
a gesture nobody asked for."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("request_text", "agent"),
    [
        ("Write a post-mortem", "WriteIncidentPostmortem"),  # it drafted a social media post
        (
            "Our biggest customer Orion Retail is threatening to churn, what's going on with them?",
            "ReviewAccountHealth",  # it prepared a goodwill voucher
        ),
    ],
)
def test_a_request_goes_to_the_agent_that_does_what_it_asks(
    deployment, user, request_text, agent
) -> None:
    routed, _ = deployment.account.route(user, request_text, None)
    assert routed == agent
