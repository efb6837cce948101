"""A lookup keeps what it found, by the name it was asked for, and says only what it shows.

Once an agent found the invoice the request named, the conversation is about that invoice:
"has it been paid yet?" answers for it instead of asking which one. A first name alone is the
person who has it. And no answer says "here are the variances" with none after it."""

from __future__ import annotations

import re

import pytest
from handoff_journeys import answer_of, run_agent, state_of

from agents_catalog.capabilities import VARIABLE_SOURCES, load_departments

CAPABILITIES = [c for d in load_departments() for c in d.capabilities]


def test_a_lookup_saves_the_record_it_found(deployment, user) -> None:
    result = run_agent(
        deployment,
        user,
        "MatchInvoiceToPurchaseOrder",
        "Accounts payable says INV-000412 doesn't match the PO, can you check?",
        None,
    )
    invoice = state_of(deployment, user, result.convid)["conv"]["invoice"]
    assert invoice["number"] == "INV-000412"
    name, _ = deployment.account.route(user, "Has it been paid yet?", result.convid)
    assert name == "CheckInvoicePaymentStatus"
    text = answer_of(deployment, user, name, "Has it been paid yet?", result.convid)
    assert text.startswith(f"Invoice INV-000412 (payable, {invoice['party']}) for")
    assert f" is {invoice['status']}, with {invoice['due_date']} as its due date." in text


@pytest.mark.parametrize(
    "capability",
    [c for c in CAPABILITIES if c.action == "find" and not c.requester],
    ids=lambda c: c.name,
)
def test_every_lookup_of_a_shared_kind_saves_it(capability) -> None:
    # The trip holds more than the flight a lookup finds, so no flight lookup rewrites it.
    shared = [v for v in capability.reads if v != "trip" and VARIABLE_SOURCES[v] == capability.data]
    assert set(shared) <= set(capability.writes)


def test_a_first_name_alone_is_the_person_who_has_it(deployment, user) -> None:
    text = answer_of(deployment, user, "SponsorWorkPermit", "Sponsor a work permit for Priya", None)
    assert text.startswith("Priya Sharma is at the interview stage for the Data Analyst role")
    assert "found no candidate" not in text


def test_a_full_name_nobody_has_is_still_not_found(deployment, user) -> None:
    text = answer_of(
        deployment, user, "SponsorWorkPermit", "Tiffany Martin needs a work permit", None
    )
    assert text.startswith("I found no candidate named Tiffany Martin.")


# "Here are the keyword ideas" must be followed by them (after a colon, in the same sentence).
_PROMISE = re.compile(r"\b(?:here (?:is|are)|listed|below|the following)\b[^.:;]*(?=[.;]|$)", re.I)


@pytest.mark.parametrize("capability", CAPABILITIES, ids=lambda c: c.name)
def test_no_answer_promises_what_it_does_not_show(capability) -> None:
    shown = re.sub(r"\{[^}]*\}", "X", capability.reply)  # a value's path is no full stop
    assert not _PROMISE.search(shown), capability.reply


def test_a_company_nobody_names_is_asked_for_not_picked(deployment, user) -> None:
    text = answer_of(
        deployment, user, "OfferGoodwillGesture", "Offer them a goodwill voucher", None
    )
    assert text.startswith("Which customer? There is none in this conversation yet")


@pytest.mark.parametrize(
    ("agent", "request_text", "start"),
    [
        (
            "BuildAudienceSegment",
            "Build an audience of mid-sized retailers for our account-based marketing",
            "The audience segment is built; it includes companies such as ",
        ),
        (
            "RequestSupplierQuotes",
            "Get three quotes for 500 branded water bottles",
            "I sent the request for quotation to ",
        ),
    ],
)
def test_one_company_that_stands_for_many_needs_no_name(
    deployment, user, agent, request_text, start
):
    assert answer_of(deployment, user, agent, request_text, None).startswith(start)


def test_an_approved_supplier_is_of_the_kind_asked_or_none(deployment, user) -> None:
    vendors = {v["name"]: v for v in deployment.account.engine.world.data.records("vendors")}
    first = run_agent(
        deployment, user, "FindApprovedSupplier", "Who is our approved supplier for catering?", None
    )
    caterer = state_of(deployment, user, first.convid)["conv"]["vendor"]
    assert vendors[caterer["name"]]["category"] == "catering"
    run_agent(deployment, user, "FindApprovedSupplier", "Find me a vetted courier", first.convid)
    courier = state_of(deployment, user, first.convid)["conv"]["vendor"]
    assert vendors[courier["name"]]["category"] == "logistics"
    text = answer_of(
        deployment,
        user,
        "FindApprovedSupplier",
        "Do we have an approved vendor for translation services in France?",
        None,
    )
    assert text.startswith("I found no approved supplier for translation services in France:")


