"""Key rotation for workflow progress, actions and the outbox (``mock-account keys``).

Like the conversations' (``conversations.key_rotation``): records already under the current key
are skipped, so an interrupted run resumes; a record that cannot be opened is counted and left
as it is. Progress is rewritten by compare-and-swap on its version and an action only while its
status is unchanged (re-read and tried again otherwise), so a concurrent turn is never undone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from mock_account.crypto import InvalidRecord, StateCipher, record_key_id
from mock_account.stores import VersionConflict
from mock_account.stores.workflow_records import WorkflowStore

RETRIES = 5


def _progress_context(account: str, identity: str, workflow: str) -> dict[str, str]:
    return {"convid": f"workflow|{workflow}", "owner": f"{account}|{identity}"}


def _action_context(account: str, identity: str, action_id: str) -> dict[str, str]:
    return {"convid": f"action|{action_id}", "owner": f"{account}|{identity}"}


@dataclass
class WorkflowReencryptReport:
    """Counts of one pass over the workflow records."""

    progress: int = 0
    actions: int = 0
    outbox: int = 0
    current: int = 0
    unreadable: list[str] = field(default_factory=list)
    gave_up: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [
            f"workflow progress re-encrypted: {self.progress}",
            f"actions re-encrypted: {self.actions}",
            f"outbox records re-encrypted: {self.outbox}",
            f"workflow records already on the current key: {self.current}",
        ]
        out += [f"unreadable, left as is: {item}" for item in self.unreadable]
        out += [f"busy, run again to finish: {item}" for item in self.gave_up]
        return out


def reencrypt_workflows(store: WorkflowStore, cipher: StateCipher) -> WorkflowReencryptReport:
    """Re-encrypt every workflow record of ``store`` under ``cipher``'s current key."""
    report = WorkflowReencryptReport()
    for record in store.all_progress():
        name = f"{record.account}/{record.identity}/{record.workflow} progress"
        current = record
        for _ in range(RETRIES + 1):
            if not cipher.needs_reencryption(current.blob):
                report.current += 1
                break
            context = _progress_context(current.account, current.identity, current.workflow)
            try:
                blob = cipher.reencrypt(current.blob, purpose="workflow", **context)
            except InvalidRecord:
                report.unreadable.append(name)
                break
            try:
                store.save_progress(
                    current.account,
                    current.identity,
                    current.workflow,
                    expected_version=current.version,
                    blob=blob,
                    now=current.updated,
                )
            except VersionConflict:
                again = store.load_progress(current.account, current.identity, current.workflow)
                if again is None:
                    break
                current = again
                continue
            report.progress += 1
            break
        else:
            report.gave_up.append(name)
    for action in store.all_actions():
        name = f"{action.account}/{action.action_id} action"
        current_action = action
        for _ in range(RETRIES + 1):
            if not cipher.needs_reencryption(current_action.blob):
                report.current += 1
                break
            context = _action_context(
                current_action.account, current_action.identity, current_action.action_id
            )
            try:
                blob = cipher.reencrypt(current_action.blob, purpose="action", **context)
            except InvalidRecord:
                report.unreadable.append(name)
                break
            moved = store.move_action(
                current_action.account,
                current_action.action_id,
                from_statuses=[current_action.status],
                to_status=current_action.status,
                now=current_action.updated,
                blob=blob,
            )
            if moved is not None:
                report.actions += 1
                break
            again_action = store.get_action(current_action.account, current_action.action_id)
            if again_action is None:
                break
            current_action = again_action
        else:
            report.gave_up.append(name)
    for sent in store.all_outbox():
        if not cipher.needs_reencryption(sent.blob):
            report.current += 1
            continue
        context = _action_context(sent.account, sent.identity, sent.action_id)
        try:
            blob = cipher.reencrypt(sent.blob, purpose="outbox", **context)
        except InvalidRecord:
            report.unreadable.append(f"{sent.account}/{sent.action_id} outbox")
            continue
        if store.replace_outbox_blob(sent.account, sent.action_id, blob):
            report.outbox += 1
    return report


def workflow_key_status(store: WorkflowStore) -> dict[str, Counter[str]]:
    """Records per key id, by kind (nothing is decrypted)."""
    status: dict[str, Counter[str]] = {
        "progress": Counter(),
        "actions": Counter(),
        "outbox": Counter(),
    }
    blobs = (
        ("progress", [r.blob for r in store.all_progress()]),
        ("actions", [r.blob for r in store.all_actions()]),
        ("outbox", [r.blob for r in store.all_outbox()]),
    )
    for kind, found in blobs:
        for blob in found:
            try:
                status[kind][record_key_id(blob)] += 1
            except InvalidRecord:
                status[kind]["(unreadable)"] += 1
    return status
