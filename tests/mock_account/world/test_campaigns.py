"""A campaign is for the audience chosen in its form, starts in the season the request
names, and its follow-ups lead to agents that can work from what the conversation holds."""

from __future__ import annotations

import pytest
from handoff_journeys import run_agent, state_of

from mock_account.conversations.followups import Followups


@pytest.mark.parametrize(
    ("request_text", "audience", "start"),
    [
        ("Launch an email campaign for existing customers next month", "existing customers", None),
        # The form opens at the segment the request names, plural and all.
        (
            "Kick off a spring promotion on social media aimed at small businesses",
            "small business",
            "2027-03-01",
        ),
        # Winter begins tomorrow (the suites' today is 30 November).
        ("Plan our winter sale campaign on email", "existing customers", "2026-12-01"),
        # The month it starts, not the (past) quarter that names the budget.
        (
            "Our Q1 marketing budget is 40,000 EUR, launch a campaign for existing customers "
            "in February",
            "existing customers",
            "2027-02-01",
        ),
    ],
)
def test_a_campaign_is_for_the_audience_and_season_asked(
    deployment, user, request_text, audience, start
) -> None:
    result = run_agent(deployment, user, "LaunchMarketingCampaign", request_text, None)
    campaign = state_of(deployment, user, result.convid)["conv"]["campaign"]
    assert campaign["audience"] == audience, result.parts
    if start:
        assert campaign["start_date"] == start, result.parts
    assert f"for {audience}" in result.parts[0]["text"]


def test_no_followup_asks_which_record_it_is_about(deployment, user) -> None:
    result = run_agent(
        deployment,
        user,
        "LaunchMarketingCampaign",
        "Launch an email campaign for our autumn offer",
        None,
    )
    conv = state_of(deployment, user, result.convid)["conv"]
    assert "order" not in conv
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    # The discount approval works on a saved order; with none, it would ask which one.
    assert followups.written("ApproveOrderDiscount", "campaign", conv) is None
    assert {s.agent for s in followups.suggest("LaunchMarketingCampaign", conv=conv)}


def _autumn_campaign(deployment, user):
    return run_agent(
        deployment,
        user,
        "LaunchMarketingCampaign",
        "Launch an email campaign for our autumn offer to existing customers",
        None,
    )


@pytest.mark.parametrize(
    ("request_text", "change"),
    [
        ("Increase the budget by 5,000", lambda budget: budget + 5000),
        ("Put another 5,000 behind it", lambda budget: budget + 5000),
        ("Cut it by 2k", lambda budget: budget - 2000),
        ("Cut the budget by a third", lambda budget: round(budget * 2 / 3, 2)),
        ("Set the budget to 30,000", lambda budget: 30000),
    ],
)
def test_a_budget_change_without_a_currency_is_in_the_budgets_own(
    deployment, user, request_text, change
) -> None:
    launched = _autumn_campaign(deployment, user)
    before = state_of(deployment, user, launched.convid)["conv"]["campaign"]
    answer = run_agent(
        deployment, user, "ChangeCampaignBudget", request_text, launched.convid
    ).parts[0]["text"]
    after = state_of(deployment, user, launched.convid)["conv"]["campaign"]
    assert after["currency"] == before["currency"], (before, after)
    assert after["budget"] == pytest.approx(change(before["budget"]), abs=0.01), (before, after)
    shown = int(after["budget"]) if after["budget"] == int(after["budget"]) else after["budget"]
    assert f"is now {shown} {after['currency']}." in answer, answer


def test_a_newsletter_goes_out_on_the_day_and_to_the_list_the_request_says(
    deployment, user
) -> None:
    # "Q4" names the issue, "next Monday" the day it is sent; the form's usual "next Tuesday
    # 09:00", left as it is, yields to the day the request gives and is not echoed against it.
    sent = run_agent(
        deployment,
        user,
        "ScheduleEmailNewsletter",
        "Send the Q4 newsletter to all customers next Monday",
        None,
    )
    text = sent.parts[0]["text"]
    campaign = state_of(deployment, user, sent.convid)["conv"]["campaign"]
    assert (campaign["start_date"], campaign["audience"]) == ("2026-12-07", "all customers")
    assert text.startswith('The newsletter "Q4 newsletter" is scheduled for 2026-12-07 to all '), (
        text
    )
    assert "next Tuesday" not in text, text


