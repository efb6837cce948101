"""A yes/no question gets its answer first: the hospitality clearance says whether the gift
or the hospitality asked about may be accepted, by what it is, before it logs it."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of

AGENT = "ClearGiftsAndHospitality"


@pytest.mark.parametrize(
    ("request_text", "verdict"),
    [
        ("Can I accept an invitation from Orion Retail to a football match?", "Yes, if the host"),
        ("Can I pay for the hotel of a government official visiting our plant?", "Not without"),
        ("A supplier offered me a 200 EUR gift card, can I take it?", "No: cash"),
        ("I want to give our client a bottle of wine, do I need to register it?", "Yes: a gift"),
        # The official decides it, even for tickets.
        ("Can I give match tickets to the customs officer?", "Not without"),
    ],
)
def test_the_answer_starts_with_the_verdict_on_what_is_asked(
    deployment, user, request_text: str, verdict: str
) -> None:
    text = answer_of(deployment, user, AGENT, request_text, None)
    assert text.startswith(verdict), text
    assert f"register for {user.name}" in text, text
