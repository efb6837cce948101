"""Agents work only from the records they are for: a contract's billing, renewal, spend,
quote and price renegotiation need the right party and more than an NDA; a new hire's
equipment and work permit wait for an offer; a declined application is not moved on. A
record they are not for is refused with the reason and never suggested to them."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of, last_tool_result, reader_request, run_agent, state_of

from mock_account.conversations.followups import Followups

NDA = ("DraftNondisclosureAgreement", "Sign an NDA with Castellano Textiles")
SUPPLIER_TERMS = (
    "ReviewSupplierContractTerms",
    "Please redline the supplier's terms before I sign",
)
CUSTOMER_SOW = ("DraftStatementOfWork", "Write the SOW for the data migration project with Initech")
INTERVIEW = "Schedule an interview with a candidate for the data analyst role"


def _offered(deployment, writer: str, conv: dict) -> set[str]:
    followups = Followups(deployment.account.agents.values(), deployment.account.index)
    return {s.agent for s in followups.suggest(writer, conv=conv, limit=30)}


def _saved(deployment, user, writer: str, request_text: str, variable: str) -> tuple[str, dict]:
    result = run_agent(deployment, user, writer, request_text, None)
    return result.convid, state_of(deployment, user, result.convid)["conv"][variable]


def _refuses(deployment, user, convid: str, reader: str, variable: str) -> str:
    """The reader's answer to its own follow-up; it leaves the saved record and takes none."""
    before = state_of(deployment, user, convid)["conv"]
    text = answer_of(
        deployment, user, reader, reader_request(deployment, reader, variable, before), convid
    )
    state = state_of(deployment, user, convid)
    assert state["conv"][variable] == before[variable]
    assert last_tool_result(state, reader) is None
    return text


def _signed(deployment, user, convid: str, contract: dict) -> dict:
    """The drafted contract, signed: what billing and spend tracking work from."""
    request = reader_request(
        deployment, "SignContractElectronically", "contract", {"contract": contract}
    )
    run_agent(deployment, user, "SignContractElectronically", request, convid)
    signed = state_of(deployment, user, convid)["conv"]["contract"]
    assert signed["id"] == contract["id"] and signed["status"] == "signed", signed
    return signed


def test_every_contract_says_whom_it_is_with(deployment) -> None:
    data = deployment.account.engine.data
    suppliers = {v["name"] for v in data.records("vendors")}
    contracts = data.records("contracts")
    assert {c["party_type"] for c in contracts} == {"customer", "supplier"}
    for contract in contracts:
        assert contract["party_type"] == (
            "supplier" if contract["counterparty"] in suppliers else "customer"
        )


@pytest.mark.parametrize(
    "reader",
    [
        "SetUpContractBilling",
        "ReviewRenewalOpportunity",
        "TrackContractSpend",
        "CreateSalesQuote",
        "RenegotiateSupplierPricing",
    ],
)
def test_an_nda_has_no_billing_renewal_spend_or_prices(deployment, user, reader) -> None:
    convid, nda = _saved(deployment, user, *NDA, "contract")
    text = _refuses(deployment, user, convid, reader, "contract")
    assert text.startswith(f"{nda['id']} is a non-disclosure agreement with Castellano Textiles;")
    offered = _offered(deployment, NDA[0], {"contract": nda})
    assert reader not in offered and "CheckContractExpiry" in offered


def test_a_supplier_agreement_is_tracked_not_billed(deployment, user) -> None:
    convid, terms = _saved(deployment, user, *SUPPLIER_TERMS, "contract")
    suppliers = {v["name"] for v in deployment.account.engine.data.records("vendors")}
    assert terms["party_type"] == "supplier" and terms["counterparty"] in suppliers, terms
    text = _refuses(deployment, user, convid, "SetUpContractBilling", "contract")
    assert text.startswith(
        f"{terms['id']} is a contract with {terms['counterparty']}, a supplier of ours, not an "
        "agreement with a customer."
    ), text
    # Once signed, its spend is tracked; it is still not billed.
    terms = _signed(deployment, user, convid, terms)
    offered = _offered(deployment, "SignContractElectronically", {"contract": terms})
    assert "SetUpContractBilling" not in offered and "TrackContractSpend" in offered