def test_an_ab_test_is_of_the_campaign_here_or_asks_which(deployment, user) -> None:
    launched = _autumn_campaign(deployment, user)
    campaign = state_of(deployment, user, launched.convid)["conv"]["campaign"]
    tested = run_agent(
        deployment, user, "SetUpAbTest", "Set up an A/B test for its subject line", launched.convid
    ).parts[0]["text"]
    assert tested.startswith(f'The A/B test for "{campaign["name"]}" on email is running'), tested
    alone = run_agent(
        deployment, user, "SetUpAbTest", "Set up an A/B test for the new pricing page", None
    ).parts[0]["text"]
    assert alone.startswith("Which campaign?"), alone


def test_a_budget_request_that_names_no_change_changes_nothing(deployment, user) -> None:
    launched = _autumn_campaign(deployment, user)
    before = state_of(deployment, user, launched.convid)["conv"]["campaign"]
    answer = run_agent(
        deployment, user, "ChangeCampaignBudget", "Change the campaign budget", launched.convid
    ).parts[0]["text"]
    # It said "The budget of … is now …" of the budget it had.
    assert answer.startswith(f'"{before["name"]}" is as it was at '), answer
    assert "is now" not in answer
    assert state_of(deployment, user, launched.convid)["conv"]["campaign"] == before


def test_a_campaign_named_with_its_channel_is_the_one_looked_up(deployment, user) -> None:
    text = "how did the Black Friday email campaign do? opens, clicks and how many leads"
    # The results of "UK & Ireland Spring 2027 Brand Awareness" were given for it.
    answer = run_agent(deployment, user, "ReportCampaignResults", text, None).parts[0]["text"]
    assert answer.startswith("I found no campaign called Black Friday"), answer


LAUNCH = "Launch a Black Friday email campaign starting 20 November with a budget of 8,000 EUR"


def test_a_campaign_form_opens_at_the_name_the_request_gives(deployment, user) -> None:
    asked = deployment.account.exec_agent(user, "LaunchMarketingCampaign", {"query": LAUNCH}, None)
    fields = {spec["name"]: spec for spec in asked.ask_input["inputs"]}
    # It opened empty, and the name had to be typed again.
    assert fields["campaign_name"]["default"] == "Black Friday", fields
    plain = deployment.account.exec_agent(
        user, "LaunchMarketingCampaign", {"query": "Launch a campaign"}, None
    )
    named = [s for s in plain.ask_input["inputs"] if s["name"] == "campaign_name"]
    assert "default" not in named[0] or not named[0]["default"], named


def test_nothing_is_spent_yet_of_a_campaign_still_to_start(deployment, user) -> None:
    launched = run_agent(deployment, user, "LaunchMarketingCampaign", LAUNCH, None)
    spent = run_agent(
        deployment,
        user,
        "ReconcileCampaignSpend",
        "How much have we spent on the Black Friday campaign so far?",
        launched.convid,
    )
    # It said it "matched the booked costs and accruals" of a campaign starting next November.
    assert spent.parts[0]["text"].startswith(
        "The email campaign Black Friday starts on 2027-11-20, so nothing is spent yet of its "
        "budget of 8000 EUR;"
    ), spent.parts


@pytest.mark.parametrize(
    ("request_text", "channel"),
    [
        # Where it runs, not the webinar named first (it opened at email and ran on events).
        ("Launch a spring webinar campaign on LinkedIn with a budget of 8000 USD", "social"),
        ("Launch a Black Friday email campaign for our retail customers", "email"),
        ("I want to launch a campaign for our autumn offer", "email"),  # nothing said
    ],
)
def test_the_campaign_form_opens_at_the_channel_it_runs_on(
    deployment, user, request_text, channel
) -> None:
    account = deployment.account
    asked = account.exec_agent(user, "LaunchMarketingCampaign", {"query": request_text}, None)
    opened = {i["name"]: i.get("default") for i in asked.ask_input["inputs"]}
    assert opened["channel"] == channel
    result = run_agent(deployment, user, "LaunchMarketingCampaign", request_text, None)
    assert state_of(deployment, user, result.convid)["conv"]["campaign"]["channel"] == channel


