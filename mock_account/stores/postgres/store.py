"""PostgreSQL conversation store: psycopg 3 with a connection pool, compare-and-swap in SQL.

CAS is a conditional statement: creation is ``INSERT ... ON CONFLICT DO NOTHING`` and an update
is ``UPDATE ... WHERE state_version = %s``; no returned row means someone else saved first. The
row lock the UPDATE takes covers the state write in the same transaction.

The pool checks a connection before lending it (a round trip), so the store recovers by itself
once a restarted server is back, but only when the connection has been idle for a while
(``RECHECK_IDLE_S``) or the server sent it something since (a terminated backend sends its
error, then closes the socket): one in use a moment ago, with nothing to read, is lent as it is.
Checked before every statement, the round trip doubled the time of a save or a restore over a
raw statement on the same server.
"""

from __future__ import annotations

import select
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool

from mock_account.stores import base
from mock_account.stores.codec import from_micros, recent_page, utc
from mock_account.stores.errors import (
    StoreConfigError,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from mock_account.stores.postgres import schema as postgres_schema
from mock_account.stores.sql.entries import ENTRY_COLUMNS, entry_from_row, entry_update

_BATCH = 500
#: A connection idle for longer than this is checked (a round trip) before it is lent again.
RECHECK_IDLE_S = 1.0

_SQL = {
    "create": "INSERT INTO {s}.entries VALUES (%s, %s, %s, %s, %s, %s, %s, %s, false, 1, %s) "
    f"ON CONFLICT DO NOTHING RETURNING {ENTRY_COLUMNS}",
    "advance": "UPDATE {s}.entries SET state_version = state_version + 1, last_executed = %s, "
    "last_used = GREATEST(%s, last_read), last_agent = %s "
    # The owner is checked, but not in a form an index could serve: the plan is the primary key.
    "WHERE account = %s AND convid = %s AND owner || '' = %s AND state_version = %s "
    f"RETURNING {ENTRY_COLUMNS}",
    "bump": "UPDATE {s}.entries SET state_version = state_version + 1 "
    "WHERE account = %s AND convid = %s AND state_version = %s",
    "put_state": "INSERT INTO {s}.states VALUES (%s, %s, %s) "
    "ON CONFLICT (account, convid) DO UPDATE SET blob = excluded.blob",
    "drop_state": "DELETE FROM {s}.states WHERE account = %s AND convid = %s",
    "load": "SELECT "
    + ", ".join(f"e.{c.strip()}" for c in ENTRY_COLUMNS.split(","))
    + ", s.blob FROM {s}.entries e LEFT JOIN {s}.states s "
    "ON s.account = e.account AND s.convid = e.convid WHERE e.account = %s AND e.convid = %s",
    "entry": f"SELECT {ENTRY_COLUMNS} FROM {{s}}.entries WHERE account = %s AND convid = %s",
    "exists": "SELECT 1 FROM {s}.entries WHERE account = %s AND convid = %s",
    "delete": "DELETE FROM {s}.entries WHERE account = %s AND convid = %s",
    "pinned": f"SELECT {ENTRY_COLUMNS} FROM {{s}}.entries WHERE account = %s AND owner = %s "
    "AND pinned ORDER BY last_used DESC, convid DESC",
    "recent": f"SELECT {ENTRY_COLUMNS} FROM {{s}}.entries WHERE account = %s AND owner = %s "
    "AND NOT pinned ORDER BY last_used DESC, convid DESC LIMIT %s",
    "recent_after": f"SELECT {ENTRY_COLUMNS} FROM {{s}}.entries WHERE account = %s AND owner = %s "
    "AND NOT pinned AND (last_used, convid) < (%s, %s) "
    "ORDER BY last_used DESC, convid DESC LIMIT %s",
    "count_pinned": "SELECT count(*) FROM {s}.entries WHERE account = %s AND owner = %s AND pinned",
    "iter": f"SELECT {ENTRY_COLUMNS} FROM {{s}}.entries WHERE (account, convid) > (%s, %s) "
    "ORDER BY account, convid LIMIT %s",
    "iter_account": f"SELECT {ENTRY_COLUMNS} FROM {{s}}.entries WHERE account = %s "
    "AND convid > %s ORDER BY convid LIMIT %s",
    # Insert, or take over a record that expired: the conditional upsert is one atomic step,
    # and no returned row means a live record is kept (read back with "recall").
    "remember": "INSERT INTO {s}.idempotency AS i VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (key) DO UPDATE SET account = excluded.account, convid = excluded.convid, "
    "record = excluded.record, expires = excluded.expires WHERE i.expires <= %s RETURNING 1",
    "recall": "SELECT account, convid, record, expires FROM {s}.idempotency "
    "WHERE key = %s AND expires > %s",
    "forget": "DELETE FROM {s}.idempotency WHERE key = %s",
    "purge": "DELETE FROM {s}.idempotency WHERE expires <= %s",
    "forget_conversation": "DELETE FROM {s}.idempotency WHERE account = %s AND convid = %s",
    "version": "SELECT max(version) FROM {s}.schema_version",
    "stale": "SELECT account, convid FROM {s}.entries "
    "WHERE last_used <> GREATEST(last_executed, last_read)",
    "indexes": "SELECT indexname FROM pg_indexes WHERE schemaname = %s",
}


# A save is one statement: the state write is conditional on the CAS having matched a row, so
# there is no round trip between the check and the write, and no BEGIN / COMMIT (the statement
# is its own transaction). A batch pipelines one such statement per request.
_SAVE_CAS = {"create": _SQL["create"], "advance": _SQL["advance"]}
_SAVE_STATE = {
    "put": "INSERT INTO {s}.states SELECT account, convid, %s FROM saved "
    "ON CONFLICT (account, convid) DO UPDATE SET blob = excluded.blob",
    "drop": "DELETE FROM {s}.states AS s USING saved "
    "WHERE s.account = saved.account AND s.convid = saved.convid",
}
_SQL.update(
    {
        f"save_{cas}_{state}": f"WITH saved AS ({cas_sql}), stored AS ({state_sql}) "
        f"SELECT {ENTRY_COLUMNS} FROM saved"
        for cas, cas_sql in _SAVE_CAS.items()
        for state, state_sql in _SAVE_STATE.items()
    }
)


def _in_utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


def _entry(row: tuple) -> base.ConversationEntry:
    return entry_from_row(row, _in_utc)


def _cas(r: base.CommitRequest, t: datetime) -> tuple[str, tuple]:
    """The compare-and-swap statement of a save and its parameters."""
    if r.expected_version == 0:
        return "create", (r.account, r.convid, r.owner, r.title_if_new, t, t, t, t, r.agent)
    return "advance", (t, t, r.agent, r.account, r.convid, r.owner, r.expected_version)


def _save(r: base.CommitRequest, t: datetime) -> tuple[str, tuple]:
    """The one statement of a save (compare-and-swap and state write) and its parameters."""
    cas, params = _cas(r, t)
    if r.blob is None:
        return f"save_{cas}_drop", params
    return f"save_{cas}_put", (*params, r.blob)


def _filled(outcomes: list[base.CommitOutcome | None]) -> list[base.CommitOutcome]:
    missing = [i for i, o in enumerate(outcomes) if o is None]
    if missing:
        raise AssertionError(f"batch requests {missing} got no outcome")
    return [o for o in outcomes if o is not None]


def _has_input(conn: psycopg.Connection) -> bool:
    """Whether the server sent something to a connection at rest (its end, mostly); no wait."""
    try:
        fd = conn.pgconn.socket
    except psycopg.OperationalError:  # closed already
        return True
    poll = select.poll()
    poll.register(fd, select.POLLIN | select.POLLPRI)
    return bool(poll.poll(0))


class _IdleCheck:
    """The pool's ``check``: a round trip only for a connection not lent for ``idle_s``, or with
    something to read (a connection at rest has nothing to read unless the server ended it).

    The time a connection was last lent stands for its last use (a statement takes
    milliseconds). Not the pool's ``reset`` callback: with one, the pool hands every returned
    connection to a worker thread, which then competes for the interpreter lock with the
    caller's next steps (a restore's decryption took twice as long).
    """

    def __init__(self, idle_s: float) -> None:
        self._idle_s = idle_s
        self._lent: weakref.WeakKeyDictionary[psycopg.Connection, float] = (
            weakref.WeakKeyDictionary()
        )

    def __call__(self, conn: psycopg.Connection) -> None:
        now = time.monotonic()
        lent = self._lent.get(conn)
        if lent is None or now - lent > self._idle_s or _has_input(conn):
            ConnectionPool.check_connection(conn)
        self._lent[conn] = now


def describe(conninfo: str) -> str:
    """``PostgreSQL at host:port/dbname`` for messages: never the password."""
    params = conninfo_to_dict(conninfo)
    host = params.get("host") or params.get("hostaddr") or "localhost"
    return f"PostgreSQL at {host}:{params.get('port') or 5432}/{params.get('dbname') or ''}"


class PostgresStore(base.ConversationStore, base.IdempotencyRecords):
    """A store in one PostgreSQL schema, created and migrated on open."""

    backend = "postgres"

    def __init__(
        self,
        conninfo: str,
        *,
        schema: str = "conversation_store",
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 10.0,
    ) -> None:
        self.schema = postgres_schema.check_schema_name(schema)
        try:
            self.where = describe(conninfo)
        except psycopg.ProgrammingError as exc:
            raise StoreConfigError(f"invalid PostgreSQL URL: {str(exc).strip()}") from exc
        self._password = str(conninfo_to_dict(conninfo).get("password") or "")
        with self._errors():
            with psycopg.connect(conninfo, autocommit=True) as conn:
                postgres_schema.migrate(conn, schema, self.where)
                self._sql = {k: postgres_schema.qualify(v, schema, conn) for k, v in _SQL.items()}
            self._pool = ConnectionPool(
                conninfo,
                min_size=min_size,
                max_size=max_size,
                timeout=timeout,
                kwargs={"autocommit": True},
                check=_IdleCheck(RECHECK_IDLE_S),
                name=f"conversation-store-{schema}",
                open=True,
            )

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(f"{self.where} is unavailable: {self._scrub(exc)}") from exc
        except psycopg.Error as exc:
            raise StoreError(f"{self.where}: {self._scrub(exc)}") from exc

    def _scrub(self, exc: Exception) -> str:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return text.replace(self._password, "***") if self._password else text

    @contextmanager
    def _cursor(self, transaction: bool = False) -> Iterator[psycopg.Cursor]:
        with self._errors(), self._pool.connection() as conn:
            if transaction:
                with conn.transaction(), conn.cursor() as cur:
                    yield cur
            else:
                with conn.cursor() as cur:
                    yield cur

    # -- the seam of the side stores (``mock_account.stores.postgres``'s other modules) --------
    # Their tables are in this schema (``qualify`` names them) and they borrow connections
    # from this pool.

    def cursor(self) -> AbstractContextManager[psycopg.Cursor]:
        """A cursor on a pooled connection in autocommit mode (each statement is its own
        transaction); psycopg errors are translated into store errors."""
        return self._cursor()

    def transaction(self) -> AbstractContextManager[psycopg.Cursor]:
        """A cursor inside one transaction: committed when the block ends, rolled back if it
        raises; psycopg errors are translated into store errors."""
        return self._cursor(transaction=True)

    def qualify(self, text: str) -> str:
        """``text`` with ``{s}`` replaced by this store's quoted schema name."""
        return postgres_schema.qualify(text, self.schema, None)

    def _rows(self, name: str, params: tuple) -> list[tuple]:
        with self._cursor() as cur:
            return cur.execute(self._sql[name], params).fetchall()

    def commit(self, request: base.CommitRequest) -> base.Committed:
        rows = self._rows(*_save(request, utc(request.now, "now")))
        if not rows:
            raise VersionConflict.lost(request.convid, request.expected_version)
        return base.Committed.of(_entry(rows[0]))

    def commit_runs(self, requests: Sequence[base.CommitRequest]) -> list[base.CommitOutcome]:
        """Pipelined batch: one transaction, one round trip, a CAS statement per request.

        A request whose CAS matches no row gets ``VersionConflict`` while the others commit.
        Should a statement fail outright (bad data), the transaction is rolled back and the
        requests are replayed one at a time, so only the faulty one fails.
        """
        outcomes: list[base.CommitOutcome | None] = [None] * len(requests)
        batch: list[tuple[int, str, tuple]] = []
        for i, r in enumerate(requests):
            try:
                t = utc(r.now, "now")
            except (ValueError, TypeError, AttributeError) as exc:  # not a usable time
                outcomes[i] = exc
                continue
            batch.append((i, *_save(r, t)))
        if not batch:
            return _filled(outcomes)
        # Row locks taken in one order by every batch, so that overlapping batches cannot
        # deadlock; the sort is stable, so saves of one conversation keep their order.
        batch.sort(key=lambda item: (requests[item[0]].account, requests[item[0]].convid))
        try:
            with self._errors(), self._pool.connection() as conn:
                cursors = []
                with conn.pipeline(), conn.transaction():
                    for _, name, params in batch:
                        cur = conn.cursor()
                        cur.execute(self._sql[name], params)
                        cursors.append(cur)
                rows = [cur.fetchone() for cur in cursors]
        except StoreUnavailable as exc:
            if not isinstance(exc.__cause__, psycopg.errors.DeadlockDetected):
                raise
            # Rolled back by the server (a writer outside batches locked in another order):
            # nothing was saved, so saving them one at a time is safe.
            return self._one_at_a_time(requests, [i for i, _, _ in batch], outcomes)
        except StoreError:
            # Rolled back as a whole: find the faulty request by saving them one at a time.
            return self._one_at_a_time(requests, [i for i, _, _ in batch], outcomes)
        for (i, _, _), row in zip(batch, rows, strict=True):
            r = requests[i]
            outcomes[i] = (
                VersionConflict.lost(r.convid, r.expected_version)
                if row is None
                else base.Committed.of(_entry(row))
            )
        return _filled(outcomes)

    def _one_at_a_time(
        self,
        requests: Sequence[base.CommitRequest],
        indexes: list[int],
        outcomes: list[base.CommitOutcome | None],
    ) -> list[base.CommitOutcome]:
        replayed = super().commit_runs([requests[i] for i in indexes])
        for i, outcome in zip(indexes, replayed, strict=True):
            outcomes[i] = outcome
        return _filled(outcomes)

    def _put_blob(self, cur: psycopg.Cursor, account: str, convid: str, blob: bytes | None) -> None:
        if blob is None:
            cur.execute(self._sql["drop_state"], (account, convid))
        else:
            cur.execute(self._sql["put_state"], (account, convid, blob))

    def load(self, account: str, convid: str) -> base.StoredState | None:
        rows = self._rows("load", (account, convid))
        if not rows:
            return None
        blob = rows[0][10]
        return base.StoredState(entry=_entry(rows[0]), blob=None if blob is None else bytes(blob))

    def get_entry(self, account: str, convid: str) -> base.ConversationEntry | None:
        rows = self._rows("entry", (account, convid))
        return _entry(rows[0]) if rows else None

    def change_entry(self, account: str, convid: str, change: base.EntryChange) -> bool:
        update = entry_update(
            change, table="{s}.entries", placeholder="%s", greatest="GREATEST", time=utc
        )
        if update is None:
            return bool(self._rows("exists", (account, convid)))
        sql, params = update
        with self._cursor() as cur:
            return cur.execute(self.qualify(sql), (*params, account, convid)).rowcount == 1

    def replace_blob(
        self, account: str, convid: str, *, expected_version: int, blob: bytes
    ) -> None:
        with self._cursor(transaction=True) as cur:
            if cur.execute(self._sql["bump"], (account, convid, expected_version)).rowcount != 1:
                raise VersionConflict.lost(convid, expected_version)
            self._put_blob(cur, account, convid, blob)

    def delete(self, account: str, convid: str) -> bool:
        # The state goes with the entry: ON DELETE CASCADE.
        with self._cursor(transaction=True) as cur:
            cur.execute(self._sql["forget_conversation"], (account, convid))
            return cur.execute(self._sql["delete"], (account, convid)).rowcount == 1

    def list_pinned(self, account: str, owner: str) -> list[base.ConversationEntry]:
        return [_entry(r) for r in self._rows("pinned", (account, owner))]

    def list_recent(
        self, account: str, owner: str, *, limit: int, cursor: str | None
    ) -> tuple[list[base.ConversationEntry], str | None]:
        def after(position: tuple[int, str] | None, want: int) -> list[base.ConversationEntry]:
            if position is None:
                rows = self._rows("recent", (account, owner, want))
            else:
                micros, convid = position
                rows = self._rows(
                    "recent_after", (account, owner, from_micros(micros), convid, want)
                )
            return [_entry(r) for r in rows]

        return recent_page(limit, cursor, after)

    def count_pinned(self, account: str, owner: str) -> int:
        return int(self._rows("count_pinned", (account, owner))[0][0])

    def iter_entries(self, account: str | None = None) -> Iterator[base.ConversationEntry]:
        # Keyset batches: no connection is held between yields.
        position: tuple[str, ...] = ("", "") if account is None else (account, "")
        query = "iter" if account is None else "iter_account"
        while True:
            batch = [_entry(r) for r in self._rows(query, (*position, _BATCH))]
            yield from batch
            if len(batch) < _BATCH:
                return
            last = batch[-1]
            position = (last.account, last.convid) if account is None else (account, last.convid)

    def remember(
        self, key: str, record: base.IdempotencyRecord, now: datetime
    ) -> base.IdempotencyRecord | None:
        t = utc(now, "now")
        base.check_idempotency_record(record, t)
        params = (key, record.account, record.convid, bytes(record.record), record.expires, t)
        while True:
            with self._cursor() as cur:
                if cur.execute(self._sql["remember"], params).fetchone():
                    return None
            kept = self.recall(key, t)
            if kept is not None:
                return kept
            # Expired or forgotten between the two statements: try again.

    def recall(self, key: str, now: datetime) -> base.IdempotencyRecord | None:
        rows = self._rows("recall", (key, utc(now, "now")))
        if not rows:
            return None
        account, convid, record, expires = rows[0]
        return base.IdempotencyRecord(account, convid, bytes(record), expires.astimezone(UTC))

    def forget(self, key: str) -> bool:
        with self._cursor() as cur:
            return cur.execute(self._sql["forget"], (key,)).rowcount == 1

    def purge_expired(self, now: datetime) -> int:
        with self._cursor() as cur:
            return cur.execute(self._sql["purge"], (utc(now, "now"),)).rowcount

    def check_integrity(self) -> list[str]:
        problems: list[str] = []
        version = self._rows("version", ())[0][0]
        if version != postgres_schema.LATEST:
            problems.append(f"schema version is {version}, expected {postgres_schema.LATEST}")
        indexes = {r[0] for r in self._rows("indexes", (self.schema,))}
        if "entries_by_user" not in indexes:
            problems.append("index entries_by_user is missing")
        problems += [
            f"conversation {convid!r} of account {account!r}: stale last_used"
            for account, convid in self._rows("stale", ())
        ]
        return problems

    def close(self) -> None:
        if hasattr(self, "_pool"):
            self._pool.close()
