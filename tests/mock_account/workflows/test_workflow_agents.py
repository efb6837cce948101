"""The account's workflow agents, run for real: new-hire onboarding across conversations, and
supplier onboarding that ends with a welcome email waiting for approval."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents_catalog.checker import check_paths
from agents_catalog.loader import default_account_dir
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.users import User

HIRE = "CompleteNewHireOnboarding"
SUPPLIER = "CompleteSupplierOnboarding"


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    config = AccountConfig(
        data_dir=tmp_path_factory.mktemp("wf-agents"),
        store_url="memory://",
        search="bm25",
        today="2026-11-30",
    )
    built = build_deployment(config)
    try:
        yield built
    finally:
        built.close()


def _text(result: Any) -> str:
    return " ".join(p["text"] for p in result.parts)


def _stage(deployment: Deployment, user: User, agent: str, answers: dict[str, str]) -> str:
    """One conversation of its own: the agent asks for the current stage, the user answers."""
    asked = deployment.account.exec_agent(user, agent, {"query": "continue my onboarding"})
    assert asked.result_code == "ask", asked.error
    done = deployment.account.exec_agent(user, agent, answers, asked.convid)
    assert done.result_code == "success", done.error
    return _text(done)


def test_a_new_hire_goes_through_onboarding_over_several_conversations(
    deployment: Deployment,
) -> None:
    ann, bob = deployment.users.users[0], deployment.users.users[1]
    paperwork = {"legal_name": "Ann Lee", "start_date": "2026-12-07", "contract_signed": "no"}
    said = _stage(deployment, ann, HIRE, paperwork)
    assert "stage Paperwork. Still open: contract_is_signed." in said
    said = _stage(deployment, ann, HIRE, {**paperwork, "contract_signed": "yes"})
    assert "stage Equipment" in said
    said = _stage(deployment, ann, HIRE, {"laptop": "linux", "remote": "yes"})
    assert "stage Ship the kit" in said
    said = _stage(deployment, ann, HIRE, {"shipping_address": "Rua Augusta 1, Lisbon"})
    assert "stage First day" in said
    said = _stage(deployment, ann, HIRE, {"buddy": "not an email", "orientation_done": "yes"})
    assert "must be an email address" in said and "stage First day" in said
    _stage(deployment, ann, HIRE, {"buddy": "sam@acme.example", "orientation_done": "yes"})
    assert deployment.workflows is not None
    view = deployment.workflows.view(ann.account, ann.email, "new_hire_onboarding")
    assert view["completed"] is True
    assert [h["to"] for h in view["history"]] == ["equipment", "ship_kit", "first_day", None]
    assert view["values"]["start_date"] == "2026-12-07"
    # Bob, in the same account, starts at the beginning.
    fresh = deployment.workflows.view(bob.account, bob.email, "new_hire_onboarding")
    assert (fresh["stage"], fresh["values"]) == ("paperwork", {})


def test_supplier_onboarding_ends_with_an_email_to_approve(deployment: Deployment) -> None:
    user = deployment.users.users[2]
    company = {
        "supplier_name": "Boxwell Packaging",
        "tax_id": "PT509876543",
        "contact_email": "sales@boxwell.example",
    }
    assert "stage Due diligence" in _stage(deployment, user, SUPPLIER, company)
    said = _stage(
        deployment, user, SUPPLIER, {"insurance_cover": "250000", "sanctions_clear": "yes"}
    )
    assert "stage Due diligence. Still open: insured_enough." in said
    said = _stage(
        deployment, user, SUPPLIER, {"insurance_cover": "2000000", "sanctions_clear": "yes"}
    )
    assert "stage Bank details" in said
    assert "stage Approved" in _stage(
        deployment, user, SUPPLIER, {"iban": "PT50000201231234567890154"}
    )
    said = _stage(deployment, user, SUPPLIER, {"approver": user.email})
    assert "The welcome email waits for your approval in the outbox." in said
    assert deployment.actions is not None
    pending = deployment.actions.list(user.account, user.email, ["awaitingApproval"])
    assert [(a["kind"], a["payload"]["to"], a["agent"]) for a in pending] == [
        ("email", "sales@boxwell.example", SUPPLIER)
    ]
    assert deployment.actions.outbox(user.account, user.email) == []
    deployment.actions.approve_and_execute(user.account, user.email, pending[0]["actionId"])
    sent = deployment.actions.outbox(user.account, user.email)
    assert [o["payload"]["subject"] for o in sent] == ["Welcome as a supplier, Boxwell Packaging"]


def test_the_workflow_agents_check_clean() -> None:
    account = Path(default_account_dir())
    files = [account / f"{name}.yaml" for name in (HIRE, SUPPLIER)]
    report = check_paths(files, account_dir=account)
    assert len(report.files) == 2 and report.findings == ()
