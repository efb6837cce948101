"""Changes said in a word are made, and what a request names is what its form opens at:
a leave request moved keeps its days, a budget doubled is doubled, a campaign still to start
has no results, and an NDA "under German law" opens at German law."""

from __future__ import annotations

from handoff_journeys import answer_of, routed_answer, run_agent, state_of


def test_a_leave_request_moved_keeps_its_days(deployment, user) -> None:
    asked = run_agent(
        deployment, user, "RequestTimeOff", "Request 3 days of leave from December 28 to 30", None
    )
    assert asked.parts[0]["text"].startswith("Your leave request from 2026-12-28 to 2026-12-30")
    agent, text = routed_answer(deployment, user, "Move it to January 4", asked.convid)
    # It became one day off, on 2027-01-04.
    assert agent == "RequestTimeOff"
    assert text.startswith("Your leave request from 2027-01-04 to 2027-01-06 was sent"), text


def test_two_days_in_a_row_are_both_off_and_one_of_them_alone_is_one(deployment, user) -> None:
    asked = run_agent(
        deployment, user, "RequestTimeOff", "I'd like to take next Thursday and Friday off", None
    )
    # It was a leave request on the Thursday alone.
    said = asked.parts[0]["text"]
    assert said.startswith("Your leave request from 2026-12-10 to 2026-12-11 was sent"), said
    agent, text = routed_answer(deployment, user, "Actually make it the Friday only", asked.convid)
    # Moved as long as it was, it ran into the Saturday.
    assert agent == "RequestTimeOff"
    assert text.startswith("Your leave request on 2026-12-11 was sent"), text


def test_a_budget_doubled_is_doubled_and_a_campaign_to_come_has_no_results(
    deployment, user
) -> None:
    launched = deployment.account.exec_agent(
        user,
        "LaunchMarketingCampaign",
        {"query": "Launch a spring sale campaign with a budget of 15000 EUR starting March 1"},
        None,
    )
    answered = deployment.account.exec_agent(
        user,
        "LaunchMarketingCampaign",
        {"campaign_name": "Spring sale", "channel": "email", "segments": ["existing customers"]},
        launched.convid,
    )
    convid = answered.convid
    assert state_of(deployment, user, convid)["conv"]["campaign"]["budget"] == 15000
    # "Double the budget" matched no agent, went back to the launch and asked its form again;
    # at the budget agent it said the budget was "as it was".
    agent, text = routed_answer(deployment, user, "Double the budget", convid)
    assert agent == "ChangeCampaignBudget"
    assert state_of(deployment, user, convid)["conv"]["campaign"]["budget"] == 30000, text
    # It "ran from 2027-03-01" and its report of clicks was sent, in December.
    agent, text = routed_answer(deployment, user, "How is the campaign doing?", convid)
    assert agent == "ReportCampaignResults"
    assert text.startswith('"Spring sale" on email starts on 2027-03-01 with a budget of 30000'), (
        text
    )
    assert "so it has no results yet" in text, text


def test_an_nda_form_opens_at_the_law_the_request_names(deployment, user) -> None:
    asked = deployment.account.exec_agent(
        user,
        "DraftNondisclosureAgreement",
        {"query": "Draft a mutual NDA with Zephyr Analytics under German law"},
        None,
    )
    fields = {i["name"]: i for i in asked.ask_input["inputs"]}
    # It opened at England and Wales.
    assert fields["governing_law"]["default"] == "German law"
    plain = answer_of(
        deployment, user, "DraftNondisclosureAgreement", "Draft an NDA with Zephyr Analytics", None
    )
    assert "Governing law: English law" in plain, plain


def test_a_question_about_the_nda_drafted_here_says_where_it_stands(deployment, user) -> None:
    agent = "DraftNondisclosureAgreement"
    asked = deployment.account.exec_agent(
        user, agent, {"query": "We need an NDA with Zephyr Analytics under German law"}, None
    )
    drafted = deployment.account.exec_agent(
        user, agent, {"nda_type": "mutual", "governing_law": "German law"}, asked.convid
    )
    nda = state_of(deployment, user, drafted.convid)["conv"]["contract"]
    # The party said short ("Zephyr") asked the form again, at English law, for a second NDA.
    answer = deployment.account.exec_agent(
        user, agent, {"query": "Is our NDA with Zephyr still valid?"}, drafted.convid
    )
    assert answer.result_code == "success" and answer.ask_input is None, answer.ask_input
    assert answer.parts[0]["text"].startswith(
        f"NDA {nda['id']} with Zephyr Analytics was drafted in this conversation and is not "
        "signed yet, so it is not in force"
    ), answer.parts
    assert state_of(deployment, user, drafted.convid)["conv"]["contract"] == nda


def test_the_status_page_shows_the_status_the_request_says(deployment, user) -> None:
    declared = run_agent(
        deployment,
        user,
        "DeclareProductionIncident",
        "Our website is down, open a sev1 incident",
        None,
    )
    incident = state_of(deployment, user, declared.convid)["conv"]["incident"]
    # Every update said "identified", whatever the request said.
    for request_text, status in (
        ("Post a status page update that we are investigating", "investigating"),
        ("Update statuspage to say the fix is deployed and we're monitoring", "monitoring"),
        ("It's fixed now, close the incident", "resolved"),
    ):
        agent, text = routed_answer(deployment, user, request_text, declared.convid)
        assert agent == "PostStatusPageUpdate", (request_text, agent)
        assert text.startswith(
            f"The status page now shows Website as {status} for incident {incident['id']}."
        ), text
        saved = state_of(deployment, user, declared.convid)["conv"]["incident"]
        assert saved == {**incident, "status": status}, saved


def test_a_case_escalated_at_a_priority_is_at_that_priority(deployment, user) -> None:
    opened = run_agent(
        deployment, user, "FixVpnConnection", "The VPN keeps disconnecting on my laptop", None
    )
    ticket = state_of(deployment, user, opened.convid)["conv"]["ticket"]
    # Every escalation was urgent, whatever priority it said.
    agent, text = routed_answer(deployment, user, "Escalate it to high priority", opened.convid)
    assert agent == "EscalateSupportCase"
    assert text.startswith(f"Case {ticket['id']} is escalated to second line with high priority")
    # One that names none is urgent.
    agent, text = routed_answer(deployment, user, "Escalate it to a specialist", opened.convid)
    assert text.startswith(f"Case {ticket['id']} is escalated to second line with urgent priority")


def test_a_case_sent_to_second_line_is_urgent_unless_a_priority_is_said(deployment, user) -> None:
    text = "Hoffmann Logistics's case has been open 9 days, get second line on it"
    answer = run_agent(deployment, user, "EscalateSupportCase", text, None).parts[0]["text"]
    # "escalated to second line with normal priority".
    assert " is escalated to second line with urgent priority;" in answer, answer
