"""Workflow records in memory, next to a ``MemoryStore`` (tests and demos; nothing durable)."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime

from mock_account.stores import workflow_records as contract
from mock_account.stores.codec import utc
from mock_account.stores.memory.store import MemoryStore


class MemoryWorkflowStore(contract.WorkflowStore):
    """In-process records (tests, ``memory://``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._progress: dict[tuple[str, str, str], contract.ProgressRecord] = {}
        self._actions: dict[tuple[str, str], contract.ActionRecord] = {}
        self._outbox: dict[tuple[str, str], contract.OutboxRecord] = {}

    def load_progress(
        self, account: str, identity: str, workflow: str
    ) -> contract.ProgressRecord | None:
        with self._lock:
            return self._progress.get((account, identity, workflow))

    def commit_progress(self, save: contract.ProgressSave) -> contract.ProgressRecord:
        account, identity, workflow = save.account, save.identity, save.workflow
        key = (account, identity, workflow)
        with self._lock:
            current = self._progress.get(key)
            if (current.version if current else 0) != save.expected_version:
                raise save.conflict()
            version = save.expected_version + 1
            record = contract.ProgressRecord(
                account, identity, workflow, version, save.blob, utc(save.now)
            )
            self._progress[key] = record
            return record

    def list_progress(self, account: str, identity: str) -> list[contract.ProgressRecord]:
        with self._lock:
            found = [r for k, r in self._progress.items() if k[:2] == (account, identity)]
        return sorted(found, key=lambda r: r.workflow)

    def add_action(
        self, account: str, action_id: str, identity: str, status: str, blob: bytes, now: datetime
    ) -> tuple[contract.ActionRecord, bool]:
        contract.check_names(account=account, action_id=action_id, identity=identity, status=status)
        with self._lock:
            current = self._actions.get((account, action_id))
            if current is not None:
                return current, False
            t = utc(now)
            record = contract.ActionRecord(account, action_id, identity, status, bytes(blob), t, t)
            self._actions[(account, action_id)] = record
            return record, True

    def get_action(self, account: str, action_id: str) -> contract.ActionRecord | None:
        with self._lock:
            return self._actions.get((account, action_id))

    def commit_move(self, move: contract.ActionMove) -> contract.ActionRecord | None:
        key = (move.account, move.action_id)
        with self._lock:
            current = self._actions.get(key)
            if current is None or current.status not in move.from_statuses:
                return None
            record = replace(
                current,
                status=move.to_status,
                updated=utc(move.now),
                blob=current.blob if move.blob is None else move.blob,
            )
            self._actions[key] = record
            return record

    def list_actions(
        self, account: str, identity: str | None = None, statuses: Iterable[str] | None = None
    ) -> list[contract.ActionRecord]:
        wanted = None if statuses is None else set(statuses)
        with self._lock:
            found = [
                r
                for r in self._actions.values()
                if r.account == account
                and (identity is None or r.identity == identity)
                and (wanted is None or r.status in wanted)
            ]
        return sorted(found, key=lambda r: (r.created, r.action_id), reverse=True)

    def deliver(
        self, account: str, action_id: str, identity: str, blob: bytes, now: datetime
    ) -> bool:
        contract.check_names(account=account, action_id=action_id, identity=identity)
        with self._lock:
            if (account, action_id) in self._outbox:
                return False
            self._outbox[(account, action_id)] = contract.OutboxRecord(
                account, action_id, identity, bytes(blob), utc(now)
            )
            return True

    def list_outbox(self, account: str, identity: str | None = None) -> list[contract.OutboxRecord]:
        with self._lock:
            found = [
                r
                for r in self._outbox.values()
                if r.account == account and (identity is None or r.identity == identity)
            ]
        return sorted(found, key=lambda r: (r.delivered, r.action_id), reverse=True)

    def all_progress(self) -> list[contract.ProgressRecord]:
        with self._lock:
            return list(self._progress.values())

    def all_actions(self) -> list[contract.ActionRecord]:
        with self._lock:
            return list(self._actions.values())

    def all_outbox(self) -> list[contract.OutboxRecord]:
        with self._lock:
            return list(self._outbox.values())

    def replace_outbox_blob(self, account: str, action_id: str, blob: bytes) -> bool:
        with self._lock:
            current = self._outbox.get((account, action_id))
            if current is None:
                return False
            self._outbox[(account, action_id)] = replace(current, blob=bytes(blob))
            return True

    def forget_identity(self, account: str, identity: str) -> int:
        contract.check_names(account=account, identity=identity)
        removed = 0
        with self._lock:
            for records in (self._progress, self._actions, self._outbox):
                gone = [
                    k for k, r in records.items() if (r.account, r.identity) == (account, identity)
                ]
                for key in gone:
                    del records[key]
                removed += len(gone)
        return removed


def workflow_store(store: MemoryStore) -> contract.WorkflowStore:
    """The workflow records of ``store``: one set per store, as a database holds one set of
    tables, so every caller sees the same records."""
    return store.side_table("workflows", MemoryWorkflowStore)
