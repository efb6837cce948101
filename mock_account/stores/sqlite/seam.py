"""The SQLite side of the SQL the side stores share (``mock_account.stores.sql``): times as
integer microseconds, and the conversation store's connections and write lock, so a side
store's write waits for a save as another save would."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from mock_account.stores.codec import from_micros, to_micros
from mock_account.stores.sql.seam import Run, SqlSeam

if TYPE_CHECKING:  # the store's module runs the side stores' migrations: no import back
    from mock_account.stores.sqlite.store import SqliteStore


class SqliteSeam(SqlSeam):
    def __init__(self, store: SqliteStore) -> None:
        self._store = store

    def _table(self, name: str) -> str:
        return name

    def _time(self, value: datetime) -> int:
        return to_micros(value)

    def _from_time(self, value: int) -> datetime:
        return from_micros(value)

    @contextmanager
    def _tx(self) -> Iterator[Run]:
        with self._store.transaction() as conn:
            yield lambda sql, params: conn.execute(sql, params).fetchall()

    def _query(self, sql: str, params: tuple) -> list[tuple]:
        return self._store.read(sql, params)

    def _count(self, sql: str, params: tuple) -> int:
        return self._store.write_alone(sql, params)
