"""A contract is worked on at the stage it is at: a draft is signed, not amended,
terminated, billed or renewed; a signed contract is amended or terminated, not signed
again; a terminated one is over. The answer says the contract's stage instead, and no
follow-up offers what the stage rules out."""

from __future__ import annotations

from handoff_journeys import answer_of, followups_of, run_agent, state_of

NDA = ("DraftNondisclosureAgreement", "Draft an NDA with Castellano Textiles")


def _drafted(deployment, user) -> tuple[str, dict]:
    result = run_agent(deployment, user, *NDA, None)
    return result.convid, state_of(deployment, user, result.convid)["conv"]


def _amend(deployment, user, number: str, convid: str) -> str:
    text = f"Contract {number} with Castellano Textiles needs an amendment"
    return answer_of(deployment, user, "AmendSignedContract", text, convid)


def _sign(deployment, user, number: str, convid: str) -> str:
    text = f"Contract {number} is approved, I want to e-sign it now"
    return answer_of(deployment, user, "SignContractElectronically", text, convid)


def test_a_new_draft_is_offered_signature_not_an_amendment(deployment, user) -> None:
    convid, conv = _drafted(deployment, user)
    assert conv["contract"]["status"] == "draft"
    followups = followups_of(deployment)
    for reader in ("AmendSignedContract", "TerminateContract"):
        assert followups.written(reader, "contract", conv) is None, reader
    assert followups.written("SignContractElectronically", "contract", conv) is not None
    number = conv["contract"]["id"]
    text = _amend(deployment, user, number, convid)
    assert text.startswith(f"{number} with Castellano Textiles is a draft, not signed yet"), text


def test_a_signed_contract_is_amended_and_terminated_not_signed_again(deployment, user) -> None:
    convid, conv = _drafted(deployment, user)
    number = conv["contract"]["id"]
    signed = _sign(deployment, user, number, convid)
    assert "is signed electronically" in signed, signed
    conv = state_of(deployment, user, convid)["conv"]
    assert conv["contract"]["status"] == "signed"
    followups = followups_of(deployment)
    assert followups.written("SignContractElectronically", "contract", conv) is None
    again = _sign(deployment, user, number, convid)
    assert again.startswith(f"{number} with Castellano Textiles is already signed"), again
    amended = _amend(deployment, user, number, convid)
    assert amended.startswith(f"I opened an amendment to contract {number}"), amended
    ended = answer_of(
        deployment, user, "TerminateContract",
        f"Terminate contract {number} with Castellano Textiles", convid,
    )  # fmt: skip
    assert "termination notice" in ended, ended
    assert state_of(deployment, user, convid)["conv"]["contract"]["status"] == "terminated"
    over = _amend(deployment, user, number, convid)
    assert over.startswith(f"{number} with Castellano Textiles is terminated"), over


def test_the_agreement_named_to_sign_is_its_draft_not_one_in_force(deployment, user) -> None:
    data = deployment.account.engine.data
    globex = data.lookup("contracts", where={"counterparty": "Globex Corporation"}, limit=10)
    assert {c["status"] for c in globex} == {"draft", "signed"}, globex
    request_text = "The Globex agreement is approved, I want to e-sign it now"
    result = run_agent(deployment, user, "SignContractElectronically", request_text, None)
    signed = state_of(deployment, user, result.convid)["conv"]["contract"]
    draft = next(c for c in globex if c["status"] == "draft")
    assert (signed["id"], signed["status"]) == (draft["id"], "signed"), result.parts
    assert result.parts[0]["text"].startswith(f"Contract {draft['id']} with Globex Corporation")


def test_an_agreement_with_a_company_nobody_knows_is_with_that_company(deployment, user) -> None:
    request_text = "Can you prepare a mutual confidentiality agreement with Northwind?"
    result = run_agent(deployment, user, "DraftNondisclosureAgreement", request_text, None)
    contract = state_of(deployment, user, result.convid)["conv"]["contract"]
    assert contract["counterparty"] == "Northwind", contract
    assert result.parts[0]["text"].startswith(f"I prepared NDA {contract['id']} with Northwind")
