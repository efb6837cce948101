"""In-memory conversation store: dictionaries behind one lock (tests, demos, nothing durable)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any, TypeVar, cast

from mock_account.stores import base
from mock_account.stores.codec import (
    is_after_cursor,
    recent_page,
    sort_key,
    utc,
)
from mock_account.stores.errors import VersionConflict

_Key = tuple[str, str]
_Table = TypeVar("_Table")
_RecordKey = TypeVar("_RecordKey")


def replace_record(table: dict[_RecordKey, Any], key: _RecordKey, **changes: object) -> bool:
    """Put a copy of the (frozen) record at ``key`` with ``changes`` in its place; False when
    there is none. The caller holds the store's lock."""
    record = table.get(key)
    if record is None:
        return False
    table[key] = dataclasses.replace(record, **changes)
    return True


class MemoryStore(base.ConversationStore, base.IdempotencyRecords):
    """A process-local store; every operation holds the lock, so each one is atomic."""

    backend = "memory"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[_Key, base.ConversationEntry] = {}
        self._blobs: dict[_Key, bytes | None] = {}
        self._idempotency: dict[str, base.IdempotencyRecord] = {}
        self._side_tables: dict[str, object] = {}

    # -- the seam of the side stores (``mock_account.stores.memory``'s other modules) ----------

    @property
    def lock(self) -> threading.Lock:
        """The lock every operation holds: a side store holding it too is atomic against the
        conversations (a link is never written for a conversation being deleted)."""
        return self._lock

    def has_entry(self, account: str, convid: str) -> bool:
        """Whether the conversation exists. Takes no lock: call it holding ``lock``, so the
        answer still holds while the caller acts on it."""
        return (account, convid) in self._entries

    def side_table(self, name: str, factory: Callable[[], _Table]) -> _Table:
        """The side store ``name`` of this store, made by ``factory`` on first use: one per
        store, as a database holds one set of tables, so every caller sees the same records.
        ``factory`` runs under ``lock`` and must not take it."""
        with self._lock:
            table = self._side_tables.get(name)
            if table is None:
                table = self._side_tables[name] = factory()
        return cast(_Table, table)

    def commit(self, request: base.CommitRequest) -> base.Committed:
        r = request
        now = utc(r.now, "now")
        key = (r.account, r.convid)
        with self._lock:
            current = self._entries.get(key)
            if r.expected_version == 0:
                if current is not None:
                    raise VersionConflict.lost(r.convid, 0)
                entry = base.ConversationEntry(
                    account=r.account,
                    convid=r.convid,
                    owner=r.owner,
                    title=bytes(r.title_if_new),
                    created=now,
                    last_executed=now,
                    last_read=now,
                    pinned=False,
                    state_version=1,
                    last_agent=r.agent,
                )
            else:
                if (
                    current is None
                    or current.owner != r.owner
                    or current.state_version != r.expected_version
                ):
                    raise VersionConflict.lost(r.convid, r.expected_version)
                entry = dataclasses.replace(
                    current,
                    last_executed=now,
                    state_version=r.expected_version + 1,
                    last_agent=r.agent,
                )
            self._entries[key] = entry
            self._blobs[key] = None if r.blob is None else bytes(r.blob)
            return base.Committed.of(entry)

    def load(self, account: str, convid: str) -> base.StoredState | None:
        with self._lock:
            entry = self._entries.get((account, convid))
            if entry is None:
                return None
            return base.StoredState(entry=entry, blob=self._blobs.get((account, convid)))

    def get_entry(self, account: str, convid: str) -> base.ConversationEntry | None:
        with self._lock:
            return self._entries.get((account, convid))

    def change_entry(self, account: str, convid: str, change: base.EntryChange) -> bool:
        changes: dict[str, object] = {}
        if change.title is not None:
            changes["title"] = bytes(change.title)
        if change.pinned is not None:
            changes["pinned"] = bool(change.pinned)
        if change.last_read is not None:
            changes["last_read"] = utc(change.last_read, "last_read")
        with self._lock:
            return replace_record(self._entries, (account, convid), **changes)

    def replace_blob(
        self, account: str, convid: str, *, expected_version: int, blob: bytes
    ) -> None:
        key = (account, convid)
        with self._lock:
            current = self._entries.get(key)
            if current is None or current.state_version != expected_version:
                raise VersionConflict.lost(convid, expected_version)
            self._entries[key] = dataclasses.replace(current, state_version=expected_version + 1)
            self._blobs[key] = bytes(blob)

    def delete(self, account: str, convid: str) -> bool:
        with self._lock:
            self._blobs.pop((account, convid), None)
            for key in [
                k
                for k, r in self._idempotency.items()
                if r.account == account and r.convid == convid
            ]:
                del self._idempotency[key]
            return self._entries.pop((account, convid), None) is not None

    def _owned(self, account: str, owner: str, pinned: bool) -> list[base.ConversationEntry]:
        with self._lock:
            found = [
                e
                for e in self._entries.values()
                if e.account == account and e.owner == owner and e.pinned == pinned
            ]
        return sorted(found, key=sort_key, reverse=True)

    def list_pinned(self, account: str, owner: str) -> list[base.ConversationEntry]:
        return self._owned(account, owner, pinned=True)

    def list_recent(
        self, account: str, owner: str, *, limit: int, cursor: str | None
    ) -> tuple[list[base.ConversationEntry], str | None]:
        def after(position: tuple[int, str] | None, _want: int) -> list[base.ConversationEntry]:
            # All of them are at hand: the page is cut from the whole list.
            return [e for e in self._owned(account, owner, False) if is_after_cursor(e, position)]

        return recent_page(limit, cursor, after)

    def count_pinned(self, account: str, owner: str) -> int:
        return len(self._owned(account, owner, pinned=True))

    def iter_entries(self, account: str | None = None) -> Iterator[base.ConversationEntry]:
        with self._lock:
            snapshot = list(self._entries.values())
        return iter([e for e in snapshot if account is None or e.account == account])

    def remember(
        self, key: str, record: base.IdempotencyRecord, now: datetime
    ) -> base.IdempotencyRecord | None:
        now = utc(now, "now")
        base.check_idempotency_record(record, now)
        with self._lock:
            stored = self._idempotency.get(key)
            if stored is not None and not stored.expired(now):
                return stored
            self._idempotency[key] = dataclasses.replace(
                record, record=bytes(record.record), expires=utc(record.expires, "expires")
            )
            return None

    def recall(self, key: str, now: datetime) -> base.IdempotencyRecord | None:
        now = utc(now, "now")
        with self._lock:
            stored = self._idempotency.get(key)
        return None if stored is None or stored.expired(now) else stored

    def forget(self, key: str) -> bool:
        with self._lock:
            return self._idempotency.pop(key, None) is not None

    def purge_expired(self, now: datetime) -> int:
        now = utc(now, "now")
        with self._lock:
            gone = [k for k, r in self._idempotency.items() if r.expired(now)]
            for key in gone:
                del self._idempotency[key]
        return len(gone)

    def check_integrity(self) -> list[str]:
        with self._lock:
            problems = [
                f"conversation {key[1]!r} of account {key[0]!r}: state without entry"
                for key in self._blobs
                if key not in self._entries
            ]
            problems += [
                f"conversation {e.convid!r} of account {e.account!r}: negative version"
                for e in self._entries.values()
                if e.state_version < 0
            ]
        return problems

    def close(self) -> None:
        """Nothing to release: the data simply goes when the object goes."""
