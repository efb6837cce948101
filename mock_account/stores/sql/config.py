"""The configuration versions' SQL, shared by SQLite and PostgreSQL (each backend's ``SqlSeam``
gives the placeholder, the time conversions, the table names and its connections).

A commit is one transaction: the agent's revision row is made to exist and read (locked where
the dialect locks rows: SQLite's transaction holds the whole file's write lock already),
checked, raised, and the versions written and pruned before it commits.
"""

from __future__ import annotations

from typing import ClassVar

from mock_account.stores.config_versions import (
    ACCOUNT_ROW,
    ConfigCommit,
    ConfigVersionStore,
    StoredVersion,
)
from mock_account.stores.sql.seam import SqlSeam

#: The columns of ``config_versions`` a ``StoredVersion`` is read from, in its order.
VERSION_COLUMNS = "agent, section, revision, created, origin, blob"


class SqlConfigStore(SqlSeam, ConfigVersionStore):
    """The SQL of SQLite and PostgreSQL; a backend's seam gives the dialect and connections."""

    TABLES: ClassVar[dict[str, str]] = {"versions": "config_versions", "heads": "config_heads"}

    def _version(self, row: tuple) -> StoredVersion:
        return StoredVersion(
            row[0], row[1], int(row[2]), self._from_time(row[3]), row[4], bytes(row[5])
        )

    def _versions(self, text: str, params: tuple) -> list[StoredVersion]:
        return [self._version(row) for row in self._rows(text, params)]

    def scope_revision(self, scope: str) -> int:
        rows = self._rows(
            "SELECT revision FROM {heads} WHERE scope = ? AND agent = ?", (scope, ACCOUNT_ROW)
        )
        return int(rows[0][0]) if rows else 0

    def agent_revisions(self, scope: str) -> dict[str, int]:
        rows = self._rows(
            "SELECT agent, revision FROM {heads} WHERE scope = ? AND agent <> ?",
            (scope, ACCOUNT_ROW),
        )
        return {agent: int(revision) for agent, revision in rows}

    def commit_versions(self, commit: ConfigCommit) -> int:
        scope, agent = commit.scope, commit.agent
        sql = self._sql
        with self._tx() as tx:
            tx(sql("INSERT INTO {heads} VALUES (?, ?, 0) ON CONFLICT DO NOTHING"), (scope, agent))
            ((current,),) = tx(
                sql("SELECT revision FROM {heads} WHERE scope = ? AND agent = ?" + self.FOR_UPDATE),
                (scope, agent),
            )
            if int(current) != commit.base_revision:
                raise commit.conflict()
            revision = commit.base_revision + 1
            tx(
                sql("UPDATE {heads} SET revision = ? WHERE scope = ? AND agent = ?"),
                (revision, scope, agent),
            )
            tx(
                sql(
                    "INSERT INTO {heads} VALUES (?, ?, 1) ON CONFLICT (scope, agent) "
                    "DO UPDATE SET revision = {heads}.revision + 1"
                ),
                (scope, ACCOUNT_ROW),
            )
            created = self._time(commit.created)
            for v in commit.versions:
                tx(
                    sql("INSERT INTO {versions} VALUES (?, ?, ?, ?, ?, ?, ?)"),
                    (scope, agent, v.section, v.revision, created, v.origin, v.blob),
                )
            for section in {v.section for v in commit.versions}:
                tx(
                    sql(
                        "DELETE FROM {versions} WHERE scope = ? AND agent = ? AND section = ? "
                        "AND revision NOT IN (SELECT revision FROM {versions} WHERE scope = ? "
                        "AND agent = ? AND section = ? ORDER BY revision DESC LIMIT ?)"
                    ),
                    (scope, agent, section, scope, agent, section, commit.keep),
                )
        self._committed()
        return revision

    def _committed(self) -> None:
        """Called after each commit (SQLite tells other processes through a file)."""

    def history(self, scope: str, agent: str, section: str) -> list[StoredVersion]:
        return self._versions(
            f"SELECT {VERSION_COLUMNS} FROM {{versions}} WHERE scope = ? "
            "AND agent = ? AND section = ? ORDER BY revision DESC",
            (scope, agent, section),
        )

    def latest(self, scope: str) -> list[StoredVersion]:
        return self._versions(
            f"SELECT {VERSION_COLUMNS} FROM {{versions}} v WHERE scope = ? "
            "AND revision = (SELECT max(revision) FROM {versions} w "
            "WHERE w.scope = v.scope AND w.agent = v.agent AND w.section = v.section) "
            "ORDER BY agent, section",
            (scope,),
        )

    def all_versions(self, scope: str) -> list[StoredVersion]:
        return self._versions(
            f"SELECT {VERSION_COLUMNS} FROM {{versions}} WHERE scope = ? "
            "ORDER BY agent, section, revision",
            (scope,),
        )

    def replace_blob(
        self, scope: str, agent: str, section: str, revision: int, old: bytes, new: bytes
    ) -> bool:
        return self._changed(
            "UPDATE {versions} SET blob = ? WHERE scope = ? AND agent = ? "
            "AND section = ? AND revision = ? AND blob = ?",
            (new, scope, agent, section, revision, old),
        )
