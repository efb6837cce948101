"""The backends of the workflow records (contract: ``mock_account.stores.workflow_records``).

They live next to the conversation store they are opened from (same SQLite file, same
PostgreSQL schema, same Redis prefix): ``open_workflow_store(store)``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import quote, unquote

from mock_account.stores import ConversationStore, StoreError, VersionConflict
from mock_account.stores.batching import BatchingStore
from mock_account.stores.codec import from_micros, to_micros, utc
from mock_account.stores.workflow_records import (
    ActionRecord,
    OutboxRecord,
    ProgressRecord,
    WorkflowStore,
    check_names,
)

if TYPE_CHECKING:  # types only: SQLite alone never loads psycopg or redis-py
    from mock_account.stores.postgres import PostgresStore
    from mock_account.stores.redis import RedisStore
    from mock_account.stores.sqlite import SqliteStore

# --------------------------------------------------------------------------- memory


class MemoryWorkflowStore(WorkflowStore):
    """In-process records (tests, ``memory://``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._progress: dict[tuple[str, str, str], ProgressRecord] = {}
        self._actions: dict[tuple[str, str], ActionRecord] = {}
        self._outbox: dict[tuple[str, str], OutboxRecord] = {}

    def load_progress(self, account: str, identity: str, workflow: str) -> ProgressRecord | None:
        with self._lock:
            return self._progress.get((account, identity, workflow))

    def save_progress(
        self,
        account: str,
        identity: str,
        workflow: str,
        *,
        expected_version: int,
        blob: bytes,
        now: datetime,
    ) -> ProgressRecord:
        check_names(account=account, identity=identity, workflow=workflow)
        key = (account, identity, workflow)
        with self._lock:
            current = self._progress.get(key)
            if (current.version if current else 0) != expected_version:
                raise VersionConflict(
                    f"workflow {workflow!r} progress is no longer at version {expected_version}"
                )
            record = ProgressRecord(
                account, identity, workflow, expected_version + 1, bytes(blob), utc(now)
            )
            self._progress[key] = record
            return record

    def list_progress(self, account: str, identity: str) -> list[ProgressRecord]:
        with self._lock:
            found = [r for k, r in self._progress.items() if k[:2] == (account, identity)]
        return sorted(found, key=lambda r: r.workflow)

    def add_action(
        self, account: str, action_id: str, identity: str, status: str, blob: bytes, now: datetime
    ) -> tuple[ActionRecord, bool]:
        check_names(account=account, action_id=action_id, identity=identity, status=status)
        with self._lock:
            current = self._actions.get((account, action_id))
            if current is not None:
                return current, False
            t = utc(now)
            record = ActionRecord(account, action_id, identity, status, bytes(blob), t, t)
            self._actions[(account, action_id)] = record
            return record, True

    def get_action(self, account: str, action_id: str) -> ActionRecord | None:
        with self._lock:
            return self._actions.get((account, action_id))

    def move_action(
        self,
        account: str,
        action_id: str,
        *,
        from_statuses: Iterable[str],
        to_status: str,
        now: datetime,
        blob: bytes | None = None,
    ) -> ActionRecord | None:
        allowed = set(from_statuses)
        with self._lock:
            current = self._actions.get((account, action_id))
            if current is None or current.status not in allowed:
                return None
            record = replace(
                current,
                status=to_status,
                updated=utc(now),
                blob=current.blob if blob is None else bytes(blob),
            )
            self._actions[(account, action_id)] = record
            return record

    def list_actions(
        self, account: str, identity: str | None = None, statuses: Iterable[str] | None = None
    ) -> list[ActionRecord]:
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
        check_names(account=account, action_id=action_id, identity=identity)
        with self._lock:
            if (account, action_id) in self._outbox:
                return False
            self._outbox[(account, action_id)] = OutboxRecord(
                account, action_id, identity, bytes(blob), utc(now)
            )
            return True

    def list_outbox(self, account: str, identity: str | None = None) -> list[OutboxRecord]:
        with self._lock:
            found = [
                r
                for r in self._outbox.values()
                if r.account == account and (identity is None or r.identity == identity)
            ]
        return sorted(found, key=lambda r: (r.delivered, r.action_id), reverse=True)

    def all_progress(self) -> list[ProgressRecord]:
        with self._lock:
            return list(self._progress.values())

    def all_actions(self) -> list[ActionRecord]:
        with self._lock:
            return list(self._actions.values())

    def all_outbox(self) -> list[OutboxRecord]:
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
        check_names(account=account, identity=identity)
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


# --------------------------------------------------------------------------- SQL (shared)


class _SqlWorkflowStore(WorkflowStore):
    """The SQL of SQLite and PostgreSQL; subclasses give the placeholders and the connections."""

    P = "?"

    def __init__(self, tables: dict[str, str]) -> None:
        self._t = tables

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        """A write transaction's cursor-like object with ``execute`` returning rows."""
        raise NotImplementedError
        yield

    def _query(self, sql: str, params: tuple) -> list[tuple]:
        raise NotImplementedError

    def _time(self, value: datetime) -> Any:
        return to_micros(value)

    def _from_time(self, value: Any) -> datetime:
        return from_micros(value)

    def _sql(self, text: str) -> str:
        return text.format(**self._t).replace("?", self.P)

    def _progress(self, row: tuple) -> ProgressRecord:
        return ProgressRecord(
            row[0], row[1], row[2], int(row[3]), bytes(row[4]), self._from_time(row[5])
        )

    def _action(self, row: tuple) -> ActionRecord:
        return ActionRecord(
            row[0],
            row[1],
            row[2],
            row[3],
            bytes(row[4]),
            self._from_time(row[5]),
            self._from_time(row[6]),
        )

    def _outbox(self, row: tuple) -> OutboxRecord:
        return OutboxRecord(row[0], row[1], row[2], bytes(row[3]), self._from_time(row[4]))

    _PROGRESS = "account, identity, workflow, version, blob, updated"
    _ACTION = "account, action_id, identity, status, blob, created, updated"
    _OUTBOX = "account, action_id, identity, blob, delivered"

    def load_progress(self, account: str, identity: str, workflow: str) -> ProgressRecord | None:
        rows = self._query(
            self._sql(
                f"SELECT {self._PROGRESS} FROM {{progress}} "
                "WHERE account = ? AND identity = ? AND workflow = ?"
            ),
            (account, identity, workflow),
        )
        return self._progress(rows[0]) if rows else None

    def save_progress(
        self,
        account: str,
        identity: str,
        workflow: str,
        *,
        expected_version: int,
        blob: bytes,
        now: datetime,
    ) -> ProgressRecord:
        check_names(account=account, identity=identity, workflow=workflow)
        t = self._time(now)
        if expected_version == 0:
            sql = self._sql(
                "INSERT INTO {progress} VALUES (?, ?, ?, 1, ?, ?) "
                f"ON CONFLICT DO NOTHING RETURNING {self._PROGRESS}"
            )
            params: tuple = (account, identity, workflow, bytes(blob), t)
        else:
            sql = self._sql(
                "UPDATE {progress} SET version = version + 1, blob = ?, updated = ? "
                "WHERE account = ? AND identity = ? AND workflow = ? AND version = ? "
                f"RETURNING {self._PROGRESS}"
            )
            params = (bytes(blob), t, account, identity, workflow, expected_version)
        with self._tx() as tx:
            rows = tx(sql, params)
        if not rows:
            raise VersionConflict(
                f"workflow {workflow!r} progress is no longer at version {expected_version}"
            )
        return self._progress(rows[0])

    def list_progress(self, account: str, identity: str) -> list[ProgressRecord]:
        rows = self._query(
            self._sql(
                f"SELECT {self._PROGRESS} FROM {{progress}} WHERE account = ? AND identity = ? "
                "ORDER BY workflow"
            ),
            (account, identity),
        )
        return [self._progress(r) for r in rows]

    def add_action(
        self, account: str, action_id: str, identity: str, status: str, blob: bytes, now: datetime
    ) -> tuple[ActionRecord, bool]:
        check_names(account=account, action_id=action_id, identity=identity, status=status)
        t = self._time(now)
        with self._tx() as tx:
            rows = tx(
                self._sql(
                    "INSERT INTO {actions} VALUES (?, ?, ?, ?, ?, ?, ?) "
                    f"ON CONFLICT DO NOTHING RETURNING {self._ACTION}"
                ),
                (account, action_id, identity, status, bytes(blob), t, t),
            )
            if rows:
                return self._action(rows[0]), True
            rows = tx(
                self._sql(
                    f"SELECT {self._ACTION} FROM {{actions}} WHERE account = ? AND action_id = ?"
                ),
                (account, action_id),
            )
            return self._action(rows[0]), False

    def get_action(self, account: str, action_id: str) -> ActionRecord | None:
        rows = self._query(
            self._sql(
                f"SELECT {self._ACTION} FROM {{actions}} WHERE account = ? AND action_id = ?"
            ),
            (account, action_id),
        )
        return self._action(rows[0]) if rows else None

    def move_action(
        self,
        account: str,
        action_id: str,
        *,
        from_statuses: Iterable[str],
        to_status: str,
        now: datetime,
        blob: bytes | None = None,
    ) -> ActionRecord | None:
        allowed = list(from_statuses)
        if not allowed:
            return None
        marks = ", ".join("?" for _ in allowed)
        with self._tx() as tx:
            rows = tx(
                self._sql(
                    "UPDATE {actions} SET status = ?, updated = ?, blob = COALESCE(?, blob) "
                    f"WHERE account = ? AND action_id = ? AND status IN ({marks}) "
                    f"RETURNING {self._ACTION}"
                ),
                (
                    to_status,
                    self._time(now),
                    None if blob is None else bytes(blob),
                    account,
                    action_id,
                    *allowed,
                ),
            )
        return self._action(rows[0]) if rows else None

    def list_actions(
        self, account: str, identity: str | None = None, statuses: Iterable[str] | None = None
    ) -> list[ActionRecord]:
        where, params = ["account = ?"], [account]
        if identity is not None:
            where.append("identity = ?")
            params.append(identity)
        if statuses is not None:
            wanted = list(statuses)
            if not wanted:
                return []
            where.append(f"status IN ({', '.join('?' for _ in wanted)})")
            params.extend(wanted)
        rows = self._query(
            self._sql(
                f"SELECT {self._ACTION} FROM {{actions}} WHERE {' AND '.join(where)} "
                "ORDER BY created DESC, action_id DESC"
            ),
            tuple(params),
        )
        return [self._action(r) for r in rows]

    def deliver(
        self, account: str, action_id: str, identity: str, blob: bytes, now: datetime
    ) -> bool:
        check_names(account=account, action_id=action_id, identity=identity)
        with self._tx() as tx:
            rows = tx(
                self._sql(
                    "INSERT INTO {outbox} VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING RETURNING action_id"
                ),
                (account, action_id, identity, bytes(blob), self._time(now)),
            )
        return bool(rows)

    def list_outbox(self, account: str, identity: str | None = None) -> list[OutboxRecord]:
        where, params = "account = ?", [account]
        if identity is not None:
            where += " AND identity = ?"
            params.append(identity)
        rows = self._query(
            self._sql(
                f"SELECT {self._OUTBOX} FROM {{outbox}} WHERE {where} "
                "ORDER BY delivered DESC, action_id DESC"
            ),
            tuple(params),
        )
        return [self._outbox(r) for r in rows]

    def all_progress(self) -> list[ProgressRecord]:
        rows = self._query(self._sql(f"SELECT {self._PROGRESS} FROM {{progress}}"), ())
        return [self._progress(r) for r in rows]

    def all_actions(self) -> list[ActionRecord]:
        rows = self._query(self._sql(f"SELECT {self._ACTION} FROM {{actions}}"), ())
        return [self._action(r) for r in rows]

    def all_outbox(self) -> list[OutboxRecord]:
        rows = self._query(self._sql(f"SELECT {self._OUTBOX} FROM {{outbox}}"), ())
        return [self._outbox(r) for r in rows]

    def replace_outbox_blob(self, account: str, action_id: str, blob: bytes) -> bool:
        with self._tx() as tx:
            rows = tx(
                self._sql(
                    "UPDATE {outbox} SET blob = ? WHERE account = ? AND action_id = ? "
                    "RETURNING action_id"
                ),
                (bytes(blob), account, action_id),
            )
        return bool(rows)

    def forget_identity(self, account: str, identity: str) -> int:
        check_names(account=account, identity=identity)
        removed = 0
        with self._tx() as tx:  # one transaction: all of the identity's records or none
            for table in ("progress", "actions", "outbox"):
                rows = tx(
                    self._sql(
                        f"DELETE FROM {{{table}}} WHERE account = ? AND identity = ? RETURNING 1"
                    ),
                    (account, identity),
                )
                removed += len(rows)
        return removed


class SqliteWorkflowStore(_SqlWorkflowStore):
    """The tables of migration 3 in the conversation store's SQLite file, on its connections."""

    def __init__(self, store: SqliteStore) -> None:
        super().__init__(
            {"progress": "workflow_progress", "actions": "actions", "outbox": "outbox"}
        )
        self._store = store  # the same per-thread connections and process write lock

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        with self._store.transaction() as conn:
            yield lambda sql, params: conn.execute(sql, params).fetchall()

    def _query(self, sql: str, params: tuple) -> list[tuple]:
        return self._store.read(sql, params)


class PostgresWorkflowStore(_SqlWorkflowStore):
    """The tables of migration 3 in the conversation store's PostgreSQL schema, on its pool."""

    P = "%s"

    def __init__(self, store: PostgresStore) -> None:
        from psycopg import sql as pgsql

        def name(table: str) -> str:
            return pgsql.Identifier(store.schema, table).as_string(None)

        super().__init__(
            {
                "progress": name("workflow_progress"),
                "actions": name("actions"),
                "outbox": name("outbox"),
            }
        )
        self._store = store

    def _time(self, value: datetime) -> Any:
        return utc(value)

    def _from_time(self, value: Any) -> datetime:
        return value.astimezone(UTC)

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        with self._store.transaction() as cur:
            yield lambda sql, params: cur.execute(sql, params).fetchall()

    def _query(self, sql: str, params: tuple) -> list[tuple]:
        with self._store.cursor() as cur:
            return cur.execute(sql, params).fetchall()


# --------------------------------------------------------------------------- Redis

_SAVE_PROGRESS = """
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if current ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'version', current + 1, 'blob', ARGV[2], 'updated', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[4])
return current + 1
"""
_ADD_ACTION = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'identity', ARGV[1], 'status', ARGV[2], 'blob', ARGV[3],
           'created', ARGV[4], 'updated', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
return 1
"""
_MOVE_ACTION = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return 0 end
for i = 4, #ARGV do
  if ARGV[i] == status then
    redis.call('HSET', KEYS[1], 'status', ARGV[1], 'updated', ARGV[2])
    if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'blob', ARGV[3]) end
    return 1
  end
end
return 0
"""
_FORGET_IDENTITY = """
local function q(s)
  return (string.gsub(s, '[^%w%-%._~]', function(c)
    return string.format('%%%02X', string.byte(c))
  end))
end
local identity, base = ARGV[1], ARGV[2]
local removed = 0
for _, workflow in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  removed = removed + redis.call('DEL', base .. ':progress:' .. q(identity) .. ':' .. q(workflow))
end
redis.call('DEL', KEYS[1])
for _, index in ipairs({{KEYS[2], ':action:'}, {KEYS[3], ':out:'}}) do
  for _, id in ipairs(redis.call('ZRANGE', index[1], 0, -1)) do
    local key = base .. index[2] .. q(id)
    if redis.call('HGET', key, 'identity') == identity then
      removed = removed + redis.call('DEL', key)
      redis.call('ZREM', index[1], id)
    end
  end
end
return removed
"""
_DELIVER = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'identity', ARGV[1], 'blob', ARGV[2], 'delivered', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1
"""


class RedisWorkflowStore(WorkflowStore):
    """Hashes under the conversation store's prefix; each write is one Lua script (atomic).

    Every key of one account shares the hash tag ``{account}``, so a script's keys are in one
    slot. Blobs are encrypted before they get here (an empty blob is never written).
    """

    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self._redis = store.client
        self._prefix = store.prefix
        self._scripts = {
            name: self._redis.register_script(code)
            for name, code in (
                ("save", _SAVE_PROGRESS),
                ("add", _ADD_ACTION),
                ("move", _MOVE_ACTION),
                ("deliver", _DELIVER),
                ("forget", _FORGET_IDENTITY),
            )
        }

    def _k(self, account: str, *parts: str) -> str:
        return ":".join(
            [f"{self._prefix}:wf:{{{quote(account, safe='')}}}"]
            + [quote(p, safe="") for p in parts]
        )

    @contextmanager
    def _errors(self) -> Iterator[None]:
        with self._store.errors():
            yield

    def load_progress(self, account: str, identity: str, workflow: str) -> ProgressRecord | None:
        with self._errors():
            fields = self._redis.hgetall(self._k(account, "progress", identity, workflow))
        if not fields:
            return None
        return ProgressRecord(
            account,
            identity,
            workflow,
            int(fields[b"version"]),
            fields[b"blob"],
            from_micros(int(fields[b"updated"])),
        )

    def save_progress(
        self,
        account: str,
        identity: str,
        workflow: str,
        *,
        expected_version: int,
        blob: bytes,
        now: datetime,
    ) -> ProgressRecord:
        check_names(account=account, identity=identity, workflow=workflow)
        t = to_micros(now)
        with self._errors():
            version = self._scripts["save"](
                keys=[
                    self._k(account, "progress", identity, workflow),
                    self._k(account, "workflows", identity),
                ],
                args=[expected_version, bytes(blob), t, workflow],
            )
        if int(version) < 0:
            raise VersionConflict(
                f"workflow {workflow!r} progress is no longer at version {expected_version}"
            )
        return ProgressRecord(account, identity, workflow, int(version), bytes(blob), utc(now))

    def list_progress(self, account: str, identity: str) -> list[ProgressRecord]:
        with self._errors():
            names = sorted(
                m.decode() for m in self._redis.smembers(self._k(account, "workflows", identity))
            )
        found = [self.load_progress(account, identity, name) for name in names]
        return [r for r in found if r is not None]

    def _action_of(self, account: str, action_id: str, fields: dict) -> ActionRecord:
        return ActionRecord(
            account,
            action_id,
            fields[b"identity"].decode(),
            fields[b"status"].decode(),
            fields[b"blob"],
            from_micros(int(fields[b"created"])),
            from_micros(int(fields[b"updated"])),
        )

    def add_action(
        self, account: str, action_id: str, identity: str, status: str, blob: bytes, now: datetime
    ) -> tuple[ActionRecord, bool]:
        check_names(account=account, action_id=action_id, identity=identity, status=status)
        with self._errors():
            created = self._scripts["add"](
                keys=[self._k(account, "action", action_id), self._k(account, "actions")],
                args=[identity, status, bytes(blob), to_micros(now), action_id],
            )
        record = self.get_action(account, action_id)
        if record is None:
            raise StoreError(f"action {action_id!r} vanished right after it was written")
        return record, bool(int(created))

    def get_action(self, account: str, action_id: str) -> ActionRecord | None:
        with self._errors():
            fields = self._redis.hgetall(self._k(account, "action", action_id))
        return self._action_of(account, action_id, fields) if fields else None

    def move_action(
        self,
        account: str,
        action_id: str,
        *,
        from_statuses: Iterable[str],
        to_status: str,
        now: datetime,
        blob: bytes | None = None,
    ) -> ActionRecord | None:
        allowed = list(from_statuses)
        if not allowed:
            return None
        with self._errors():
            moved = self._scripts["move"](
                keys=[self._k(account, "action", action_id)],
                args=[to_status, to_micros(now), b"" if blob is None else bytes(blob), *allowed],
            )
        return self.get_action(account, action_id) if int(moved) else None

    def list_actions(
        self, account: str, identity: str | None = None, statuses: Iterable[str] | None = None
    ) -> list[ActionRecord]:
        wanted = None if statuses is None else set(statuses)
        with self._errors():
            ids = [m.decode() for m in self._redis.zrevrange(self._k(account, "actions"), 0, -1)]
        found = []
        for action_id in ids:
            record = self.get_action(account, action_id)
            if record is None:
                continue
            if identity is not None and record.identity != identity:
                continue
            if wanted is not None and record.status not in wanted:
                continue
            found.append(record)
        return sorted(found, key=lambda r: (r.created, r.action_id), reverse=True)

    def deliver(
        self, account: str, action_id: str, identity: str, blob: bytes, now: datetime
    ) -> bool:
        check_names(account=account, action_id=action_id, identity=identity)
        with self._errors():
            created = self._scripts["deliver"](
                keys=[self._k(account, "out", action_id), self._k(account, "outbox")],
                args=[identity, bytes(blob), to_micros(now), action_id],
            )
        return bool(int(created))

    def list_outbox(self, account: str, identity: str | None = None) -> list[OutboxRecord]:
        with self._errors():
            ids = [m.decode() for m in self._redis.zrevrange(self._k(account, "outbox"), 0, -1)]
            found = []
            for action_id in ids:
                fields = self._redis.hgetall(self._k(account, "out", action_id))
                if not fields or (
                    identity is not None and fields[b"identity"].decode() != identity
                ):
                    continue
                found.append(
                    OutboxRecord(
                        account,
                        action_id,
                        fields[b"identity"].decode(),
                        fields[b"blob"],
                        from_micros(int(fields[b"delivered"])),
                    )
                )
        return sorted(found, key=lambda r: (r.delivered, r.action_id), reverse=True)

    def _accounts(self) -> list[str]:
        """Every account with workflow records (from the keys of their indexes)."""
        found: set[str] = set()
        with self._errors():
            for pattern in (f"{self._prefix}:wf:*:actions", f"{self._prefix}:wf:*:outbox"):
                for key in self._redis.scan_iter(match=pattern, count=500):
                    found.add(unquote(key.decode().split("{", 1)[1].split("}", 1)[0]))
            for key in self._redis.scan_iter(match=f"{self._prefix}:wf:*:workflows:*", count=500):
                found.add(unquote(key.decode().split("{", 1)[1].split("}", 1)[0]))
        return sorted(found)

    def all_progress(self) -> list[ProgressRecord]:
        found: list[ProgressRecord] = []
        for account in self._accounts():
            with self._errors():
                keys = list(
                    self._redis.scan_iter(match=self._k(account, "workflows") + ":*", count=500)
                )
            for key in keys:
                identity = unquote(key.decode().rsplit(":", 1)[1])
                found.extend(self.list_progress(account, identity))
        return found

    def all_actions(self) -> list[ActionRecord]:
        return [r for account in self._accounts() for r in self.list_actions(account)]

    def all_outbox(self) -> list[OutboxRecord]:
        return [r for account in self._accounts() for r in self.list_outbox(account)]

    def replace_outbox_blob(self, account: str, action_id: str, blob: bytes) -> bool:
        key = self._k(account, "out", action_id)
        with self._errors():
            if not self._redis.exists(key):
                return False
            self._redis.hset(key, "blob", bytes(blob))
        return True

    def forget_identity(self, account: str, identity: str) -> int:
        """One script (atomic): the identity's progress keys from its set of workflows, and
        its actions and outbox records found by reading the account's two indexes (the keys
        are built in the script with the same quoting as ``_k``, all under the account's tag)."""
        check_names(account=account, identity=identity)
        with self._errors():
            removed = self._scripts["forget"](
                keys=[
                    self._k(account, "workflows", identity),
                    self._k(account, "actions"),
                    self._k(account, "outbox"),
                ],
                args=[identity, self._k(account)],
            )
        return int(removed)


def open_workflow_store(store: ConversationStore) -> WorkflowStore:
    """The workflow records kept next to ``store`` (same file, schema or prefix)."""
    inner = store.inner if isinstance(store, BatchingStore) else store
    if inner.backend == "memory":
        return MemoryWorkflowStore()
    if inner.backend == "sqlite":
        return SqliteWorkflowStore(cast("SqliteStore", inner))
    if inner.backend == "postgres":
        return PostgresWorkflowStore(cast("PostgresStore", inner))
    if inner.backend == "redis":
        return RedisWorkflowStore(cast("RedisStore", inner))
    raise StoreError(f"workflows are not kept in a {type(inner).__name__}")
