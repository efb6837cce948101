"""What people ask for about their own time and travel is what they get: "three days off
from the 14th" is the 14th to the 16th, a week off is a request for leave, not someone's
onboarding, and a visa check is for the country named."""

from __future__ import annotations

import re

import pytest
from handoff_journeys import answer_of, followups_of, last_tool_result, run_agent, state_of


@pytest.mark.parametrize(
    ("request_text", "when"),
    [
        ("I want to take three days off from the 14th of December", "2026-12-14 to 2026-12-16"),
        ("I need a week off starting 4 January", "2027-01-04 to 2027-01-10"),
        # A count of days inside a longer range: that many days from its start.
        ("Request 2 days of leave next week", "2026-12-07 to 2026-12-08"),
    ],
)
def test_leave_is_for_the_days_asked(deployment, user, request_text, when) -> None:
    assert deployment.account.index.search(request_text, limit=1)[0].agent_name == "RequestTimeOff"
    result = run_agent(deployment, user, "RequestTimeOff", request_text, None)
    assert result.parts[0]["text"].startswith(f"Your leave request from {when} was sent"), (
        result.parts
    )


def test_a_stay_is_for_the_nights_asked_inside_a_week(deployment, user) -> None:
    request_text = "Book me 2 nights in a hotel in Paris next week"
    result = run_agent(deployment, user, "BookHotelStay", request_text, None)
    assert " in Paris " in result.parts[0]["text"], result.parts
    assert "from 2026-12-07 to 2026-12-09, 2 nights at" in result.parts[0]["text"], result.parts


def test_a_visa_check_is_for_the_country_asked(deployment, user) -> None:
    request_text = "Do I need a visa for my trip to Brazil next month?"
    result = run_agent(deployment, user, "CheckVisaRequirements", request_text, None)
    assert result.parts[0]["text"].startswith("For a business visit to Brazil from "), result.parts


def test_nobody_approves_their_own_expense_claim(deployment, user) -> None:
    trip = run_agent(
        deployment, user, "BookBusinessFlight", "I need to fly to Berlin next Tuesday", None
    )
    run_agent(
        deployment, user, "SubmitExpenseClaim", "File my travel expenses for the Berlin trip",
        trip.convid,
    )  # fmt: skip
    conv = deployment.account.state_view(user, trip.convid)["state"]["conv"]
    claim = conv["expense"]
    assert claim["employee"] == "Mario Hernandez" == user.name, claim
    followups = followups_of(deployment)
    assert followups.written("ApproveTeamExpenses", "expense", conv, user=user.email) is None
    # Without knowing who asks, the suggestion is still written (a server's own state view).
    assert followups.written("ApproveTeamExpenses", "expense", conv) is not None
    request_text = f"Approve the expense claim {claim['id']} for my team"
    answer = run_agent(deployment, user, "ApproveTeamExpenses", request_text, trip.convid)
    text = answer.parts[0]["text"]
    assert text.startswith(f"{claim['id']} is your own travel claim"), text
    assert "your manager approves it, not you. It is with " in text
    # A claim of someone in the team is still approved.
    team = run_agent(
        deployment, user, "ApproveTeamExpenses", "Approve Jonas's expenses from the Madrid visit",
        None,
    )  # fmt: skip
    assert "is ready for your decision" in team.parts[0]["text"], team.parts


def test_a_claim_just_filed_is_not_said_to_be_paid_out(deployment, user) -> None:
    filed = run_agent(
        deployment, user, "SubmitExpenseClaim", "I paid 45 EUR for a taxi to the airport", None
    )
    claim = deployment.account.state_view(user, filed.convid)["state"]["conv"]["expense"]
    asked = run_agent(
        deployment, user, "CheckReimbursementStatus",
        f"When will I get reimbursed for expense claim {claim['id']}?", filed.convid,
    )  # fmt: skip
    text = asked.parts[0]["text"]
    assert f"claim {claim['id']} of 45 EUR" in text and "on its way" not in text, text
    assert "after your manager approves it" in text


def test_a_month_is_not_a_colleague_of_that_first_name(deployment, user) -> None:
    # The data has an April Clay; "in April" is a month and the request is the user's own.
    assert deployment.account.engine.data.lookup("employees", where={"name": "April Clay"})
    request_text = (
        "can the company pay for the AWS certification? the prep course is 5 days in April"
    )
    result = run_agent(deployment, user, "RequestTrainingCourse", request_text, None)
    text = result.parts[0]["text"]
    assert f"for approval, {user.name}." in text and "April Clay" not in text, result.parts
    # The month and the length of the course are kept, as said.
    assert "2027-04-01 to 2027-04-30" in text and "5 days" in text, text
    # Used as a name, it is that colleague.
    resigned = run_agent(deployment, user, "ProcessResignation", "April's last day is Friday", None)
    assert "April Clay" in resigned.parts[0]["text"], resigned.parts


