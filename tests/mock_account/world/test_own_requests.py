"""What people ask for about their own time and travel is what they get: "three days off
from the 14th" is the 14th to the 16th, a week off is a request for leave, not someone's
onboarding, and a visa check is for the country named."""

from __future__ import annotations

import pytest
from handoff_journeys import run_agent


@pytest.mark.parametrize(
    ("request_text", "when"),
    [
        ("I want to take three days off from the 14th of December", "2026-12-14 to 2026-12-16"),
        ("I need a week off starting 4 January", "2027-01-04 to 2027-01-10"),
    ],
)
def test_leave_is_for_the_days_asked(deployment, user, request_text, when) -> None:
    assert deployment.account.index.search(request_text, limit=1)[0].agent_name == "RequestTimeOff"
    result = run_agent(deployment, user, "RequestTimeOff", request_text, None)
    assert result.parts[0]["text"].startswith(f"Your leave request from {when} was sent"), (
        result.parts
    )


def test_a_visa_check_is_for_the_country_asked(deployment, user) -> None:
    request_text = "Do I need a visa for my trip to Brazil next month?"
    result = run_agent(deployment, user, "CheckVisaRequirements", request_text, None)
    assert result.parts[0]["text"].startswith("For a business visit to Brazil from "), result.parts