@pytest.mark.parametrize(
    ("request_text", "start"),
    [
        # Two weeks before the next Black Friday (26 November 2027; this year's is past):
        # it started on a day drawn at random.
        ("Launch a Black Friday email campaign with a 20000 EUR budget", "2027-11-12"),
        ("Plan a Christmas campaign on social media", "2026-12-11"),
    ],
)
def test_a_holiday_campaign_starts_ahead_of_the_holiday(
    deployment, user, request_text, start
) -> None:
    result = run_agent(deployment, user, "LaunchMarketingCampaign", request_text, None)
    campaign = state_of(deployment, user, result.convid)["conv"]["campaign"]
    assert campaign["start_date"] == start, result.parts


def test_a_campaign_said_short_is_the_one_here(deployment, user) -> None:
    sent = run_agent(
        deployment,
        user,
        "ScheduleEmailNewsletter",
        "Schedule the October newsletter for all subscribers on 14 December",
        None,
    )
    before = state_of(deployment, user, sent.convid)["conv"]["campaign"]
    paused = run_agent(
        deployment, user, "PauseMarketingCampaign", "Pause the October campaign", sent.convid
    ).parts[0]["text"]
    # Not another campaign made up by the name "October".
    assert paused.startswith(f'"{before["name"]}" on email is paused'), paused
    assert (
        state_of(deployment, user, sent.convid)["conv"]["campaign"]["audience"]
        == (before["audience"])
    )


@pytest.mark.parametrize(
    ("request_text", "audience"),
    [
        ("Schedule the December newsletter for the 15th to the customers list", "customers list"),
        ("Send the December newsletter on the 15th to our partner mailing list", "partner list"),
        ("Schedule the newsletter for the 17th to the APAC customers list", "APAC customers list"),
    ],
)
def test_a_newsletter_goes_to_the_list_named(deployment, user, request_text, audience) -> None:
    sent = run_agent(deployment, user, "ScheduleEmailNewsletter", request_text, None)
    campaign = state_of(deployment, user, sent.convid)["conv"]["campaign"]
    assert campaign["audience"] == f"the {audience}", campaign
    assert f"to the {audience}" in sent.parts[0]["text"]


def test_subject_lines_tried_against_each_other_are_not_the_campaigns_name(
    deployment, user
) -> None:
    launched = _autumn_campaign(deployment, user)
    campaign = state_of(deployment, user, launched.convid)["conv"]["campaign"]
    tested = run_agent(
        deployment,
        user,
        "SetUpAbTest",
        'And let\'s A/B test the subject line: "Your 2027 playbook" versus "What\'s new".',
        launched.convid,
    ).parts[0]["text"]
    assert tested.startswith(f'The A/B test for "{campaign["name"]}" on email'), tested
    assert "Your 2027 playbook" in tested and "What's new" in tested, tested


def test_ads_named_for_what_they_advertise_are_that_campaign(deployment, user) -> None:
    paused = run_agent(
        deployment,
        user,
        "PauseMarketingCampaign",
        "Pause the Black Friday retargeting ads, the promo ended last week",
        None,
    ).parts[0]["text"]
    assert paused.startswith('"Black Friday" on web is paused'), paused


def test_the_campaign_launched_here_is_still_its_own_after_a_budget_change(
    deployment, user
) -> None:
    launched = run_agent(
        deployment,
        user,
        "LaunchMarketingCampaign",
        "Launch a LinkedIn ads campaign called 'Q1 Fleet Visibility' starting 4 January, "
        "budget USD 25,000",
        None,
    )
    run_agent(deployment, user, "ChangeCampaignBudget", "Cut the budget by 20%", launched.convid)
    moved = run_agent(
        deployment,
        user,
        "LaunchMarketingCampaign",
        "And push the start to the 11th so it does not clash with the new-year emails",
        launched.convid,
    ).parts[0]["text"]
    campaign = state_of(deployment, user, launched.convid)["conv"]["campaign"]
    assert campaign["name"] == "Q1 Fleet Visibility", campaign
    assert (campaign["start_date"], campaign["budget"]) == ("2027-01-11", 20000), campaign
    assert '"Q1 Fleet Visibility"' in moved, moved
