"""What the SQL the side stores share needs of its backend: the placeholder, the dialect's
two-argument maximum, how a table is named and a time is kept, and the store's connections.

``mock_account.stores.sqlite.seam`` and ``mock_account.stores.postgres.seam`` fill it in; the
shared queries (``workflows``, ``channels``, ``config``) write ``?`` and ``{table}`` and run
through ``sql``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, ClassVar

#: A statement run inside a transaction: its rows (none for one that returns none).
Run = Callable[[str, tuple], list[tuple]]


class SqlSeam:
    """The hooks of one backend; a shared store names its tables in ``TABLES``."""

    P: ClassVar[str] = "?"
    GREATEST: ClassVar[str] = "max"
    #: What locks the rows a ``SELECT`` in a transaction reads, where the dialect can.
    FOR_UPDATE: ClassVar[str] = ""
    #: The key each query names a table by (``{progress}``) and the table's name.
    TABLES: ClassVar[dict[str, str]] = {}

    def _table(self, name: str) -> str:
        """``name`` as a query writes it (qualified by its schema, where there is one)."""
        raise NotImplementedError

    def _time(self, value: datetime) -> Any:
        raise NotImplementedError

    def _from_time(self, value: Any) -> datetime:
        raise NotImplementedError

    def _tx(self) -> AbstractContextManager[Run]:
        """One write transaction: committed when the block ends, rolled back if it raises."""
        raise NotImplementedError

    def _query(self, sql: str, params: tuple) -> list[tuple]:
        """The rows of one reading statement."""
        raise NotImplementedError

    def _count(self, sql: str, params: tuple) -> int:
        """One writing statement as a transaction of its own; the rows it changed."""
        raise NotImplementedError

    def _sql(self, text: str) -> str:
        """``text`` in this dialect: its tables named, its placeholders and maximum."""
        tables = {key: self._table(name) for key, name in self.TABLES.items()}
        return text.format(greatest=self.GREATEST, **tables).replace("?", self.P)

    def _rows(self, text: str, params: tuple) -> list[tuple]:
        return self._query(self._sql(text), params)

    def _changed(self, text: str, params: tuple) -> bool:
        """Whether the one writing statement ``text`` changed exactly one row."""
        return self._count(self._sql(text), params) == 1
