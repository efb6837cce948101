"""Configuration versions in SQLite and PostgreSQL, next to the conversations.

They use the conversation store's connections (its file or its pool), and the tables of its
schema migration 3. A commit is one transaction: the agent's revision is read under the write
lock (SQLite's ``BEGIN IMMEDIATE``; PostgreSQL's row lock, ``FOR UPDATE``), checked, raised,
and the versions written and pruned before ``COMMIT``.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from mock_account.stores.codec import from_micros, to_micros, utc
from mock_account.stores.config_versions import (
    ACCOUNT_ROW,
    ConfigVersionStore,
    NewVersion,
    StoredVersion,
    check_commit,
    conflict,
)

if TYPE_CHECKING:  # types only: SQLite alone never loads psycopg
    from mock_account.stores.postgres import PostgresStore
    from mock_account.stores.sqlite import SqliteStore

_VERSION_COLUMNS = "agent, section, revision, created, origin, blob"


class SqliteConfigStore(ConfigVersionStore):
    """Versions in the conversation store's SQLite file."""

    def __init__(self, conversation_store: SqliteStore) -> None:
        self._store = conversation_store
        # Replaced (a new file) after every commit, by any process: its identity is the
        # change stamp, a stat instead of a query that waits on the database's locks.
        path = conversation_store.path
        self._stamp_file = Path(f"{path}.config-stamp") if isinstance(path, Path) else None

    def _version(self, row: tuple) -> StoredVersion:
        return StoredVersion(
            row[0], row[1], int(row[2]), from_micros(row[3]), row[4], bytes(row[5])
        )

    def change_stamp(self, scope: str) -> object | None:
        if self._stamp_file is None:
            return None
        try:
            found = os.stat(self._stamp_file)
        except FileNotFoundError:
            return "none"  # no save yet (or none since the file was removed)
        except OSError:
            return None
        return (found.st_ino, found.st_mtime_ns, found.st_size)

    def _stamp(self) -> None:
        if self._stamp_file is None:
            return
        temporary = self._stamp_file.with_name(f"{self._stamp_file.name}.{uuid.uuid4().hex}")
        try:
            temporary.write_text(uuid.uuid4().hex)
            os.replace(temporary, self._stamp_file)
        except OSError:
            # Other processes then see the save within ConfigHistory's recheck interval.
            temporary.unlink(missing_ok=True)

    def scope_revision(self, scope: str) -> int:
        rows = self._store.read(
            "SELECT revision FROM config_heads WHERE scope = ? AND agent = ?", (scope, ACCOUNT_ROW)
        )
        return int(rows[0][0]) if rows else 0

    def agent_revisions(self, scope: str) -> dict[str, int]:
        rows = self._store.read(
            "SELECT agent, revision FROM config_heads WHERE scope = ? AND agent != ?",
            (scope, ACCOUNT_ROW),
        )
        return {agent: int(revision) for agent, revision in rows}

    def commit(
        self,
        scope: str,
        agent: str,
        base_revision: int,
        versions: Sequence[NewVersion],
        *,
        now: datetime,
        keep: int,
    ) -> int:
        check_commit(keep, versions)
        created = to_micros(utc(now, "now"))
        with self._store.transaction() as conn:
            row = conn.execute(
                "SELECT revision FROM config_heads WHERE scope = ? AND agent = ?", (scope, agent)
            ).fetchone()
            if (int(row[0]) if row else 0) != base_revision:
                raise conflict(agent, base_revision)
            revision = base_revision + 1
            bump = (
                "INSERT INTO config_heads VALUES (?, ?, ?) ON CONFLICT (scope, agent) "
                "DO UPDATE SET revision = {}"
            )
            conn.execute(bump.format("excluded.revision"), (scope, agent, revision))
            conn.execute(bump.format("revision + 1"), (scope, ACCOUNT_ROW, 1))
            conn.executemany(
                "INSERT INTO config_versions VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (scope, agent, v.section, v.revision, created, v.origin, v.blob)
                    for v in versions
                ],
            )
            conn.executemany(
                "DELETE FROM config_versions WHERE scope = ? AND agent = ? AND section = ? "
                "AND revision NOT IN (SELECT revision FROM config_versions WHERE scope = ? "
                "AND agent = ? AND section = ? ORDER BY revision DESC LIMIT ?)",
                [
                    (scope, agent, section, scope, agent, section, keep)
                    for section in {v.section for v in versions}
                ],
            )
        self._stamp()
        return revision

    def history(self, scope: str, agent: str, section: str) -> list[StoredVersion]:
        rows = self._store.read(
            f"SELECT {_VERSION_COLUMNS} FROM config_versions WHERE scope = ? "
            "AND agent = ? AND section = ? ORDER BY revision DESC",
            (scope, agent, section),
        )
        return [self._version(row) for row in rows]

    def latest(self, scope: str) -> list[StoredVersion]:
        rows = self._store.read(
            f"SELECT {_VERSION_COLUMNS} FROM config_versions v WHERE scope = ? "
            "AND revision = (SELECT max(revision) FROM config_versions w "
            "WHERE w.scope = v.scope AND w.agent = v.agent AND w.section = v.section) "
            "ORDER BY agent, section",
            (scope,),
        )
        return [self._version(row) for row in rows]

    def all_versions(self, scope: str) -> list[StoredVersion]:
        rows = self._store.read(
            f"SELECT {_VERSION_COLUMNS} FROM config_versions WHERE scope = ? "
            "ORDER BY agent, section, revision",
            (scope,),
        )
        return [self._version(row) for row in rows]

    def replace_blob(
        self, scope: str, agent: str, section: str, revision: int, old: bytes, new: bytes
    ) -> bool:
        with self._store.transaction() as conn:
            done = conn.execute(
                "UPDATE config_versions SET blob = ? WHERE scope = ? AND agent = ? "
                "AND section = ? AND revision = ? AND blob = ?",
                (new, scope, agent, section, revision, old),
            )
            return done.rowcount == 1


