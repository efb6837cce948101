"""Key rotation for workflow progress, actions and the outbox (``mock-account keys``).

Like the conversations' (``conversations.key_rotation``): records already under the current key
are skipped, so an interrupted run resumes; a record that cannot be opened is counted and left
as it is. Progress is rewritten by compare-and-swap on its version and an action only while its
status is unchanged (re-read and tried again otherwise), so a concurrent turn is never undone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from mock_account.crypto import InvalidRecord, Purpose, StateCipher, record_key_id
from mock_account.crypto.reencryption import ReencryptCounts, report_lines
from mock_account.stores import VersionConflict
from mock_account.stores.workflow_records import (
    ActionRecord,
    OutboxRecord,
    ProgressRecord,
    WorkflowStore,
)

RETRIES = 5
Rewritten = TypeVar("Rewritten", ProgressRecord, ActionRecord)


def _progress_context(record: ProgressRecord) -> dict[str, str]:
    return {"convid": f"workflow|{record.workflow}", "owner": f"{record.account}|{record.identity}"}


def _action_context(record: ActionRecord | OutboxRecord) -> dict[str, str]:
    return {"convid": f"action|{record.action_id}", "owner": f"{record.account}|{record.identity}"}


@dataclass
class WorkflowReencryptReport(ReencryptCounts):
    """Counts of one pass over the workflow records."""

    progress: int = 0
    actions: int = 0
    outbox: int = 0
    gave_up: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        counts = {
            "workflow progress re-encrypted": self.progress,
            "actions re-encrypted": self.actions,
            "outbox records re-encrypted": self.outbox,
            "workflow records already on the current key": self.current,
        }
        return report_lines(counts, self.unreadable, self.gave_up)


def _reencrypt_retrying(
    record: Rewritten,
    report: WorkflowReencryptReport,
    cipher: StateCipher,
    *,
    name: str,
    purpose: Purpose,
    context: Callable[[Rewritten], dict[str, str]],
    write: Callable[[Rewritten, bytes], bool],
    reread: Callable[[Rewritten], Rewritten | None],
) -> bool:
    """Re-encrypt ``record`` and ``write`` it back, which refuses (False) when a concurrent
    turn changed it since it was read: then it is read again and tried again, up to
    ``RETRIES`` times, so that turn is never undone. True once it is written."""
    current = record
    for _ in range(RETRIES + 1):
        blob = report.resealed(cipher, current.blob, name, purpose=purpose, **context(current))
        if blob is None:
            return False
        if write(current, blob):
            return True
        again = reread(current)
        if again is None:  # deleted meanwhile: nothing left to re-encrypt
            return False
        current = again
    report.gave_up.append(name)
    return False


def reencrypt_workflows(store: WorkflowStore, cipher: StateCipher) -> WorkflowReencryptReport:
    """Re-encrypt every workflow record of ``store`` under ``cipher``'s current key."""
    report = WorkflowReencryptReport()

    def save_progress(record: ProgressRecord, blob: bytes) -> bool:
        try:
            store.save_progress(
                record.account,
                record.identity,
                record.workflow,
                expected_version=record.version,
                blob=blob,
                now=record.updated,
            )
        except VersionConflict:
            return False
        return True

    def keep_status(action: ActionRecord, blob: bytes) -> bool:
        moved = store.move_action(
            action.account,
            action.action_id,
            from_statuses=[action.status],
            to_status=action.status,
            now=action.updated,
            blob=blob,
        )
        return moved is not None

    for record in store.all_progress():
        if _reencrypt_retrying(
            record,
            report,
            cipher,
            name=f"{record.account}/{record.identity}/{record.workflow} progress",
            purpose="workflow",
            context=_progress_context,
            write=save_progress,
            reread=lambda r: store.load_progress(r.account, r.identity, r.workflow),
        ):
            report.progress += 1
    for action in store.all_actions():
        if _reencrypt_retrying(
            action,
            report,
            cipher,
            name=f"{action.account}/{action.action_id} action",
            purpose="action",
            context=_action_context,
            write=keep_status,
            reread=lambda a: store.get_action(a.account, a.action_id),
        ):
            report.actions += 1
    for sent in store.all_outbox():
        name = f"{sent.account}/{sent.action_id} outbox"
        blob = report.resealed(cipher, sent.blob, name, purpose="outbox", **_action_context(sent))
        if blob is not None and store.replace_outbox_blob(sent.account, sent.action_id, blob):
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
