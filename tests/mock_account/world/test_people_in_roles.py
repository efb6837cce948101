"""Someone a request names by their role is that role's in a record made from it."""

from __future__ import annotations

import datetime as dt

import pytest
from handoff_journeys import run_agent, state_of

from mock_account.business.data import BusinessData
from mock_account.world.roles import people_beside, people_in_roles
from mock_account.world.understand import understand_request

TODAY = dt.date(2026, 12, 7)
understand = understand_request(BusinessData(seed=7))


@pytest.mark.parametrize(
    ("text", "field", "person"),
    [
        ("Forward his mailbox to his manager, Clara Wong.", "manager", "Clara Wong"),
        ("Register them as a supplier, contact person Tom Lim.", "contact", "Tom Lim"),
        ("Onboard Farida Hassan; Clara Wong is her line manager.", None, None),
        ("Send the offer to Farida Hassan and copy Clara Wong.", None, None),
    ],
)
def test_a_person_is_the_role_named_right_by_them(text, field, person) -> None:
    found = people_in_roles(understand(text, TODAY), ("manager", "contact", "assignee"))
    assert found == ({field: person} if field else {}), found


def test_a_leaver_s_manager_is_the_one_the_request_names(deployment, user) -> None:
    text = (
        "Jonas Weber leaves us on 31 December. Shut off his email and forward his mailbox to "
        "his manager, Clara Wong."
    )
    done = run_agent(deployment, user, "DisableLeaverAccounts", text, None)
    assert state_of(deployment, user, done.convid)["conv"]["employee"]["manager"] == "Clara Wong"
    assert "Clara Wong" in done.parts[0]["text"]


@pytest.mark.parametrize(
    ("text", "beside"),
    [
        ("Set up her final round on Thursday, panel Wei Ling Tan and Rajesh Menon", 2),
        ("Start her onboarding, her buddy is Arjun Pillai", 1),
        ("Book a final round for Maria Lopez with the hiring panel", 0),
    ],
)
def test_a_panel_or_a_buddy_is_beside_the_record_s_person(text: str, beside: int) -> None:
    assert len(people_beside(understand(text, TODAY))) == beside


def test_the_interview_and_the_offer_stay_with_the_applicant_not_the_panel(
    deployment, user
) -> None:
    found = run_agent(
        deployment, user, "CheckCandidateStatus", "Where is Daniela Okafor at, data role?", None
    )
    interview = run_agent(
        deployment,
        user,
        "ScheduleCandidateInterview",
        "set up her final round thu 10 dec at 3pm, panel Wei Ling Tan and Rajesh Menon",
        found.convid,
    )
    candidate = state_of(deployment, user, found.convid)["conv"]["candidate"]
    assert candidate["name"] == "Daniela Okafor", candidate
    assert "with Wei Ling Tan, Rajesh Menon" in interview.parts[0]["text"], interview.parts


def test_her_onboarding_is_the_new_hire_s_not_her_buddy_s(deployment, user) -> None:
    kit = run_agent(
        deployment,
        user,
        "SetUpNewHireEquipment",
        "set up a laptop for our new hire Hannah Lim starting 4 January",
        None,
    )
    onboarding = run_agent(
        deployment,
        user,
        "StartNewHireOnboarding",
        "and get her onboarding going too, her buddy is Arjun Pillai",
        kit.convid,
    )
    text = onboarding.parts[0]["text"]
    assert "Onboarding is under way for Hannah Lim" in text, text
