"""An outage reported of a service with no incident on record says what to do about it: "Our
payroll service is down" heard only "I found no incident on Payroll service"."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of

from mock_account.world.recipe import first_sentence


@pytest.mark.parametrize(
    "request_text",
    [
        "Our payroll service is down for everyone in Germany",
        "The payroll service is not working",
    ],
)
def test_an_outage_with_no_incident_says_to_declare_one(deployment, user, request_text) -> None:
    text = answer_of(deployment, user, "AnswerOutageQuestion", request_text, None)
    assert text.startswith("I found no incident on Payroll service."), text
    said = 'declare an incident for it so that it is on record ("Declare an incident: Payroll'
    assert said in text, text
    routed, _ = deployment.account.route(user, "Declare an incident: Payroll service is down", None)
    assert routed == "DeclareProductionIncident"


def test_a_question_about_a_service_says_nothing_of_declaring(deployment, user) -> None:
    text = answer_of(
        deployment,
        user,
        "AnswerOutageQuestion",
        "Is there a known outage on the payroll service?",
        None,
    )
    assert text.startswith("I found no incident on Payroll service."), text
    assert "declare" not in text


@pytest.mark.parametrize(
    "request_text",
    ["Our website is down", "The website is down"],
)
def test_a_service_reported_down_reaches_the_incident_agent(deployment, user, request_text) -> None:
    # "down" was a stop word, and "The website is down" matched no agent.
    routed, _ = deployment.account.route(user, request_text, None)
    assert routed == "DeclareProductionIncident"


def test_a_named_service_reported_down_is_declared_or_told_how_to(deployment, user) -> None:
    # It matched no agent; now the outage agent (which says to declare it) or the incident
    # agent, the two best.
    _, hits = deployment.account.route(user, "The payroll service is down", None)
    assert {h.agent_name for h in hits[:2]} == {"AnswerOutageQuestion", "DeclareProductionIncident"}


@pytest.mark.parametrize(
    ("request_text", "what_happened"),
    [
        ("Declare a P2 incident: payments API is slow", "Payments API is slow"),
        ("Log an urgent support ticket for Halvard: exports fail", "Exports fail"),
    ],
)
def test_what_happened_is_noted_without_the_ask_before_it(request_text, what_happened) -> None:
    assert first_sentence(request_text) == what_happened
