"""The PostgreSQL side of the SQL the side stores share (``mock_account.stores.sql``):
``%s`` placeholders, ``timestamptz`` columns, tables in the store's schema and connections
from its pool."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from psycopg import sql as pgsql

from mock_account.stores.codec import utc
from mock_account.stores.sql.seam import Run, SqlSeam

if TYPE_CHECKING:  # the store's module runs the side stores' migrations: no import back
    from mock_account.stores.postgres.store import PostgresStore


class PostgresSeam(SqlSeam):
    P = "%s"
    GREATEST = "greatest"
    FOR_UPDATE = " FOR UPDATE"

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    def _table(self, name: str) -> str:
        return pgsql.Identifier(self._store.schema, name).as_string(None)

    def _time(self, value: datetime) -> datetime:
        return utc(value)

    def _from_time(self, value: datetime) -> datetime:
        return value.astimezone(UTC)

    @contextmanager
    def _tx(self) -> Iterator[Run]:
        with self._store.transaction() as cur:

            def run(sql: str, params: tuple) -> list[tuple]:
                cur.execute(sql, params)
                # A statement without RETURNING has no rows to fetch (psycopg would raise).
                return cur.fetchall() if cur.description else []

            yield run

    def _query(self, sql: str, params: tuple) -> list[tuple]:
        with self._store.cursor() as cur:
            return cur.execute(sql, params).fetchall()

    def _count(self, sql: str, params: tuple) -> int:
        with self._store.cursor() as cur:
            return cur.execute(sql, params).rowcount
