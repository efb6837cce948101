"""A change to a record that nothing in the request or the conversation identifies: a record
the request describes is the one meant; a word it happens to share with one is not, nor is
the surname of someone else's full name."""

from __future__ import annotations

import pytest
from handoff_journeys import last_tool_result, run_agent


@pytest.mark.parametrize(
    "request_text",
    [
        # "resolved" is a ticket status, not a ticket: no case of this user is meant.
        "The incident is resolved, close it",
        # One word ("arrived") of a case's subject ("Order arrived damaged") is not that case.
        "The desks arrived scratched, close the case",
    ],
)
def test_a_case_nothing_identifies_is_asked_for_not_closed(deployment, user, request_text) -> None:
    result = run_agent(deployment, user, "CloseResolvedCase", request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith("Which ticket? There is none in this conversation yet"), text
    state = deployment.account.state_view(user, result.convid)["state"]
    assert "ticket" not in state["conv"]


def test_a_case_the_request_describes_is_the_one_closed(deployment, user) -> None:
    request_text = "Close the case where the order arrived damaged"
    result = run_agent(deployment, user, "CloseResolvedCase", request_text, None)
    state = deployment.account.state_view(user, result.convid)["state"]
    closed = last_tool_result(state, "CloseResolvedCase")
    assert closed["subject"] == "Order arrived damaged"
    assert closed["status"] == "closed"
    assert f'"{closed["subject"]}" is now closed' in result.parts[0]["text"]


def test_a_full_name_of_someone_else_is_not_a_candidate_with_that_surname(deployment, user) -> None:
    # Tiffany Martin is an employee of the data; Martin Schmidt a candidate.
    request_text = "Schedule an interview with Tiffany Martin for the data analyst role"
    result = run_agent(deployment, user, "ScheduleCandidateInterview", request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith("I found no candidate named Tiffany Martin."), text
    assert "Martin Schmidt" not in text
    # A first name alone still finds the one candidate who has it.
    moved = run_agent(
        deployment, user, "ScheduleCandidateInterview", "Move Anthony to the interview stage", None
    )
    assert moved.parts[0]["text"].startswith("The interview with Anthony ")


@pytest.mark.parametrize(
    ("agent", "request_text", "said"),
    [
        (
            "UpdateSupplierDetails",
            "Update the contact details for Hoffmann Logistics",
            "Hoffmann Logistics is a customer of ours, not a supplier",
        ),
        (
            "UpdateCustomerContact",
            "Update the contact details for Nordwind Logistics",
            "Nordwind Logistics is a supplier of ours, not a customer",
        ),
    ],
)
def test_an_organisation_of_another_kind_is_not_taken_for_one_of_this_kind(
    deployment, user, agent, request_text, said
) -> None:
    # "Logistics" is in the name of many suppliers: none of them is Hoffmann Logistics.
    result = run_agent(deployment, user, agent, request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith(said), text
    assert (
        last_tool_result(deployment.account.state_view(user, result.convid)["state"], agent) is None
    )