@pytest.mark.parametrize(
    ("request_text", "model"),
    [
        ("left my work MacBook in an Uber in Lisbon last night, please lock it", "MacBook Pro 14"),
        ("My company iPhone was stolen last night", "iPhone 15"),
    ],
)
def test_the_device_locked_is_the_one_named(deployment, user, request_text, model) -> None:
    result = run_agent(deployment, user, "ReportLostDevice", request_text, None)
    assert f"({model})" in result.parts[0]["text"], result.parts


def test_a_flight_leaves_from_the_city_named_before_to(deployment, user) -> None:
    request_text = "Book me a flight Frankfurt to New York on 12 December, back on the 15th"
    result = run_agent(deployment, user, "BookBusinessFlight", request_text, None)
    text = result.parts[0]["text"]
    assert " from Frankfurt to New York, leaving 2026-12-12 and returning 2026-12-15" in text


def test_no_train_is_booked_between_continents(deployment, user) -> None:
    # This user's home office is Singapore: a train to Paris is asked about, not booked.
    result = run_agent(
        deployment, user, "BookTrainTicket", "Book a train to Paris next Friday", None
    )
    text = result.parts[0]["text"]
    assert text.startswith("Singapore, your home office, is "), text
    assert "km from Paris: too far for a train." in text, text
    state = deployment.account.state_view(user, result.convid)["state"]
    assert "trip" not in state["conv"]


def test_a_train_between_nearby_cities_is_booked(deployment, user) -> None:
    text = "Get me a train from Brussels to Paris on Friday morning"
    result = run_agent(deployment, user, "BookTrainTicket", text, None)
    answer = result.parts[0]["text"]
    assert re.match(r"Your train [A-Za-z]+ \d+ from Brussels to Paris is booked", answer), answer


def test_a_leave_request_to_withdraw_is_not_answered_as_sent(deployment, user) -> None:
    asked = run_agent(deployment, user, "RequestTimeOff", "Request 2 days of leave next week", None)
    again = run_agent(deployment, user, "RequestTimeOff", "Cancel my leave request", asked.convid)
    text = again.parts[0]["text"]
    assert text.startswith("I can't withdraw a leave request from here"), text
    assert "for approval" not in text.split(" (")[0]


def test_a_hiring_budget_question_names_the_role_and_who_is_in_its_pipeline(
    deployment, user
) -> None:
    text = "Do we have budget to hire a second data analyst this year?"
    answer = run_agent(deployment, user, "CheckHiringBudget", text, None).parts[0]["text"]
    assert answer.startswith("The Data Analyst position is in the headcount plan;"), answer
    assert "In the pipeline for it: " in answer, answer


@pytest.mark.parametrize(
    ("request_text", "start", "end"),
    [
        ("Request 2 days of leave next week", "2026-12-07", "2026-12-08"),
        ("I want to take three days off from the 14th of December", "2026-12-14", "2026-12-16"),
    ],
)
def test_the_leave_record_has_the_days_the_answer_gives(
    deployment, user, request_text, start, end
) -> None:
    result = run_agent(deployment, user, "RequestTimeOff", request_text, None)
    record = last_tool_result(state_of(deployment, user, result.convid), "RequestTimeOff")
    assert (record["start_date"], record["end_date"]) == (start, end), record
    assert f"from {start} to {end}" in result.parts[0]["text"], result.parts


def test_the_users_own_flight_is_not_booked_for_someone_else(deployment, user) -> None:
    refused = answer_of(
        deployment,
        user,
        "BookBusinessFlight",
        "Book a flight to Tokyo for Anna Schmidt next Monday",
        None,
    )
    assert refused.startswith("Anna Schmidt is the one travelling, and I book your own trips")
    # A meeting with someone is still the user's trip.
    booked = answer_of(
        deployment,
        user,
        "BookBusinessFlight",
        "Book a flight to Berlin next Tuesday for a meeting with Anna Schmidt",
        None,
    )
    assert booked.startswith("I booked flight ") and " to Berlin" in booked
    colleague = answer_of(
        deployment,
        user,
        "BookTravelForColleague",
        "Book travel for Anna Schmidt to Tokyo next Monday",
        None,
    )
    assert " to Tokyo on 2026-12-07 for Anna Schmidt, returning " in colleague, colleague


def test_a_flight_refused_for_someone_else_is_no_hand_off(deployment, user) -> None:
    # With a trip saved, the refusal is about who travels: it used nothing of the trip.
    first = run_agent(
        deployment, user, "BookBusinessFlight", "I need to fly to Berlin next Tuesday", None
    )
    run_agent(
        deployment,
        user,
        "BookBusinessFlight",
        "Book a flight to Tokyo for Anna Schmidt next Monday",
        first.convid,
    )
    state = state_of(deployment, user, first.convid)
    assert state["runs"][-1]["reads"] == []
    assert state["conv"]["trip"]["destination"] == "Berlin"


def test_a_sick_day_extended_says_the_new_days_not_the_first(deployment, user) -> None:
    first = run_agent(deployment, user, "ReportSickLeave", "I'm sick today and can't come in", None)
    assert "your absence on 2026-11-30 is recorded" in first.parts[0]["text"], first.parts
    later = run_agent(
        deployment, user, "ReportSickLeave", "Actually I'll be out until Friday", first.convid
    )
    text = later.parts[0]["text"].split(" (")[0]
    assert "your absence until 2026-12-04 is recorded" in text, text


