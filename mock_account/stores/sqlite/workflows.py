"""Workflow records in the SQLite file of a ``SqliteStore``: their tables (schema migration 4);
the queries are SQL shared with PostgreSQL (``mock_account.stores.sql.workflows``)."""

from __future__ import annotations

from mock_account.stores.sql.workflows import SqlWorkflowStore
from mock_account.stores.sqlite.seam import SqliteSeam

WORKFLOW_TABLES: tuple[str, ...] = (
    """CREATE TABLE workflow_progress (
        account TEXT NOT NULL,
        identity TEXT NOT NULL,
        workflow TEXT NOT NULL,
        version INTEGER NOT NULL CHECK (version > 0),
        blob BLOB NOT NULL,
        updated INTEGER NOT NULL,
        PRIMARY KEY (account, identity, workflow)
    )""",
    """CREATE TABLE actions (
        account TEXT NOT NULL,
        action_id TEXT NOT NULL,
        identity TEXT NOT NULL,
        status TEXT NOT NULL,
        blob BLOB NOT NULL,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        PRIMARY KEY (account, action_id)
    )""",
    "CREATE INDEX actions_by_identity ON actions (account, identity, created DESC)",
    """CREATE TABLE outbox (
        account TEXT NOT NULL,
        action_id TEXT NOT NULL,
        identity TEXT NOT NULL,
        blob BLOB NOT NULL,
        delivered INTEGER NOT NULL,
        PRIMARY KEY (account, action_id)
    )""",
)

# Per-identity workflow progress, approved actions and their outbox (mock_account.workflows).
WORKFLOW_MIGRATION: tuple[int, tuple[str, ...]] = (4, WORKFLOW_TABLES)


class SqliteWorkflowStore(SqliteSeam, SqlWorkflowStore):
    """The tables of migration 4 in the conversation store's SQLite file, on its connections."""
