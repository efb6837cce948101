"""Someone a request names by their role is that role's in a record made from it."""

from __future__ import annotations

import datetime as dt

import pytest
from handoff_journeys import run_agent, state_of

from mock_account.business.data import BusinessData
from mock_account.world.roles import people_in_roles
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
