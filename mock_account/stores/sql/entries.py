"""What SQLite and PostgreSQL share of their ``entries`` tables (the same columns): an entry
read from a row, and the ``UPDATE`` of an entry's title, pinned flag and last read."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from mock_account.stores.base import ConversationEntry, EntryChange

#: An entry's columns, in the order ``entry_from_row`` reads them.
ENTRY_COLUMNS = (
    "account, convid, owner, title, created, last_executed, last_read, pinned, state_version, "
    "last_agent"
)


def entry_from_row(row: tuple, time: Callable[[Any], datetime]) -> ConversationEntry:
    """The entry of a row of ``ENTRY_COLUMNS``; ``time`` reads the dialect's times in UTC."""
    return ConversationEntry(
        account=row[0],
        convid=row[1],
        owner=row[2],
        title=bytes(row[3]),
        created=time(row[4]),
        last_executed=time(row[5]),
        last_read=time(row[6]),
        pinned=bool(row[7]),
        state_version=int(row[8]),
        last_agent=str(row[9]),
    )


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
