"""A question about notice resigns nobody, and a resignation of someone unnamed is not the
user's: "What's my notice period?" recorded the user's resignation and told their manager,
and "Someone in my team resigned today" recorded the user's own."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of

AGENT = "ProcessResignation"


@pytest.mark.parametrize(
    "request_text", ["What's my notice period?", "What's my last working day if I quit this week?"]
)
def test_a_question_about_notice_records_no_resignation(deployment, user, request_text) -> None:
    routed, _ = deployment.account.route(user, request_text, None)
    assert routed == AGENT, routed
    text = answer_of(deployment, user, AGENT, request_text, None)
    # Today is pinned to 2026-11-30: one month's notice ends on 2026-12-30.
    assert text.startswith(
        "The notice period is one month: notice handed in today (2026-11-30) makes 2026-12-30 "
        "the last working day. I recorded no resignation"
    ), text
    assert "is recorded" not in text


def test_a_resignation_is_recorded_for_the_user_who_gives_notice(deployment, user) -> None:
    text = answer_of(deployment, user, AGENT, "I want to hand in my notice", None)
    assert text.startswith(f"The resignation of {user.name} ("), text


def test_someone_unnamed_who_resigned_is_asked_for(deployment, user) -> None:
    text = answer_of(
        deployment, user, AGENT, "Someone in my team resigned today, what happens next?", None
    )
    assert text.startswith("Who is it? Tell me their name"), text
    assert user.name not in text
