"""Workflow records in the PostgreSQL schema of a ``PostgresStore``: their tables (schema
migration 4); the queries are SQL shared with SQLite (``mock_account.stores.sql.workflows``)."""

from __future__ import annotations

from mock_account.stores.postgres.seam import PostgresSeam
from mock_account.stores.sql.workflows import SqlWorkflowStore

WORKFLOW_TABLES: tuple[str, ...] = (
    """CREATE TABLE {s}.workflow_progress (
        account text COLLATE "C" NOT NULL,
        identity text COLLATE "C" NOT NULL,
        workflow text COLLATE "C" NOT NULL,
        version bigint NOT NULL CHECK (version > 0),
        blob bytea NOT NULL,
        updated timestamptz NOT NULL,
        PRIMARY KEY (account, identity, workflow)
    )""",
    """CREATE TABLE {s}.actions (
        account text COLLATE "C" NOT NULL,
        action_id text COLLATE "C" NOT NULL,
        identity text COLLATE "C" NOT NULL,
        status text NOT NULL,
        blob bytea NOT NULL,
        created timestamptz NOT NULL,
        updated timestamptz NOT NULL,
        PRIMARY KEY (account, action_id)
    )""",
    "CREATE INDEX actions_by_identity ON {s}.actions (account, identity, created DESC)",
    """CREATE TABLE {s}.outbox (
        account text COLLATE "C" NOT NULL,
        action_id text COLLATE "C" NOT NULL,
        identity text COLLATE "C" NOT NULL,
        blob bytea NOT NULL,
        delivered timestamptz NOT NULL,
        PRIMARY KEY (account, action_id)
    )""",
)

# Per-identity workflow progress, approved actions and their outbox (mock_account.workflows).
WORKFLOW_MIGRATION: tuple[int, tuple[str, ...]] = (4, WORKFLOW_TABLES)


class PostgresWorkflowStore(PostgresSeam, SqlWorkflowStore):
    """The tables of migration 4 in the conversation store's PostgreSQL schema, on its pool."""
