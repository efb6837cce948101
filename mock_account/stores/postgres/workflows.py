"""Workflow records in the PostgreSQL schema of a ``PostgresStore``: their tables (schema
migration 4); the queries are SQL shared with SQLite (``mock_account.stores.sql.workflows``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from mock_account.stores.codec import utc
from mock_account.stores.sql.workflows import SqlWorkflowStore

if TYPE_CHECKING:  # the store's module runs this one's migration: no import back at run time
    from mock_account.stores.postgres.store import PostgresStore

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


class PostgresWorkflowStore(SqlWorkflowStore):
    """The tables of migration 4 in the conversation store's PostgreSQL schema, on its pool."""

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
