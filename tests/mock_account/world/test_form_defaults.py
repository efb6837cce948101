"""A form opens at what the request already said: a choice the request names is the
choice's default, in place of the agent's fixed one."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of

from mock_account.world import labelled_value, named_options, option_by_word


def _form(deployment, user, agent: str, request_text: str) -> dict[str, dict]:
    result = deployment.account.exec_agent(user, agent, {"query": request_text}, None)
    assert result.result_code == "ask", result.parts
    return {spec["name"]: spec for spec in result.ask_input["inputs"]}


@pytest.mark.parametrize(
    ("text", "options", "named"),
    [
        ("Deploy 2.14.0 to Production", ["staging", "production"], ("production",)),
        ("Nothing said here", ["staging", "production"], ()),
        # A longer option claims its words: "strong no hire" is neither "no hire" nor "hire".
        (
            "My verdict: strong no hire",
            ["strong hire", "hire", "no hire", "strong no hire"],
            ("strong no hire",),
        ),
        # Whole words or their plural: "webinar" names no "web"; "small businesses" is one.
        ("Join our webinar", ["email", "web"], ()),
        (
            "A promotion aimed at small businesses",
            ["small business", "enterprise"],
            ("small business",),
        ),
        (
            "Roll it out to staging and development",
            ["development", "staging", "production"],
            ("development", "staging"),
        ),
    ],
)
def test_the_options_a_request_names(text, options, named) -> None:
    assert named_options(text, options) == named


def test_the_deploy_form_opens_at_the_environment_the_request_names(deployment, user) -> None:
    request_text = "Deploy version 2.14.0 of the billing service to production"
    form = _form(deployment, user, "DeployServiceRelease", request_text)
    assert form["environment"]["default"] == "production"
    # Sent at its defaults, the form deploys where the request said.
    answer = answer_of(deployment, user, "DeployServiceRelease", request_text, None)
    assert "Environment: production" in answer, answer


@pytest.mark.parametrize(
    ("request_text", "version"),
    [
        ("Deploy version 2.4.1 of the billing service to production", "2.4.1"),
        ("Push release 3.2 live with a canary first", "3.2"),
        ("Ship the latest main build of the web app to staging", "latest main build"),
        ("Deploy commit 9f3c2ab to staging", "9f3c2ab"),
    ],
)
def test_the_deploy_form_opens_at_the_version_the_request_names(
    deployment, user, request_text: str, version: str
) -> None:
    form = _form(deployment, user, "DeployServiceRelease", request_text)
    assert form["version"]["default"] == version
    answer = answer_of(deployment, user, "DeployServiceRelease", request_text, None)
    assert f"Version or git tag: {version}." in answer, answer


def test_an_incident_form_opens_at_what_the_request_says_is_broken(deployment, user) -> None:
    request_text = "The checkout page is down for all customers, sev1"
    form = _form(deployment, user, "DeclareProductionIncident", request_text)
    assert (form["severity"]["default"], form["impact"]["default"]) == ("sev1", request_text)


def test_an_incident_form_notes_what_is_broken_without_the_ask(deployment, user) -> None:
    request_text = "Our payroll service is down, declare a sev1 incident"
    form = _form(deployment, user, "DeclareProductionIncident", request_text)
    assert form["impact"]["default"] == "Our payroll service is down"


def test_the_demo_incident_starter_opens_at_sev1(deployment, user) -> None:
    request_text = "The checkout service is returning 500s for everyone, open an incident"
    form = _form(deployment, user, "DeclareProductionIncident", request_text)
    assert form["severity"]["default"] == "sev1"


def test_a_deploy_form_naming_no_version_asks_for_one(deployment, user) -> None:
    form = _form(deployment, user, "DeployServiceRelease", "Push the billing service live")
    assert "default" not in form["version"]


def test_a_form_keeps_its_fixed_default_when_the_request_names_none(deployment, user) -> None:
    form = _form(deployment, user, "DeployServiceRelease", "Push the billing service live")
    assert form["environment"]["default"] == "staging"


def test_a_single_choice_the_request_names_twice_over_keeps_its_fixed_default(
    deployment, user
) -> None:
    request_text = "Deploy the billing service, first to staging, then to production"
    form = _form(deployment, user, "DeployServiceRelease", request_text)
    assert form["environment"]["default"] == "staging"


def test_a_multiple_choice_opens_at_every_option_the_request_names(deployment, user) -> None:
    request_text = "Enable the beta search feature flag in development and production"
    form = _form(deployment, user, "ToggleFeatureFlag", request_text)
    assert form["environments"]["default"] == ["development", "production"]


@pytest.mark.parametrize(
    ("request_text", "service"),
    [
        # Not in the catalogue of services: the one the request names, as it names it.
        ("Our payroll service is down since 9am", "Payroll service"),
        ("The HR system is down for the whole company", "HR system"),
        # A run or a job that failed is the service: it was declared on one picked at random
        # ("Search service").
        ("Our payroll run for December failed, open an incident with priority P1", "Payroll run"),
        ("The nightly invoice export crashed, declare a sev2 incident", "Invoice export"),
        # A thing named alone: it was declared on one picked at random ("Data warehouse").
        ("Our website is down, open a sev1 incident", "Website"),
        ("Our CRM is down for everyone", "CRM"),
        # In the catalogue: its catalogue name.
        ("Our checkout service is down", "Checkout API"),
    ],
)
def test_an_incident_is_declared_on_the_service_the_request_names(
    deployment, user, request_text: str, service: str
) -> None:
    answer = answer_of(deployment, user, "DeclareProductionIncident", request_text, None)
    assert answer.startswith("I declared incident INC-") and f" for {service} at " in answer, answer


@pytest.mark.parametrize(
    ("request_text", "gesture"),
    [
        ("Give Hoffmann Logistics a goodwill credit of 50 EUR", "credit"),
        ("Give Kestrel a free month to apologise for the trouble they had", "free month"),
        ("I'd like to send the client a voucher as an apology", "voucher"),
    ],
)
def test_the_goodwill_form_opens_at_the_gesture_the_request_names(
    deployment, user, request_text: str, gesture: str
) -> None:
    form = _form(deployment, user, "OfferGoodwillGesture", request_text)
    assert form["gesture"]["default"] == gesture


def _answered(deployment, user, agent: str, request_text: str, answers: dict) -> str:
    asked = deployment.account.exec_agent(user, agent, {"query": request_text}, None)
    assert asked.result_code == "ask", asked.parts
    result = deployment.account.exec_agent(user, agent, answers, asked.convid)
    assert result.success, result.error
    return result.parts[-1]["text"]


def test_a_number_answered_in_words_is_that_number(deployment, user) -> None:
    answers = {"product": "standing desks", "quantity": "twenty", "delivery": "standard"}
    text = _answered(
        deployment, user, "PlaceCustomerOrder", "Place an order for Orion Retail", answers
    )
    assert text.startswith("Order ORD-") and ": 20 x " in text, text


def test_an_answer_that_is_no_number_is_asked_again_not_made_up(deployment, user) -> None:
    # A mileage claim is the distance at the company rate: "test" is no distance, and no
    # amount is made up for it (it was a claim "for  km" of a random amount).
    answers = {"distance_km": "test", "vehicle": "car"}
    text = _answered(deployment, user, "ClaimMileageAllowance", "Claim my mileage", answers)
    assert text.startswith(
        "I could not read “test” as the distance in kilometres (a number). Say it again"
    ), text
    answers = {"distance_km": "about 120 km", "vehicle": "car"}
    text = _answered(deployment, user, "ClaimMileageAllowance", "Claim my mileage", answers)
    assert text.startswith("Your mileage claim of ") and " for 120 km on " in text, text


def test_a_form_opens_at_what_the_request_says_of_it(deployment, user) -> None:
    # "20 new chairs": "new" stopped the count from being read, and the form opened empty.
    form = _form(
        deployment,
        user,
        "CreatePurchaseRequisition",
        "We need 20 new chairs for the Berlin office, raise a purchase requisition",
    )
    assert form["item"]["default"] == "chair"
    case = _form(
        deployment,
        user,
        "OpenSupportCase",
        "Orion Retail says their dashboard shows no data since this morning, open a case",
    )
    assert case["details"]["default"] == (
        "Orion Retail says their dashboard shows no data since this morning"
    )


def test_a_date_asked_for_opens_at_the_date_the_request_states(deployment, user) -> None:
    request_text = "Send a newsletter to all customers next Monday at 9am about the winter sale"
    form = _form(deployment, user, "ScheduleEmailNewsletter", request_text)
    # It opened at "next Tuesday 09:00" under a request for next Monday.
    assert form["send_date"]["default"] == "next Monday at 9am"
    plain = _form(deployment, user, "ScheduleEmailNewsletter", "Send the October newsletter")
    assert plain["send_date"]["default"] == "next Tuesday 09:00"


def test_a_callback_opens_at_the_time_said_and_is_scheduled_for_it(deployment, user) -> None:
    request_text = "Schedule a call with Globex next Thursday at 3pm"
    form = _form(deployment, user, "ScheduleCustomerCallback", request_text)
    # It was a choice of "this morning" to "tomorrow afternoon", opened at "this morning",
    # and the callback was then for this morning.
    assert form["call_date"]["default"] == "next Thursday at 3pm"
    text = answer_of(deployment, user, "ScheduleCustomerCallback", request_text, None)
    assert " at Globex Corporation is scheduled for next Thursday at 3pm." in text, text


def test_a_quarter_in_a_name_is_not_the_day_something_is_sent(deployment, user) -> None:
    form = _form(
        deployment,
        user,
        "ScheduleEmailNewsletter",
        "Send the Q4 newsletter to all customers on 15 December",
    )
    # It opened at "Q4".
    assert form["send_date"]["default"] == "15 December"


@pytest.mark.parametrize(
    ("text", "options", "chosen"),
    [
        (
            "I'm locked out of Windows",
            ["Windows login", "email", "single sign-on"],
            "Windows login",
        ),
        ("Nothing said here", ["Windows login", "email", "single sign-on"], None),
        # A word two options share tells neither.
        ("Put me in premium", ["premium economy", "premium business"], None),
        ("Other than that, fine", ["other reason", "budget reason"], None),
        # A switch is turned off by what turns things off.
        ("Kill it completely", ["on", "off", "percentage rollout"], "off"),
        ("Please enable it for everyone", ["on", "off", "percentage rollout"], "on"),
        # Cut short as people do.
        ("switch it on for 10% of users in prod", ["staging", "production"], "production"),
    ],
)
def test_an_option_named_by_a_word_only_it_has(text, options, chosen) -> None:
    assert option_by_word(text, options) == chosen


@pytest.mark.parametrize(
    ("text", "label", "name", "value"),
    [
        ("Locked out again. Username r.koh.", "Username or work email", "username", "r.koh"),
        ("my username is r_koh, please unlock", "Username or work email", "username", "r_koh"),
        (
            "Work email: ann.lee@acme.example",
            "Username or work email",
            "username",
            "ann.lee@acme.example",
        ),
        ("my username is wrong somewhere", "Username or work email", "username", None),
        ("Asset tag LT-00412 is broken", "Asset tag", "asset_tag", "LT-00412"),
    ],
)
def test_a_value_typed_under_the_fields_label(text, label, name, value) -> None:
    assert labelled_value(text, label, name) == value


def test_a_password_reset_opens_at_the_username_and_sign_in_typed(deployment, user) -> None:
    form = _form(
        deployment,
        user,
        "ResetPasswordUnlockAccount",
        "I'm locked out of Windows after too many tries. Username r.koh.",
    )
    assert form["username"]["default"] == "r.koh"
    assert form["account"]["default"] == "Windows login"
