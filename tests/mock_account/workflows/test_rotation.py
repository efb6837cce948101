"""Key rotation of workflow progress, actions and the outbox, on every backend."""

from __future__ import annotations

from workflow_helpers import Clock

from agents_catalog.workflow_format import parse_workflow
from mock_account.crypto import Keyring, StateCipher, record_key_id
from mock_account.workflows import ActionLedger, WorkflowService, WorkflowStore
from mock_account.workflows.rotation import reencrypt_workflows, workflow_key_status

FLOW = parse_workflow({"name": "w", "stages": [{"name": "a", "goals": [{"collect": "x"}]}]})
MAIL = {"to": "a@b.example", "subject": "s", "body": "b"}


def test_rotation_rewrites_every_record_under_the_new_key(
    wf_store: WorkflowStore, clock: Clock
) -> None:
    old = Keyring.generate("k1")
    before = StateCipher(old)
    WorkflowService(wf_store, before, clock, {"w": FLOW}).submit("acme", "ann", "w", {"x": "1"})
    ledger = ActionLedger(wf_store, before, clock)
    ledger.propose("acme", "ann", kind="email", payload=MAIL, action_id="act_rotate01")
    ledger.propose("globex", "bob", kind="email", payload=MAIL, action_id="act_rotate02")
    ledger.approve_and_execute("globex", "bob", "act_rotate02")
    assert workflow_key_status(wf_store) == {
        "progress": {"k1": 1},
        "actions": {"k1": 2},
        "outbox": {"k1": 1},
    }

    rotated = old.rotated("k2")
    after = StateCipher(rotated)
    report = reencrypt_workflows(wf_store, after)
    assert (report.progress, report.actions, report.outbox, report.unreadable) == (1, 2, 1, [])
    status = workflow_key_status(wf_store)
    assert status == {"progress": {"k2": 1}, "actions": {"k2": 2}, "outbox": {"k2": 1}}
    # Everything still reads, under the new key alone.
    only_new = StateCipher(Keyring([("k2", dict(rotated.items())["k2"])]))
    view = WorkflowService(wf_store, only_new, clock, {"w": FLOW}).view("acme", "ann", "w")
    assert view["values"] == {"x": "1"}
    moved = ActionLedger(wf_store, only_new, clock)
    assert moved.get("acme", "ann", "act_rotate01")["status"] == "awaitingApproval"
    assert [o["payload"] for o in moved.outbox("globex", "bob")] == [MAIL]
    # A second pass finds nothing to do.
    again = reencrypt_workflows(wf_store, after)
    assert (again.progress, again.actions, again.outbox, again.current) == (0, 0, 0, 4)
    assert all(record_key_id(r.blob) == "k2" for r in wf_store.all_actions())
