"""SQLite conversation store (the embedded default): WAL journal, atomic compare-and-swap writes.

Each thread gets its own connections (see ``connections``); a conversation's reads (a restore)
go through the one its saves write on, whose cache they keep current. A save is one statement,
run as a transaction of its own (``write_alone``): the compare-and-swap on the version is its
``WHERE`` clause (or the primary key of a new conversation), so check and write are one atomic
step across threads and processes alike, and nothing is read back. Writes of several statements
(a batch of saves, a deletion) run in ``BEGIN IMMEDIATE``, which takes the write lock before
reading; other writers wait up to ``timeout`` seconds for it. Reads are single statements, hence
one consistent snapshot (WAL readers never block writers). WAL checkpoints run in a background
thread per store.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from mock_account.stores import base
from mock_account.stores.codec import (
    from_micros,
    recent_page,
    to_micros,
)
from mock_account.stores.errors import StoreError, VersionConflict
from mock_account.stores.sql.entries import ENTRY_COLUMNS, entry_from_row, entry_update
from mock_account.stores.sqlite import schema as sqlite_schema
from mock_account.stores.sqlite.connections import SqliteConnections

log = logging.getLogger(__name__)

_BATCH = 500
# A save is one statement, with no read-back of what it wrote: the compare-and-swap is the
# UPDATE's WHERE clause (or the INSERT's primary key), and the state is a column of the entry.
_CREATE = (
    f"INSERT INTO entries ({ENTRY_COLUMNS}, last_used, blob) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, 0, 1, ?, ?, ?) ON CONFLICT DO NOTHING"
)
_ADVANCE = (
    "UPDATE entries SET state_version = state_version + 1, last_executed = ?, "
    "last_used = max(?, last_read), last_agent = ?, blob = ? "
    "WHERE account = ? AND convid = ? AND owner = ? AND state_version = ?"
)
_LOAD = f"SELECT {ENTRY_COLUMNS}, blob FROM entries WHERE account = ? AND convid = ?"
_RECALL = "SELECT account, convid, record, expires FROM idempotency WHERE key = ? AND expires > ?"


def _idempotency_record(row: tuple) -> base.IdempotencyRecord:
    return base.IdempotencyRecord(row[0], row[1], bytes(row[2]), from_micros(row[3]))


def _entry(row: tuple) -> base.ConversationEntry:
    return entry_from_row(row, from_micros)


class SqliteStore(base.ConversationStore, base.IdempotencyRecords):
    """A store in one SQLite file; the file and its parent folder are created when missing."""

    backend = "sqlite"

    def __init__(
        self, path: str | Path, *, synchronous: str = "NORMAL", timeout: float = 10.0
    ) -> None:
        self.path = Path(path)
        self._db = SqliteConnections(self.path, synchronous=synchronous, timeout=timeout)
        with self._db.errors():
            self._db.conn().execute("PRAGMA journal_mode=WAL")
            with self._db.write() as conn:
                sqlite_schema.migrate(conn, str(self.path))
            # A save waits for its commit only, not for the WAL's copy into the file.
            self._db.checkpoint_in_background()

    def _read_one(self, sql: str, params: tuple) -> tuple | None:
        with self._db.errors():
            return self._db.read_one(sql, params)

    # -- the seam of the side stores (``mock_account.stores.sqlite``'s other modules) ----------
    # Their tables are in this file and they use these connections and this write lock, so
    # a side store's write waits for a save as another save would.

    def read(self, sql: str, params: tuple = ()) -> list[tuple]:
        """The rows of a query, on this thread's reading connection (errors translated)."""
        with self._db.errors():
            return self._db.conn().execute(sql, params).fetchall()

    def write_alone(self, sql: str, params: tuple) -> int:
        """One writing statement as a transaction of its own; its row count (see
        ``SqliteConnections.write_alone``: it must not return rows)."""
        with self._db.errors():
            return self._db.write_alone(sql, params)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (``BEGIN IMMEDIATE``) on the writing connection: commits when
        the block ends, rolls back if it raises; errors translated."""
        with self._db.errors(), self._db.write() as conn:
            yield conn

    # -- conversations ---------------------------------------------------------------------------

    def commit(self, request: base.CommitRequest) -> base.Committed:
        t = to_micros(request.now, "now")
        with self._db.errors():
            saved = self._db.write_alone(*self._save_statement(request, t))
        return self._committed(request, t, saved)

    def commit_runs(self, requests: Sequence[base.CommitRequest]) -> list[base.CommitOutcome]:
        """Group commit: every request in one write transaction, each with its own CAS.

        Each request runs inside a savepoint, so one that fails is undone alone and the others
        still commit; the batch pays for one lock acquisition and one WAL commit.
        """
        outcomes: list[base.CommitOutcome] = []
        with self._db.errors(), self._db.write() as conn:
            for request in requests:
                try:
                    t = to_micros(request.now, "now")
                except (ValueError, TypeError, AttributeError) as exc:  # not a usable time
                    outcomes.append(exc)
                    continue
                conn.execute("SAVEPOINT commit_item")
                try:
                    saved = conn.execute(*self._save_statement(request, t)).rowcount
                    outcomes.append(self._committed(request, t, saved))
                except VersionConflict as exc:
                    conn.execute("ROLLBACK TO commit_item")
                    outcomes.append(exc)
                except (sqlite3.IntegrityError, sqlite3.InterfaceError) as exc:
                    # A problem of this request's data; anything else concerns the whole batch.
                    conn.execute("ROLLBACK TO commit_item")
                    outcomes.append(StoreError(f"SQLite store {self.path}: {exc}"))
                finally:
                    conn.execute("RELEASE commit_item")
        return outcomes

    @staticmethod
    def _save_statement(r: base.CommitRequest, t: int) -> tuple[str, tuple]:
        """The one statement of a compare-and-swap save."""
        if r.expected_version == 0:
            return _CREATE, (
                r.account,
                r.convid,
                r.owner,
                r.title_if_new,
                t,
                t,
                t,
                r.agent,
                t,
                r.blob,
            )
        return _ADVANCE, (t, t, r.agent, r.blob, r.account, r.convid, r.owner, r.expected_version)

    @staticmethod
    def _committed(r: base.CommitRequest, t: int, saved: int) -> base.Committed:
        """What the save statement wrote, if it changed a row (``VersionConflict`` if not:
        another save won, or the conversation is gone)."""
        if saved != 1:
            raise VersionConflict.lost(r.convid, r.expected_version)
        return base.Committed(r.convid, r.expected_version + 1, from_micros(t), r.agent)

    def load(self, account: str, convid: str) -> base.StoredState | None:
        row = self._read_one(_LOAD, (account, convid))
        if row is None:
            return None
        return base.StoredState(entry=_entry(row), blob=None if row[10] is None else bytes(row[10]))

    def get_entry(self, account: str, convid: str) -> base.ConversationEntry | None:
        row = self._read_one(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE account = ? AND convid = ?",
            (account, convid),
        )
        return None if row is None else _entry(row)

    def change_entry(self, account: str, convid: str, change: base.EntryChange) -> bool:
        key = (account, convid)
        update = entry_update(
            change, table="entries", placeholder="?", greatest="max", time=to_micros
        )
        if update is None:
            return (
                self._read_one("SELECT 1 FROM entries WHERE account = ? AND convid = ?", key)
                is not None
            )
        sql, params = update
        with self._db.errors():
            return self._db.write_alone(sql, (*params, *key)) == 1

    def replace_blob(
        self, account: str, convid: str, *, expected_version: int, blob: bytes
    ) -> None:
        with self._db.errors():
            replaced = self._db.write_alone(
                "UPDATE entries SET state_version = state_version + 1, blob = ? "
                "WHERE account = ? AND convid = ? AND state_version = ?",
                (blob, account, convid, expected_version),
            )
        if replaced != 1:
            raise VersionConflict.lost(convid, expected_version)

    def _scrub_wal(self) -> None:
        """Copy the WAL into the file and empty it, so deleted rows do not linger in old frames.

        Best effort, and quick: with a reader or writer in the way for more than a moment the
        checkpoint stops short, and the frames are overwritten by later writes instead.
        """
        try:
            self._db.checkpoint_truncate()
        except sqlite3.Error as exc:  # the deletion itself is committed: only report this
            log.warning(
                "SQLite store %s: WAL checkpoint after a deletion failed: %s", self.path, exc
            )

    def delete(self, account: str, convid: str) -> bool:
        deleted = self._delete(account, convid)
        self._scrub_wal()
        return deleted

    def _delete(self, account: str, convid: str) -> bool:
        with self._db.errors(), self._db.write() as conn:
            conn.execute(
                "DELETE FROM idempotency WHERE account = ? AND convid = ?", (account, convid)
            )
            cur = conn.execute(
                "DELETE FROM entries WHERE account = ? AND convid = ?", (account, convid)
            )
            return cur.rowcount == 1

    # -- listing ---------------------------------------------------------------------------------

    def _select(self, sql: str, params: tuple) -> list[base.ConversationEntry]:
        with self._db.errors():
            return [_entry(r) for r in self._db.conn().execute(sql, params).fetchall()]

    def list_pinned(self, account: str, owner: str) -> list[base.ConversationEntry]:
        return self._select(
            f"SELECT {ENTRY_COLUMNS} FROM entries WHERE account = ? AND owner = ? AND pinned = 1 "
            "ORDER BY last_used DESC, convid DESC",
            (account, owner),
        )

    def list_recent(
        self, account: str, owner: str, *, limit: int, cursor: str | None
    ) -> tuple[list[base.ConversationEntry], str | None]:
        def after(position: tuple[int, str] | None, want: int) -> list[base.ConversationEntry]:
            later = "" if position is None else "AND (last_used, convid) < (?, ?) "
            return self._select(
                f"SELECT {ENTRY_COLUMNS} FROM entries WHERE account = ? AND owner = ? "
                f"AND pinned = 0 {later}ORDER BY last_used DESC, convid DESC LIMIT ?",
                (account, owner, *(position or ()), want),
            )

        return recent_page(limit, cursor, after)

    def count_pinned(self, account: str, owner: str) -> int:
        row = self._read_one(
            "SELECT count(*) FROM entries WHERE account = ? AND owner = ? AND pinned = 1",
            (account, owner),
        )
        return int(row[0]) if row else 0

    def iter_entries(self, account: str | None = None) -> Iterator[base.ConversationEntry]:
        # Keyset batches: no statement stays open between yields, so writers are never held up.
        where = "" if account is None else "account = ? AND "
        of_account = () if account is None else (account,)
        position: tuple[str, str] = ("", "")
        while True:
            batch = self._select(
                f"SELECT {ENTRY_COLUMNS} FROM entries WHERE {where}(account, convid) > (?, ?) "
                "ORDER BY account, convid LIMIT ?",
                (*of_account, *position, _BATCH),
            )
            yield from batch
            if len(batch) < _BATCH:
                return
            position = (batch[-1].account, batch[-1].convid)

    # -- idempotency, health ---------------------------------------------------------------------

    def remember(
        self, key: str, record: base.IdempotencyRecord, now: datetime
    ) -> base.IdempotencyRecord | None:
        t = to_micros(now, "now")
        base.check_idempotency_record(record, now)
        expires = to_micros(record.expires, "expires")
        with self._db.errors(), self._db.write() as conn:
            row = conn.execute(_RECALL, (key, t)).fetchone()
            if row is not None:
                return _idempotency_record(row)
            conn.execute(
                "INSERT INTO idempotency VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET "
                "account = excluded.account, convid = excluded.convid, "
                "record = excluded.record, expires = excluded.expires",
                (key, record.account, record.convid, bytes(record.record), expires),
            )
            return None

    def recall(self, key: str, now: datetime) -> base.IdempotencyRecord | None:
        row = self._read_one(_RECALL, (key, to_micros(now, "now")))
        return None if row is None else _idempotency_record(row)

    def forget(self, key: str) -> bool:
        with self._db.errors():
            return self._db.write_alone("DELETE FROM idempotency WHERE key = ?", (key,)) == 1

    def purge_expired(self, now: datetime) -> int:
        t = to_micros(now, "now")
        with self._db.errors():
            removed = self._db.write_alone("DELETE FROM idempotency WHERE expires <= ?", (t,))
        if removed:
            self._scrub_wal()
        return removed

    def check_integrity(self) -> list[str]:
        with self._db.errors():
            conn = self._db.conn()
            problems = [r[0] for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
            for query, what in sqlite_schema.CONSISTENCY_CHECKS:
                problems += [
                    f"conversation {convid!r} of account {account!r}: {what}"
                    for account, convid in conn.execute(query)
                ]
        return problems

    def close(self) -> None:
        self._db.close()