def test_who_has_a_job_is_asked_for_not_the_colleague_looked_up_before(deployment, user) -> None:
    first = run_agent(
        deployment,
        user,
        "FindColleagueInDirectory",
        "Look up Daniel Weber's job title and department",
        None,
    )
    assert first.parts[0]["text"].startswith("Daniel Weber is "), first.parts
    answer = run_agent(
        deployment, user, "FindColleagueInDirectory", "Who is our payroll specialist?", first.convid
    ).parts[0]["text"]
    assert " is Payroll Specialist in Finance" in answer.split(" (")[0], answer
    assert not answer.startswith("Daniel Weber"), answer


def test_a_colleagues_phone_number_is_looked_up_not_the_users_phone_locked(deployment) -> None:
    best = deployment.account.index.search("Find me Sofia's phone number", limit=1)[0]
    assert best.agent_name == "FindColleagueInDirectory", best


def test_code_is_reviewed_by_an_engineer(deployment, user) -> None:
    world = deployment.account.engine.world
    asked = run_agent(
        deployment, user, "RequestCodeReview", "Request a code review for the fix", None
    )
    text = asked.parts[0]["text"]
    name = text.removeprefix("I asked ").split(" (")[0]
    found = world.data.lookup("employees", where={"name": name})
    assert found and found[0]["department"] == "Engineering", (text, found)
    sales = run_agent(
        deployment, user, "RequestCodeReview", "Ask Sofia to review my pull request", None
    ).parts[0]["text"]
    assert sales.startswith("Sofia Marin works in Sales, not Engineering"), sales


def test_a_supplier_set_up_again_is_the_one_the_conversation_is_about(deployment, user) -> None:
    refused = run_agent(
        deployment, user, "OnboardNewSupplier", "Onboard Perez Consulting as a new supplier", None
    )
    again, convid = refused.parts[0]["text"], refused.convid
    assert again.startswith("Perez Consulting GmbH (VEN-"), again
    assert "is already a supplier of ours; nothing new was opened." in again, again
    vendor = state_of(deployment, user, convid)["conv"]["vendor"]
    assert vendor["name"] == "Perez Consulting GmbH" and again.startswith(
        f"Perez Consulting GmbH ({vendor['id']})"
    ), vendor
    checked = run_agent(
        deployment, user, "CheckSupplierCertificates", "Check their certificates", convid
    ).parts[0]["text"]
    assert "for Perez Consulting GmbH" in checked.split(" (")[0], checked


def test_a_customer_looked_into_through_its_case_is_the_one_called_back(deployment, user) -> None:
    # The account health check saves the customer's open case, not the customer: "their main
    # contact" is that case's customer, not "Which customer? There is none in this conversation".
    text = "Our biggest customer Orion Retail is threatening to churn, what's going on with them?"
    health = run_agent(deployment, user, "ReviewAccountHealth", text, None)
    ticket = state_of(deployment, user, health.convid)["conv"]["ticket"]
    orion = deployment.account.engine.data.lookup("customers", where={"name": "Orion Retail"})[0]
    assert ticket["customer_id"] == orion["id"]
    answer = answer_of(
        deployment,
        user,
        "ScheduleCustomerCallback",
        "Schedule a call with their main contact next Wednesday at 3pm",
        health.convid,
    )
    assert answer.startswith(
        f"A callback to {orion['contact']} at Orion Retail is scheduled for next Wednesday at 3pm."
    ), answer


def test_a_lookup_followed_up_without_a_name_is_about_what_it_found(deployment, user) -> None:
    agent = "CheckProductListPrice"
    first = run_agent(deployment, user, agent, "How much is the ergonomic chair?", None)
    product = first.parts[0]["text"].split(" (SKU-")[0]
    # A follow-up that matches no agent goes back to this one: it answered "Which product?
    # There is none in this conversation yet" right after naming the product.
    name, _ = deployment.account.route(user, "Send it to them", first.convid)
    assert name == agent
    text = answer_of(deployment, user, agent, "Send it to them", first.convid)
    assert text.startswith(f"{product} (SKU-"), text
    assert "There is none in this conversation" not in text, text


def test_a_customer_asking_for_a_quote_gets_a_quote_for_them(deployment, user) -> None:
    request = "Customer Nordic Steel wants a quote for 40 ergonomic chairs"
    name, _ = deployment.account.route(user, request, None)
    # It went to the list price agent: one unit's price, for nobody.
    assert name == "CreateSalesQuote"
    text = answer_of(deployment, user, name, request, None)
    assert text.startswith("I drafted a quote for Nordic Steel: 40 x "), text


def test_a_role_nobody_is_hired_for_is_said_to_be_none(deployment, user) -> None:
    agent = "CheckHiringBudget"
    text = answer_of(
        deployment, user, agent, "I need to hire a senior data engineer in Berlin", None
    )
    # It answered for the Senior Software Engineer opening.
    assert text.startswith("No one in our hiring pipeline is for a Senior Data Engineer role"), text
    assert "Senior Software Engineer position" not in text
    analyst = answer_of(
        deployment, user, agent, "Do we have budget to hire a second data analyst?", None
    )
    assert analyst.startswith("The Data Analyst position is in the headcount plan"), analyst
