"""Actions with an effect outside: approval, at-most-once execution, isolation, bad input."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from workflow_helpers import Clock

from mock_account.crypto import StateCipher
from mock_account.workflows import (
    ActionError,
    ActionLedger,
    ActionRefused,
    UnknownAction,
    WorkflowStore,
)

MAIL = {"to": "ops@example.test", "subject": "Outage", "body": "Checkout API is down"}


@pytest.fixture
def ledger(wf_store: WorkflowStore, cipher: StateCipher, clock: Clock) -> ActionLedger:
    return ActionLedger(wf_store, cipher, clock)


def test_an_action_waits_for_approval_then_runs_once(ledger: ActionLedger) -> None:
    view, created = ledger.propose(
        "acme", "ann", kind="email", payload=MAIL, action_id="act_mail0001"
    )
    assert created and view["status"] == "awaitingApproval"
    assert ledger.execute("acme", "act_mail0001") is None  # not approved: nothing runs
    assert ledger.outbox("acme", "ann") == []
    done = ledger.approve_and_execute("acme", "ann", "act_mail0001")
    assert done["status"] == "done"
    assert [e["event"] for e in done["events"]] == ["proposed", "approved", "executed"]
    # Approving, executing and recovering again deliver nothing more.
    ledger.approve_and_execute("acme", "ann", "act_mail0001")
    ledger.execute("acme", "act_mail0001")
    assert ledger.recover("acme") == 0
    outbox = ledger.outbox("acme", "ann")
    assert [(o["actionId"], o["kind"], o["payload"]) for o in outbox] == [
        ("act_mail0001", "email", MAIL)
    ]


def test_a_retried_turn_finds_the_first_action(ledger: ActionLedger) -> None:
    first, created = ledger.propose(
        "acme", "ann", kind="im", payload={"to": "u1", "text": "hi"}, action_id="act_retry001"
    )
    again, created_again = ledger.propose(
        "acme", "ann", kind="im", payload={"to": "u1", "text": "hi"}, action_id="act_retry001"
    )
    assert created and not created_again and again["created"] == first["created"]
    assert len(ledger.list("acme", "ann")) == 1


def test_an_approved_action_lost_to_a_crash_is_run_by_recovery(
    wf_store: WorkflowStore, cipher: StateCipher, clock: Clock
) -> None:
    class Crash(Exception):
        pass

    def crash(_action_id: str) -> None:
        raise Crash()

    crashing = ActionLedger(wf_store, cipher, clock, before_finish=crash)
    crashing.propose("acme", "ann", kind="email", payload=MAIL, action_id="act_crash001")
    crashing.propose("acme", "ann", kind="email", payload=MAIL, action_id="act_crash002")
    crashing.approve("acme", "ann", "act_crash002")  # approved, then the process "died"
    with pytest.raises(Crash):
        crashing.approve_and_execute("acme", "ann", "act_crash001")  # delivered, not finished
    assert crashing.get("acme", "ann", "act_crash001")["status"] == "executing"
    restarted = ActionLedger(wf_store, cipher, clock)
    assert restarted.recover("acme") == 2
    assert {a["status"] for a in restarted.list("acme", "ann")} == {"done"}
    assert sorted(o["actionId"] for o in restarted.outbox("acme", "ann")) == [
        "act_crash001",
        "act_crash002",
    ]
    events = restarted.get("acme", "ann", "act_crash001")["events"]
    assert events[-1] == {"event": "executed", "at": events[-1]["at"], "firstDelivery": False}


def test_concurrent_approvals_deliver_once(ledger: ActionLedger) -> None:
    ledger.propose("acme", "ann", kind="email", payload=MAIL, action_id="act_race0001")
    threads = [
        threading.Thread(target=ledger.approve_and_execute, args=("acme", "ann", "act_race0001"))
        for _ in range(6)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(ledger.outbox("acme", "ann")) == 1
    assert ledger.get("acme", "ann", "act_race0001")["status"] == "done"


def test_rejected_actions_never_run(ledger: ActionLedger) -> None:
    ledger.propose("acme", "ann", kind="email", payload=MAIL, action_id="act_reject01")
    assert ledger.reject("acme", "ann", "act_reject01")["status"] == "rejected"
    with pytest.raises(ActionRefused, match="rejected"):
        ledger.approve("acme", "ann", "act_reject01")
    assert ledger.execute("acme", "act_reject01") is None and ledger.recover("acme") == 0
    assert ledger.outbox("acme", "ann") == []
    ledger.propose("acme", "ann", kind="email", payload=MAIL, action_id="act_reject02")
    ledger.approve_and_execute("acme", "ann", "act_reject02")
    with pytest.raises(ActionRefused, match="already approved"):
        ledger.reject("acme", "ann", "act_reject02")


def test_actions_need_no_approval_when_the_agent_says_so(ledger: ActionLedger) -> None:
    view, _ = ledger.propose(
        "acme",
        "ann",
        kind="connector",
        payload={"connector": "crm", "operation": "update"},
        requires_approval=False,
        action_id="act_noappr01",
    )
    assert view["status"] == "approved"
    assert ledger.recover("acme") == 1
    assert ledger.get("acme", "ann", "act_noappr01")["status"] == "done"


def test_actions_are_isolated_per_identity_and_account(ledger: ActionLedger) -> None:
    ledger.propose("acme", "ann", kind="email", payload=MAIL, action_id="act_isolat01")
    for account, identity in (("acme", "bob"), ("globex", "ann")):
        with pytest.raises(UnknownAction, match="There is no such action."):
            ledger.approve(account, identity, "act_isolat01")
        with pytest.raises(UnknownAction, match="There is no such action."):
            ledger.get(account, identity, "act_isolat01")
        assert ledger.list(account, identity) == []
    # An id another identity holds cannot be taken over, nor is its content shown.
    with pytest.raises(ActionError, match="taken"):
        ledger.propose("acme", "bob", kind="email", payload=MAIL, action_id="act_isolat01")
    assert ledger.get("acme", "ann", "act_isolat01")["status"] == "awaitingApproval"


def test_actions_are_encrypted_at_rest(ledger: ActionLedger, wf_store: WorkflowStore) -> None:
    secret = {**MAIL, "body": "Quixotic-Zanzibar-4471"}
    ledger.propose("acme", "ann", kind="email", payload=secret, action_id="act_secret01")
    ledger.approve_and_execute("acme", "ann", "act_secret01")
    record = wf_store.get_action("acme", "act_secret01")
    assert record is not None and b"Quixotic" not in record.blob
    assert all(b"Quixotic" not in o.blob for o in wf_store.list_outbox("acme"))


@pytest.mark.parametrize(
    ("kind", "payload", "action_id", "message"),
    [
        ("fax", MAIL, None, "kind must be one of"),
        ("email", {"to": "x"}, None, "needs subject, body"),
        ("email", [1], None, "payload is an object"),
        ("email", {**MAIL, "n": float("nan")}, None, "plain JSON"),
        ("email", MAIL, "short", "8-64"),
        ("email", MAIL, "act bad id!", "8-64"),
    ],
)
def test_bad_actions_are_refused(
    ledger: ActionLedger, kind: str, payload: Any, action_id: str | None, message: str
) -> None:
    with pytest.raises(ActionError, match=message):
        ledger.propose("acme", "ann", kind=kind, payload=payload, action_id=action_id)
    assert ledger.list("acme", "ann") == []
    with pytest.raises(ActionError, match="status must be one of"):
        ledger.list("acme", "ann", ["sent"])