_PG_SQL = {
    "scope": "SELECT revision FROM {s}.config_heads WHERE scope = %s AND agent = %s",
    "agents": "SELECT agent, revision FROM {s}.config_heads WHERE scope = %s AND agent <> %s",
    "ensure": "INSERT INTO {s}.config_heads VALUES (%s, %s, 0) ON CONFLICT DO NOTHING",
    "lock": "SELECT revision FROM {s}.config_heads WHERE scope = %s AND agent = %s FOR UPDATE",
    "set": "UPDATE {s}.config_heads SET revision = %s WHERE scope = %s AND agent = %s",
    "bump_scope": "INSERT INTO {s}.config_heads VALUES (%s, %s, 1) ON CONFLICT (scope, agent) "
    "DO UPDATE SET revision = {s}.config_heads.revision + 1",
    "insert": "INSERT INTO {s}.config_versions VALUES (%s, %s, %s, %s, %s, %s, %s)",
    "prune": "DELETE FROM {s}.config_versions WHERE scope = %s AND agent = %s AND section = %s "
    "AND revision NOT IN (SELECT revision FROM {s}.config_versions WHERE scope = %s "
    "AND agent = %s AND section = %s ORDER BY revision DESC LIMIT %s)",
    "history": f"SELECT {_VERSION_COLUMNS} FROM {{s}}.config_versions WHERE scope = %s "
    "AND agent = %s AND section = %s ORDER BY revision DESC",
    "all": f"SELECT {_VERSION_COLUMNS} FROM {{s}}.config_versions WHERE scope = %s "
    "ORDER BY agent, section, revision",
    "replace": "UPDATE {s}.config_versions SET blob = %s WHERE scope = %s AND agent = %s "
    "AND section = %s AND revision = %s AND blob = %s",
    "latest": f"SELECT DISTINCT ON (agent, section) {_VERSION_COLUMNS} "
    "FROM {s}.config_versions WHERE scope = %s ORDER BY agent, section, revision DESC",
}


class PostgresConfigStore(ConfigVersionStore):
    """Versions in the conversation store's PostgreSQL schema, through its pool."""

    def __init__(self, conversation_store: PostgresStore) -> None:
        from mock_account.stores.postgres.schema import qualify

        self._store = conversation_store
        with conversation_store.cursor() as cur:
            self._sql = {
                k: qualify(v, conversation_store.schema, cur.connection) for k, v in _PG_SQL.items()
            }

    @staticmethod
    def _version(row: tuple) -> StoredVersion:
        return StoredVersion(
            row[0], row[1], int(row[2]), row[3].astimezone(UTC), row[4], bytes(row[5])
        )

    def _rows(self, statement: str, params: tuple) -> list[tuple]:
        with self._store.cursor() as cur:
            return cur.execute(statement, params).fetchall()

    def scope_revision(self, scope: str) -> int:
        rows = self._rows(self._sql["scope"], (scope, ACCOUNT_ROW))
        return int(rows[0][0]) if rows else 0

    def agent_revisions(self, scope: str) -> dict[str, int]:
        rows = self._rows(self._sql["agents"], (scope, ACCOUNT_ROW))
        return {agent: int(revision) for agent, revision in rows}

    def commit(
        self,
        scope: str,
        agent: str,
        base_revision: int,
        versions: Sequence[NewVersion],
        *,
        now: datetime,
        keep: int,
    ) -> int:
        check_commit(keep, versions)
        created = utc(now, "now")
        sql = self._sql
        with self._store.transaction() as cur:
            cur.execute(sql["ensure"], (scope, agent))
            (current,) = cur.execute(sql["lock"], (scope, agent)).fetchone()
            if int(current) != base_revision:
                raise conflict(agent, base_revision)
            revision = base_revision + 1
            cur.execute(sql["set"], (revision, scope, agent))
            cur.execute(sql["bump_scope"], (scope, ACCOUNT_ROW))
            cur.executemany(
                sql["insert"],
                [
                    (scope, agent, v.section, v.revision, created, v.origin, v.blob)
                    for v in versions
                ],
            )
            cur.executemany(
                sql["prune"],
                [
                    (scope, agent, section, scope, agent, section, keep)
                    for section in {v.section for v in versions}
                ],
            )
        return revision

    def history(self, scope: str, agent: str, section: str) -> list[StoredVersion]:
        rows = self._rows(self._sql["history"], (scope, agent, section))
        return [self._version(row) for row in rows]

    def latest(self, scope: str) -> list[StoredVersion]:
        return [self._version(row) for row in self._rows(self._sql["latest"], (scope,))]

    def all_versions(self, scope: str) -> list[StoredVersion]:
        return [self._version(row) for row in self._rows(self._sql["all"], (scope,))]

    def replace_blob(
        self, scope: str, agent: str, section: str, revision: int, old: bytes, new: bytes
    ) -> bool:
        with self._store.cursor() as cur:
            cur.execute(self._sql["replace"], (new, scope, agent, section, revision, old))
            return cur.rowcount == 1
