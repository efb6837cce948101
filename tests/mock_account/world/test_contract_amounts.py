"""A customer's contract is billed and renewed at its own amount: a request that puts it at
another amount gets the contract's amount and what to do instead, never a billing schedule at
either amount as if they agreed; its own amount, rounded as people say it, goes ahead."""

from __future__ import annotations

from handoff_journeys import answer_of

from mock_account.world.recipe import shown_money


def _globex(deployment) -> dict:
    signed = deployment.account.engine.data.lookup(
        "contracts", where={"counterparty": "Globex Corporation", "status": "signed"}
    )
    return signed[0]


def test_billing_at_another_amount_says_the_contracts_own(deployment, user) -> None:
    contract = _globex(deployment)
    text = "Set up billing for the Globex contract at 2500 EUR per month"
    answer = answer_of(deployment, user, "SetUpContractBilling", text, None)
    own = shown_money(contract["value"], contract["currency"])
    assert answer.startswith(
        f"{contract['id']} with Globex Corporation is for {own}, not 2500 EUR a month: billing "
        "and renewals follow its own terms. Amend the contract first if the price has changed."
    ), answer
    assert "is scheduled" not in answer


def test_billing_at_the_contracts_own_amount_goes_ahead(deployment, user) -> None:
    contract = _globex(deployment)
    rounded = round(contract["value"] / 1000) * 1000  # "404000 GBP" for 404004.35 GBP
    text = f"Set up billing for the Globex contract, {rounded} {contract['currency']} in all"
    answer = answer_of(deployment, user, "SetUpContractBilling", text, None)
    assert answer.startswith(f"Billing for {contract['id']} with Globex Corporation ("), answer


def test_an_amount_said_of_a_suppliers_contract_is_not_its_value(deployment, user) -> None:
    supplier = deployment.account.engine.data.lookup(
        "contracts", where={"party_type": "supplier", "status": "signed"}
    )[0]
    number = supplier["id"]
    text = f"Is there headroom left on contract {number} for another 5000 EUR?"
    answer = answer_of(deployment, user, "TrackContractSpend", text, None)
    assert number in answer and "not 5000 EUR" not in answer, answer
    assert not answer.startswith("Which contract?"), answer
