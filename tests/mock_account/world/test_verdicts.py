"""A question gets its answer first: the hospitality clearance says whether the gift or the
hospitality asked about may be accepted, by what it is, before it logs it; the leave agent
answers a balance question with the balance, not with a leave request."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from handoff_journeys import answer_of, run_agent, state_of

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


def test_the_leave_agent_answers_a_balance_question_with_the_balance(deployment, user) -> None:
    asked = answer_of(
        deployment, user, "RequestTimeOff", "How many vacation days do I have left?", None
    )
    assert asked.startswith("You have ") and "days of annual leave left this year" in asked
    left = asked.removeprefix("You have ").split(" ")[0]
    booked = answer_of(
        deployment, user, "RequestTimeOff", "I want to take 3 days off from 22 December", None
    )
    assert booked.startswith("Your leave request from 2026-12-22 to 2026-12-24 was sent"), booked
    # The same user has the same balance in every conversation.
    again = answer_of(deployment, user, "RequestTimeOff", "What is my remaining allowance?", None)
    assert again.startswith(f"You have {left} days"), again


@pytest.mark.parametrize(
    ("request_text", "answer"),
    [
        ("Am I allowed to fly business class on a ten hour flight?", "Business class is allowed"),
        ("How early should I book flights in advance?", "Book flights at least 14 days"),
        (
            "How much can I spend per night on a hotel in London?",
            "The policy limit for hotels in London",
        ),
        # A flight question is about the cabin, not a hotel somewhere; a country's per diem
        # is answered for a city of that country.
        ("What is our travel policy for flights over 6 hours?", "Business class is allowed"),
        ("How early do I need to book my flights?", "Book flights at least 14 days"),
        (
            "What is the daily per diem for Japan?",
            "The per diem for meals and local transport is 75 USD a day; the hotel in Tokyo",
        ),
        ("Is this client dinner within policy?", "A business meal is covered up to 100 USD"),
    ],
)
def test_the_travel_policy_answers_what_is_asked(deployment, user, request_text, answer) -> None:
    text = answer_of(deployment, user, "CheckTravelPolicy", request_text, None)
    assert text.startswith(answer), text


BREACH = "AssessBreachNotification"
ASKED = "Do we have to report incident {id} to the regulator as a data breach?"


def _declared(deployment, user, text: str) -> tuple[str, dict]:
    declared = run_agent(deployment, user, "DeclareProductionIncident", text, None)
    return declared.convid, state_of(deployment, user, declared.convid)["conv"]["incident"]


def test_a_breach_question_is_answered_from_what_the_incident_holds(deployment, user) -> None:
    # It said "I assessed the notification duties and the deadlines", and not what they were.
    convid, incident = _declared(
        deployment, user, "The checkout service is returning 500s for everyone, open an incident"
    )
    text = answer_of(deployment, user, BREACH, ASKED.format(id=incident["id"]), convid)
    assert text.startswith(
        f"For incident {incident['id']} on {incident['service']}: nothing recorded of it "
        f'("{incident["summary"]}") involves personal data, so on what is known there is no '
        "breach to notify."
    ), text


def test_a_leak_of_personal_data_is_to_be_notified_within_72_hours(deployment, user) -> None:
    convid, incident = _declared(
        deployment, user, "Customer emails were exposed by our CRM, declare a sev1 incident"
    )
    text = answer_of(deployment, user, BREACH, ASKED.format(id=incident["id"]), convid)
    started = datetime.fromisoformat(incident["started_at"].replace("Z", "+00:00"))
    by = (started + timedelta(hours=72)).strftime("%Y-%m-%d %H:%M")
    assert "involves personal data, so unless the data was encrypted" in text, text
    assert f"notify the regulator within 72 hours of finding it, by {by} UTC" in text, text


def test_a_leak_with_no_incident_on_record_still_gets_its_deadline(deployment, user) -> None:
    text = answer_of(
        deployment, user, BREACH, "Do we have to report the data leak to the regulator?", None
    )
    assert text.startswith("Which incident? There is none in this conversation yet"), text
    assert "From what you say, it involves personal data" in text, text
    assert "within 72 hours of finding it" in text, text


@pytest.mark.parametrize(
    "said",
    [
        "An analyst emailed a sheet of 212 employees' salaries and NRIC numbers to an outside "
        "vendor by mistake. Do we have to report this?",
        "A file with 1,200 customer names went to the wrong distributor yesterday, do we have "
        "to report it?",
    ],
)
def test_personal_data_is_read_from_what_was_exposed(deployment, user, said: str) -> None:
    text = answer_of(deployment, user, BREACH, said, None)
    assert "From what you say, it involves personal data" in text, text
    assert "within 72 hours of finding it" in text, text


def test_how_an_incident_stands_is_said_in_words(deployment, user) -> None:
    convid, incident = _declared(
        deployment, user, "The checkout service is returning 500s for everyone, open an incident"
    )
    asked = f"Is incident {incident['id']} resolved yet?"
    text = answer_of(deployment, user, "CheckIncidentStatus", asked, convid)
    # It said "is currently investigating".
    assert text.startswith(
        f"Incident {incident['id']} on {incident['service']} ({incident['severity']}) is still "
        f'under investigation: "{incident["summary"]}".'
    ), text


def test_a_claim_to_approve_says_whose_it_is_and_what_for(deployment, user) -> None:
    text = answer_of(deployment, user, "ApproveTeamExpenses", "Approve Sarah's expense claim", None)
    claimed = re.search(r"\bEXP-\d+", text)
    assert claimed is not None, text
    claim = deployment.account.engine.data.lookup("expenses", where={"id": claimed.group(0)})[0]
    # It said "The meals claim EXP-… is ready for your decision", whose unsaid.
    assert claim["employee"].startswith("Sarah ")
    assert text.startswith(
        f"{claim['employee']}'s {claim['category']} claim {claim['id']} of {claim['amount']} "
        f'{claim["currency"]} dated {claim["date"]} ("{claim["note"].rstrip(".")}") is ready'
    ), text


@pytest.mark.parametrize(
    ("request_text", "answer"),
    [
        # A question about the rota changes nothing: it was answered "… can take that shift;
        # I updated the rotation and told the team".
        ("Who is on duty on the pager on Friday?", r"is on call on (\S+); I changed nothing"),
        (
            "Who's on the on-call rota for the platform team in March?",
            r"is on call from \d{4}-03-01 to \d{4}-03-31; I changed nothing",
        ),
        ("Swap my on-call shift next week with Priya", r"can take that shift; I updated the rota"),
    ],
)
def test_the_on_call_rota_is_changed_only_when_asked_to(
    deployment, user, request_text: str, answer: str
) -> None:
    text = answer_of(deployment, user, "SwapOnCallShift", request_text, None)
    found = re.search(answer, text)
    assert found, text
    if found.groups():
        assert datetime.fromisoformat(found.group(1)).strftime("%A") == "Friday", text


def test_a_leak_on_a_day_gone_by_is_to_be_notified_72_hours_after_it(deployment, user) -> None:
    said = (
        "On Friday afternoon someone emailed a spreadsheet with names and home addresses of "
        "1,200 customers to the wrong distributor. Do we have to report this, and by when?"
    )
    text = answer_of(deployment, user, BREACH, said, None)
    # Today is Monday 2026-11-30 here: that Friday is the 27th.
    assert "(found on 2026-11-27: by 2026-11-30)" in text, text


def test_a_leak_asked_about_ahead_of_a_day_is_not_dated_back(deployment, user) -> None:
    # "need" is no past tense: nothing happened on a Friday gone by.
    said = "Do we need to report it if customer emails go to the wrong recipient on Friday?"
    text = answer_of(deployment, user, BREACH, said, None)
    assert "within 72 hours of finding it" in text and "found on" not in text, text