def test_a_customer_agreement_is_billed_not_tracked_as_spend(deployment, user) -> None:
    convid, sow = _saved(deployment, user, *CUSTOMER_SOW, "contract")
    assert sow["party_type"] == "customer"
    text = _refuses(deployment, user, convid, "TrackContractSpend", "contract")
    assert text.startswith(f"{sow['id']} is a contract with Initech, a customer of ours"), text
    sow = _signed(deployment, user, convid, sow)
    follow_up = reader_request(deployment, "SetUpContractBilling", "contract", {"contract": sow})
    text = answer_of(deployment, user, "SetUpContractBilling", follow_up, convid)
    assert text.startswith(f"Billing for {sow['id']} with Initech"), text


@pytest.mark.parametrize("reader", ["SetUpNewHireEquipment", "SponsorWorkPermit"])
def test_nothing_is_arranged_for_a_candidate_without_an_offer(deployment, user, reader) -> None:
    convid, candidate = _saved(
        deployment, user, "ScheduleCandidateInterview", INTERVIEW, "candidate"
    )
    assert candidate["stage"] == "interview"
    text = _refuses(deployment, user, convid, reader, "candidate")
    assert text.startswith(
        f"{candidate['name']} is at the interview stage for the {candidate['role']} role, "
        "without an offer yet"
    ), text
    assert reader not in _offered(
        deployment, "ScheduleCandidateInterview", {"candidate": candidate}
    )


def test_once_an_offer_is_out_the_new_hire_is_equipped(deployment, user) -> None:
    convid, candidate = _saved(
        deployment, user, "ScheduleCandidateInterview", INTERVIEW, "candidate"
    )
    offer = reader_request(deployment, "PrepareJobOffer", "candidate", {"candidate": candidate})
    run_agent(deployment, user, "PrepareJobOffer", offer, convid)
    conv = state_of(deployment, user, convid)["conv"]
    assert conv["candidate"]["stage"] == "offer"
    assert "SetUpNewHireEquipment" in _offered(deployment, "PrepareJobOffer", conv)
    setup = reader_request(deployment, "SetUpNewHireEquipment", "candidate", conv)
    text = answer_of(deployment, user, "SetUpNewHireEquipment", setup, convid)
    assert text.startswith("I reserved AST-"), text


def test_a_declined_application_is_not_moved_on(deployment, user) -> None:
    convid, candidate = _saved(
        deployment, user, "ScheduleCandidateInterview", INTERVIEW, "candidate"
    )
    decline = reader_request(
        deployment, "DeclineJobApplicant", "candidate", {"candidate": candidate}
    )
    run_agent(deployment, user, "DeclineJobApplicant", decline, convid)
    declined = state_of(deployment, user, convid)["conv"]
    assert declined["candidate"]["stage"] == "rejected"
    for reader in ["ScheduleCandidateInterview", "SubmitInterviewFeedback", "PrepareJobOffer"]:
        text = _refuses(deployment, user, convid, reader, "candidate")
        assert text.startswith(
            f"{candidate['name']}'s application for the {candidate['role']} role was declined"
        ), (reader, text)
    assert not _offered(deployment, "DeclineJobApplicant", declined) - {"CheckCandidateStatus"}


def test_a_hired_candidate_is_onboarded_in_the_role_they_were_hired_for(deployment, user) -> None:
    maria = deployment.account.engine.data.lookup("candidates", where={"name": "Maria Lopez"})[0]
    assert maria["stage"] == "hired"
    text = "Onboard Maria Lopez, she starts on 4 January in the Madrid office"
    answer = answer_of(deployment, user, "StartNewHireOnboarding", text, None)
    assert answer.startswith("Onboarding is under way for Maria Lopez, joining "), answer
    assert f" as {maria['role']} in Madrid on 2027-01-04," in answer, answer


def test_a_candidate_without_an_offer_is_not_onboarded(deployment, user) -> None:
    ahmed = deployment.account.engine.data.lookup("candidates", where={"name": "Ahmed Karim"})[0]
    assert ahmed["stage"] in ("applied", "screening", "interview")
    text = "Onboard Ahmed Karim, he starts on 4 January"
    result = run_agent(deployment, user, "StartNewHireOnboarding", text, None)
    assert result.parts[0]["text"].startswith(
        f"Ahmed Karim is at the {ahmed['stage']} stage for the {ahmed['role']} role, without an "
        "offer yet"
    ), result.parts
    assert "employee" not in state_of(deployment, user, result.convid)["conv"]


