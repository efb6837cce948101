"""Configuration versions in the PostgreSQL schema of a ``PostgresStore``: their tables (schema
migration 6) and their queries.

They use the conversation store's connection pool. A commit is one transaction: the agent's
revision row is locked (``FOR UPDATE``), checked, raised, and the versions written and pruned
before ``COMMIT``.
"""

from __future__ import annotations

from datetime import UTC
from typing import TYPE_CHECKING

from mock_account.stores.config_versions import (
    ACCOUNT_ROW,
    ConfigCommit,
    ConfigVersionStore,
    StoredVersion,
)
from mock_account.stores.sql.config import VERSION_COLUMNS, stored_version

if TYPE_CHECKING:  # the store's module runs this one's migration: no import back at run time
    from mock_account.stores.postgres.store import PostgresStore

# Agent configuration history (mock_account.config_history): encrypted versions per
# section, and the revision of each agent and of the scope ("*").
# The statements' text is kept byte for byte as first applied (indentation included).
CONFIG_MIGRATION: tuple[int, tuple[str, ...]] = (
    6,
    (
        """CREATE TABLE {s}.config_versions (
                scope text COLLATE "C" NOT NULL,
                agent text COLLATE "C" NOT NULL,
                section text COLLATE "C" NOT NULL,
                revision bigint NOT NULL CHECK (revision >= 0),
                created timestamptz NOT NULL,
                origin text NOT NULL,
                blob bytea NOT NULL,
                PRIMARY KEY (scope, agent, section, revision)
            )""",
        """CREATE TABLE {s}.config_heads (
                scope text COLLATE "C" NOT NULL,
                agent text COLLATE "C" NOT NULL,
                revision bigint NOT NULL CHECK (revision >= 0),
                PRIMARY KEY (scope, agent)
            )""",
    ),
)

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
    "history": f"SELECT {VERSION_COLUMNS} FROM {{s}}.config_versions WHERE scope = %s "
    "AND agent = %s AND section = %s ORDER BY revision DESC",
    "all": f"SELECT {VERSION_COLUMNS} FROM {{s}}.config_versions WHERE scope = %s "
    "ORDER BY agent, section, revision",
    "replace": "UPDATE {s}.config_versions SET blob = %s WHERE scope = %s AND agent = %s "
    "AND section = %s AND revision = %s AND blob = %s",
    "latest": f"SELECT DISTINCT ON (agent, section) {VERSION_COLUMNS} "
    "FROM {s}.config_versions WHERE scope = %s ORDER BY agent, section, revision DESC",
}


class PostgresConfigStore(ConfigVersionStore):
    """Versions in the conversation store's PostgreSQL schema, through its pool."""

    def __init__(self, conversation_store: PostgresStore) -> None:
        self._store = conversation_store
        self._sql = {k: conversation_store.qualify(v) for k, v in _PG_SQL.items()}

    @staticmethod
    def _version(row: tuple) -> StoredVersion:
        return stored_version(row, row[3].astimezone(UTC))

    def _rows(self, statement: str, params: tuple) -> list[tuple]:
        with self._store.cursor() as cur:
            return cur.execute(statement, params).fetchall()

    def scope_revision(self, scope: str) -> int:
        rows = self._rows(self._sql["scope"], (scope, ACCOUNT_ROW))
        return int(rows[0][0]) if rows else 0

    def agent_revisions(self, scope: str) -> dict[str, int]:
        rows = self._rows(self._sql["agents"], (scope, ACCOUNT_ROW))
        return {agent: int(revision) for agent, revision in rows}

    def commit_versions(self, commit: ConfigCommit) -> int:
        scope, agent, base_revision = commit.scope, commit.agent, commit.base_revision
        created = commit.created
        sql = self._sql
        with self._store.transaction() as cur:
            cur.execute(sql["ensure"], (scope, agent))
            (current,) = cur.execute(sql["lock"], (scope, agent)).fetchone()
            if int(current) != base_revision:
                raise commit.conflict()
            revision = base_revision + 1
            cur.execute(sql["set"], (revision, scope, agent))
            cur.execute(sql["bump_scope"], (scope, ACCOUNT_ROW))
            cur.executemany(
                sql["insert"],
                [
                    (scope, agent, v.section, v.revision, created, v.origin, v.blob)
                    for v in commit.versions
                ],
            )
            cur.executemany(
                sql["prune"],
                [
                    (scope, agent, section, scope, agent, section, commit.keep)
                    for section in {v.section for v in commit.versions}
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
