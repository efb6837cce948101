"""Configuration versions in the SQLite file of a ``SqliteStore``: their tables (schema
migration 6) and their queries.

They use the conversation store's connections and write lock. A commit is one ``BEGIN
IMMEDIATE`` transaction: the agent's revision is read under the write lock, checked, raised, and
the versions written and pruned before ``COMMIT``.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from mock_account.stores.codec import from_micros, to_micros
from mock_account.stores.config_versions import (
    ACCOUNT_ROW,
    ConfigCommit,
    ConfigVersionStore,
    StoredVersion,
)
from mock_account.stores.sql.config import VERSION_COLUMNS, stored_version

if TYPE_CHECKING:  # the store's module runs this one's migration: no import back at run time
    from mock_account.stores.sqlite.store import SqliteStore

# Agent configuration history (mock_account.config_history): encrypted versions per
# section, and the revision of each agent and of the scope ("*").
# The statements' text is kept byte for byte as first applied (indentation included).
CONFIG_MIGRATION: tuple[int, tuple[str, ...]] = (
    6,
    (
        """CREATE TABLE config_versions (
                scope TEXT NOT NULL,
                agent TEXT NOT NULL,
                section TEXT NOT NULL,
                revision INTEGER NOT NULL CHECK (revision >= 0),
                created INTEGER NOT NULL,
                origin TEXT NOT NULL,
                blob BLOB NOT NULL,
                PRIMARY KEY (scope, agent, section, revision)
            )""",
        """CREATE TABLE config_heads (
                scope TEXT NOT NULL,
                agent TEXT NOT NULL,
                revision INTEGER NOT NULL CHECK (revision >= 0),
                PRIMARY KEY (scope, agent)
            )""",
    ),
)


class SqliteConfigStore(ConfigVersionStore):
    """Versions in the conversation store's SQLite file."""

    def __init__(self, conversation_store: SqliteStore) -> None:
        self._store = conversation_store
        # Replaced (a new file) after every commit, by any process: its identity is the
        # change stamp, a stat instead of a query that waits on the database's locks.
        path = conversation_store.path
        self._stamp_file = Path(f"{path}.config-stamp") if isinstance(path, Path) else None

    def _version(self, row: tuple) -> StoredVersion:
        return stored_version(row, from_micros(row[3]))

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

    def commit_versions(self, commit: ConfigCommit) -> int:
        scope, agent, base_revision = commit.scope, commit.agent, commit.base_revision
        created = to_micros(commit.created)
        with self._store.transaction() as conn:
            row = conn.execute(
                "SELECT revision FROM config_heads WHERE scope = ? AND agent = ?", (scope, agent)
            ).fetchone()
            if (int(row[0]) if row else 0) != base_revision:
                raise commit.conflict()
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
                    for v in commit.versions
                ],
            )
            conn.executemany(
                "DELETE FROM config_versions WHERE scope = ? AND agent = ? AND section = ? "
                "AND revision NOT IN (SELECT revision FROM config_versions WHERE scope = ? "
                "AND agent = ? AND section = ? ORDER BY revision DESC LIMIT ?)",
                [
                    (scope, agent, section, scope, agent, section, commit.keep)
                    for section in {v.section for v in commit.versions}
                ],
            )
        self._stamp()
        return revision

    def history(self, scope: str, agent: str, section: str) -> list[StoredVersion]:
        rows = self._store.read(
            f"SELECT {VERSION_COLUMNS} FROM config_versions WHERE scope = ? "
            "AND agent = ? AND section = ? ORDER BY revision DESC",
            (scope, agent, section),
        )
        return [self._version(row) for row in rows]

    def latest(self, scope: str) -> list[StoredVersion]:
        rows = self._store.read(
            f"SELECT {VERSION_COLUMNS} FROM config_versions v WHERE scope = ? "
            "AND revision = (SELECT max(revision) FROM config_versions w "
            "WHERE w.scope = v.scope AND w.agent = v.agent AND w.section = v.section) "
            "ORDER BY agent, section",
            (scope,),
        )
        return [self._version(row) for row in rows]

    def all_versions(self, scope: str) -> list[StoredVersion]:
        rows = self._store.read(
            f"SELECT {VERSION_COLUMNS} FROM config_versions WHERE scope = ? "
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