def test_a_new_hire_called_like_a_city_is_a_person_in_the_office_named(deployment, user) -> None:
    text = "Onboard Sofia in the Madrid office, she starts on 4 January"
    answer = answer_of(deployment, user, "StartNewHireOnboarding", text, None)
    assert answer.startswith("Onboarding is under way for Sofia, joining "), answer
    assert " in Madrid on 2027-01-04," in answer, answer


def test_a_new_hire_keeps_the_role_and_the_start_day_the_request_says(deployment, user) -> None:
    # "hired" points back, but "starting" puts the day ahead; "data engineer" is no title of
    # ours, and is not swapped for one that ends in the same word (it was "QA Engineer").
    text = "We just hired Tomas Novak as a data engineer starting January 11"
    answer = answer_of(deployment, user, "StartNewHireOnboarding", text, None)
    assert answer.startswith(
        "Onboarding is under way for Tomas Novak, joining Engineering as Data Engineer in "
    ), answer
    assert " on 2027-01-11," in answer, answer


def test_a_new_hire_in_a_job_we_have_no_title_for_keeps_it(deployment, user) -> None:
    # "content writer" ends in no noun of our titles: a Marketing title was picked instead
    # ("as Marketing Analyst").
    text = (
        "Onboard our new hire Lena Fischer, she joins Marketing as a content writer on 1 February"
    )
    answer = answer_of(deployment, user, "StartNewHireOnboarding", text, None)
    assert answer.startswith(
        "Onboarding is under way for Lena Fischer, joining Marketing as Content Writer in "
    ), answer
    assert " on 2027-02-01," in answer, answer


def test_a_new_hire_starts_on_the_day_said_to_start_not_the_day_they_signed(
    deployment, user
) -> None:
    text = (
        "Lukas Becker signed yesterday and starts Monday 3 March as a data analyst in my "
        "team, can we get his first week organised with a buddy and the paperwork"
    )
    answer = answer_of(deployment, user, "StartNewHireOnboarding", text, None)
    # He was joining "on 2026-11-29", the day he signed.
    assert answer.startswith("Onboarding is under way for Lukas Becker, joining "), answer
    assert " on 2027-03-03," in answer, answer


@pytest.mark.parametrize(
    ("agent", "request_text", "said"),
    [
        (
            "TerminateContract",
            "Terminate our agreement with Brightline Facilities, they keep missing visits",
            "I prepared the termination notice for contract CTR-",
        ),
        (
            "ScheduleCandidateInterview",
            "Schedule an interview with Priya Nair for Thursday at 2pm",
            "The interview with Priya Nair for the ",
        ),
    ],
)
def test_a_record_of_the_users_the_data_lacks_is_worked_on_as_named(
    deployment, user, agent: str, request_text: str, said: str
) -> None:
    # The prospect's own counterparty or candidate is theirs, not a name to report missing:
    # made as typed, of the kind the agent works on (a signed contract to terminate).
    result = run_agent(deployment, user, agent, request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith(said), text
    conv = state_of(deployment, user, result.convid)["conv"]
    if agent == "TerminateContract":
        assert conv["contract"]["counterparty"] == "Brightline Facilities", conv
        assert conv["contract"]["status"] == "terminated", conv


def test_an_nda_drafted_here_takes_the_term_asked_instead(deployment, user) -> None:
    drafted = run_agent(
        deployment,
        user,
        "DraftNondisclosureAgreement",
        "We need a mutual NDA with Veridian Robotics, Singapore law, 3 years",
        None,
    )
    first = state_of(deployment, user, drafted.convid)["conv"]["contract"]
    changed = run_agent(
        deployment,
        user,
        "DraftNondisclosureAgreement",
        "They asked for 5 years instead, change it.",
        drafted.convid,
    )
    contract = state_of(deployment, user, drafted.convid)["conv"]["contract"]
    assert (contract["id"], contract["counterparty"]) == (first["id"], "Veridian Robotics")
    assert "5 years" in changed.parts[0]["text"], changed.parts
