"""The ``UPDATE`` of an entry's title, pinned flag and last read, in the SQL SQLite and
PostgreSQL share (their ``entries`` tables have the same columns)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from mock_account.stores.base import EntryChange


def entry_update(
    change: EntryChange,
    *,
    table: str,
    placeholder: str,
    greatest: str,
    time: Callable[[datetime, str], object],
) -> tuple[str, list[object]] | None:
    """The statement of ``change`` and its parameters before the key's (``account``,
    ``convid``); ``None`` when it changes nothing. ``greatest`` is the dialect's two-argument
    maximum and ``time`` its conversion of a datetime (checked, named for the error)."""
    sets: list[str] = []
    params: list[object] = []
    if change.title is not None:
        sets.append("title = ?")
        params.append(change.title)
    if change.pinned is not None:
        sets.append("pinned = ?")
        params.append(bool(change.pinned))
    if change.last_read is not None:
        t = time(change.last_read, "last_read")
        # last_used is the later of the last run and the last read (lists go by it).
        sets += ["last_read = ?", f"last_used = {greatest}(last_executed, ?)"]
        params += [t, t]
    if not sets:
        return None
    sql = f"UPDATE {table} SET {', '.join(sets)} WHERE account = ? AND convid = ?"
    return sql.replace("?", placeholder), params