def test_who_is_my_manager_is_answered_from_the_users_own_entry(deployment, user) -> None:
    # It asked "Which employee? There is none in this conversation yet".
    for question in ("Who is my manager?", "Who do I report to?"):
        answer = run_agent(deployment, user, "FindColleagueInDirectory", question, None)
        text = answer.parts[0]["text"]
        manager = text.split(" reports to ", 1)[1].split(";", 1)[0]
        # The answer first: it began "Mario Hernandez is Paralegal in Legal, ...".
        assert text.startswith(f"Your manager is {manager}. {user.name} is "), text
        # The manager a leave request goes to is the same person.
        leave = run_agent(
            deployment, user, "RequestTimeOff", "I need 3 days off from 21 December", None
        )
        assert f"was sent to {manager} for approval" in leave.parts[0]["text"], leave.parts
    # A colleague asked for by name is still that colleague.
    other = run_agent(
        deployment, user, "FindColleagueInDirectory", "Look up Daniel Weber's manager", None
    )
    assert other.parts[0]["text"].startswith("Daniel Weber's manager is "), other.parts
    plain = run_agent(
        deployment, user, "FindColleagueInDirectory", "What's the email of Daniel Weber?", None
    )
    assert plain.parts[0]["text"].startswith("Daniel Weber is "), plain.parts


def test_transfer_me_moves_the_user_and_my_manager_is_no_job_title(deployment, user) -> None:
    agent = "RequestInternalTransfer"
    moved = run_agent(deployment, user, agent, "Transfer me to the Berlin office from March", None)
    # It asked "Which employee?".
    text = moved.parts[0]["text"]
    assert text.startswith(f"The move of {user.name} from "), text
    employee = state_of(deployment, user, moved.convid)["conv"]["employee"]
    assert employee["email"] == user.email and employee["location"] == "Berlin"
    run_agent(deployment, user, agent, "Who will be my manager there?", moved.convid)
    # "my manager" made the user an Office Manager in Operations.
    after = state_of(deployment, user, moved.convid)["conv"]["employee"]
    assert (after["title"], after["department"]) == (employee["title"], employee["department"])


def test_a_service_is_owned_by_an_engineer(deployment, user) -> None:
    answer = run_agent(deployment, user, "FindServiceOwner", "Who owns the payments service?", None)
    # It named a Procurement Analyst.
    assert answer.parts[0]["text"].startswith("Its owner is "), answer.parts
    assert ", Engineering); reach them at" in answer.parts[0]["text"], answer.parts


def test_no_flight_is_booked_for_a_colleague_to_the_city_they_are_based_in(
    deployment, user
) -> None:
    hired = run_agent(
        deployment,
        user,
        "StartNewHireOnboarding",
        "Onboard Priya Patel as a Product Designer in Marketing starting 11 January",
        None,
    )
    home = state_of(deployment, user, hired.convid)["conv"]["employee"]["location"]
    # It booked a flight "from Singapore to Singapore".
    text = answer_of(
        deployment,
        user,
        "BookTravelForColleague",
        f"Book her a flight to our {home} office for her first week",
        hired.convid,
    )
    assert text.startswith(
        f"Priya Patel is based in {home}, where the trip goes, so there is no flight to book."
    ), text
    assert "trip" not in state_of(deployment, user, hired.convid)["conv"]


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("me and two colleagues", "you and two colleagues"),
        ("me and my manager", "you and your manager"),
    ],
)
def test_a_flight_for_the_user_and_others_says_whom_it_is_for(
    deployment, user, said: str, shown: str
) -> None:
    text = answer_of(
        deployment,
        user,
        "BookTravelForColleague",
        f"Book a flight for {said} to Madrid on 12 January",
        None,
    )
    # It said nothing of who travels: one flight, for nobody named.
    assert " to Madrid on 2027-01-12 for " + shown + ", returning " in text, text


def test_a_flight_to_the_users_own_office_is_not_booked_from_another_one(deployment, user) -> None:
    booked = run_agent(
        deployment, user, "BookBusinessFlight", "I need to fly to Berlin next Tuesday", None
    )
    home = state_of(deployment, user, booked.convid)["conv"]["trip"]["origin"]
    # It booked "from New York (your home office) to Singapore" after saying Singapore was.
    back = answer_of(
        deployment,
        user,
        "BookBusinessFlight",
        f"Book me a flight back to {home} on Friday",
        booked.convid,
    )
    assert back.startswith(
        f"{home} is your home office, and your trip to Berlin already brings you back, so I "
        "booked nothing"
    ), back
    alone = answer_of(deployment, user, "BookBusinessFlight", f"Book me a flight to {home}", None)
    assert alone.startswith(f"{home} is your home office, so I booked nothing"), alone
    said = answer_of(
        deployment, user, "BookBusinessFlight", f"Book me a flight from Berlin to {home}", None
    )
    assert said.startswith("I booked flight ") and f" from Berlin to {home}," in said, said
