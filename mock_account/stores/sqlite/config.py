"""Configuration versions in the SQLite file of a ``SqliteStore``: their tables (schema
migration 6); the queries are SQL shared with PostgreSQL (``mock_account.stores.sql.config``).

A commit is one ``BEGIN IMMEDIATE`` transaction on the conversation store's connections: the
agent's revision is read under the write lock, checked, raised, and the versions written and
pruned before ``COMMIT``; then the stamp file tells other processes.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from mock_account.stores.sql.config import SqlConfigStore
from mock_account.stores.sqlite.seam import SqliteSeam

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


class SqliteConfigStore(SqliteSeam, SqlConfigStore):
    """Versions in the conversation store's SQLite file."""

    def __init__(self, conversation_store: SqliteStore) -> None:
        super().__init__(conversation_store)
        # Replaced (a new file) after every commit, by any process: its identity is the
        # change stamp, a stat instead of a query that waits on the database's locks.
        path = conversation_store.path
        self._stamp_file = Path(f"{path}.config-stamp") if isinstance(path, Path) else None

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

    def _committed(self) -> None:
        if self._stamp_file is None:
            return
        temporary = self._stamp_file.with_name(f"{self._stamp_file.name}.{uuid.uuid4().hex}")
        try:
            temporary.write_text(uuid.uuid4().hex)
            os.replace(temporary, self._stamp_file)
        except OSError:
            # Other processes then see the save within ConfigHistory's recheck interval.
            temporary.unlink(missing_ok=True)
