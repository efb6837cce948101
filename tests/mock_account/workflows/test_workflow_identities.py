"""Workflow progress and actions per identity: a sender on a channel keeps their own progress,
the same person on another channel is another identity, and ``execAgent`` keeps the user's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mock_account.channels import ChannelService, records_for
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.users import User

HIRE = "CompleteNewHireOnboarding"
SUPPLIER = "CompleteSupplierOnboarding"
ONBOARDING = "new_hire_onboarding"
PAPERWORK = {"legal_name": "Ann Lee", "start_date": "2026-12-07", "contract_signed": "yes"}


@pytest.fixture
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    config = AccountConfig(
        data_dir=tmp_path_factory.mktemp("wf-identities"),
        store_url="memory://",
        search="bm25",
        today="2026-11-30",
    )
    built = build_deployment(config)
    try:
        yield built
    finally:
        built.close()


@pytest.fixture
def service(deployment: Deployment) -> ChannelService:
    return ChannelService(
        deployment.account, records_for(deployment.account.store), deployment.users
    )


@pytest.fixture
def admin(deployment: Deployment) -> User:
    return deployment.users.users[0]


def _text(result: Any) -> str:
    return " ".join(p["text"] for p in result.parts)


def _send_stage(
    service: ChannelService,
    admin: User,
    channel: str,
    sender: str,
    agent: str,
    answers: dict[str, str],
) -> tuple[str, str]:
    """One stage as a sender on a channel: the agent asks, the sender answers.
    Returns the identity and what the agent said."""
    asked = service.deliver(
        admin, channel=channel, sender=sender, agent_name=agent, query="continue my onboarding"
    )
    assert asked.result.result_code == "ask", asked.result.error
    done = service.deliver(admin, channel=channel, sender=sender, agent_name=agent, inputs=answers)
    assert done.result.result_code == "success", done.result.error
    assert done.identity == asked.identity and done.resumed
    return done.identity, _text(done.result)


def test_two_email_senders_each_advance_their_own_workflow(
    deployment: Deployment, service: ChannelService, admin: User
) -> None:
    workflows = deployment.workflows
    assert workflows is not None
    ann, said = _send_stage(service, admin, "email", "ann@example.org", HIRE, PAPERWORK)
    assert "stage Equipment" in said
    bob, said = _send_stage(
        service, admin, "email", "bob@example.org", HIRE, {**PAPERWORK, "contract_signed": "no"}
    )
    assert "stage Paperwork. Still open: contract_is_signed." in said
    assert ann != bob

    ann_view = workflows.view(admin.account, f"email:{ann}", ONBOARDING)
    bob_view = workflows.view(admin.account, f"email:{bob}", ONBOARDING)
    assert ann_view["stage"] == "equipment"
    assert [h["to"] for h in ann_view["history"]] == ["equipment"]
    assert (bob_view["stage"], bob_view["history"]) == ("paperwork", [])
    assert bob_view["values"]["contract_signed"] is False
    # Ann's next message continues where she is, in her resumed conversation.
    _, said = _send_stage(
        service, admin, "email", "ann@example.org", HIRE, {"laptop": "linux", "remote": "no"}
    )
    assert "stage First day" in said
    # The administrator who delivered the messages has no progress of their own.
    own = workflows.view(admin.account, admin.email, ONBOARDING)
    assert (own["stage"], own["values"]) == ("paperwork", {})


def test_the_same_person_on_im_is_another_identity_at_the_first_stage(
    deployment: Deployment, service: ChannelService, admin: User
) -> None:
    workflows = deployment.workflows
    assert workflows is not None
    by_email, _ = _send_stage(service, admin, "email", "ann@example.org", HIRE, PAPERWORK)
    asked = service.deliver(
        admin,
        channel="im",
        sender="slack:U024BE7LH",
        agent_name=HIRE,
        query="continue my onboarding",
        contact="Ann Lee",
    )
    assert asked.result.result_code == "ask", asked.result.error
    assert asked.identity != by_email
    on_im = workflows.view(admin.account, f"im:{asked.identity}", ONBOARDING)
    assert (on_im["stage"], on_im["values"], on_im["history"]) == ("paperwork", {}, [])
    assert workflows.view(admin.account, f"email:{by_email}", ONBOARDING)["stage"] == "equipment"


def test_exec_agent_and_the_web_channel_keep_the_users_progress(
    deployment: Deployment, service: ChannelService, admin: User
) -> None:
    workflows = deployment.workflows
    assert workflows is not None
    user = deployment.users.users[1]
    asked = deployment.account.exec_agent(user, HIRE, {"query": "continue my onboarding"})
    done = deployment.account.exec_agent(user, HIRE, PAPERWORK, asked.convid)
    assert done.result_code == "success", done.error
    assert workflows.view(user.account, user.email, ONBOARDING)["stage"] == "equipment"
    # On web the user's email is their identity: the same progress, one stage on.
    asked_web = service.deliver(user, channel="web", agent_name=HIRE, query="continue")
    assert asked_web.result.result_code == "ask", asked_web.result.error
    done_web = service.deliver(
        user,
        channel="web",
        agent_name=HIRE,
        inputs={"laptop": "mac", "remote": "no"},
        convid=asked_web.result.convid,
    )
    assert done_web.result.result_code == "success", done_web.result.error
    assert "stage First day" in _text(done_web.result)
    assert workflows.view(user.account, user.email, ONBOARDING)["stage"] == "first_day"
    # Nothing was filed under the web identity's id.
    assert {r.identity for r in workflows.store.all_progress()} == {user.email}


def test_an_email_senders_action_waits_in_their_own_ledger(
    deployment: Deployment, service: ChannelService, admin: User
) -> None:
    actions = deployment.actions
    assert actions is not None
    sender = "buyer@boxwell.example"
    company = {
        "supplier_name": "Boxwell Packaging",
        "tax_id": "PT509876543",
        "contact_email": "sales@boxwell.example",
    }
    identity, _ = _send_stage(service, admin, "email", sender, SUPPLIER, company)
    _send_stage(
        service,
        admin,
        "email",
        sender,
        SUPPLIER,
        {"insurance_cover": "2000000", "sanctions_clear": "yes"},
    )
    _send_stage(service, admin, "email", sender, SUPPLIER, {"iban": "PT50000201231234567890154"})
    _, said = _send_stage(service, admin, "email", sender, SUPPLIER, {"approver": admin.email})
    assert "The welcome email waits for your approval in the outbox." in said
    owner = f"email:{identity}"
    pending = actions.list(admin.account, owner, ["awaitingApproval"])
    assert [(a["kind"], a["payload"]["to"]) for a in pending] == [
        ("email", "sales@boxwell.example")
    ]
    assert actions.list(admin.account, admin.email) == []


def test_records_are_encrypted_and_filed_under_the_identity_not_the_address(
    deployment: Deployment, service: ChannelService, admin: User
) -> None:
    assert deployment.workflows is not None
    identity, _ = _send_stage(service, admin, "email", "ann@example.org", HIRE, PAPERWORK)
    records = deployment.workflows.store.all_progress()
    assert [(r.account, r.identity) for r in records] == [(admin.account, f"email:{identity}")]
    for record in records:
        assert b"Ann Lee" not in record.blob and b"ann@example.org" not in record.blob
    # Another account sees nothing of it.
    other = next(u for u in deployment.users.users if u.account != admin.account)
    fresh = deployment.workflows.view(other.account, f"email:{identity}", ONBOARDING)
    assert (fresh["stage"], fresh["values"]) == ("paperwork", {})


def test_the_account_of_a_run_owner(deployment: Deployment, admin: User) -> None:
    effects = deployment.account.engine.effects
    account_of = effects.account_of  # type: ignore[union-attr]
    other = next(u for u in deployment.users.users if u.account != admin.account)
    assert account_of(admin.email, None) == admin.account
    assert account_of(admin.email, admin.account) == admin.account
    assert account_of("email:0123abcd", admin.account) == admin.account
    with pytest.raises(ValueError):
        account_of(admin.email, other.account)  # a user of another account
    with pytest.raises(ValueError):
        account_of("email:0123abcd", None)  # an identity needs the run's account
    with pytest.raises(ValueError):
        account_of("web:0123abcd", admin.account)  # on web the identity is the email
    with pytest.raises(ValueError):
        account_of("email:0123abcd", "nobody")
