"""Conversions shared by the backends: timestamps as integer microseconds, the paging cursor.

Backends keep times as integer microseconds since the Unix epoch (UTC): exact, sortable, and the
same in SQL columns, Redis hashes and sorted-set scores (below 2**53 until the year 2255, so a
double score holds it exactly).

The paging cursor is the position of the last conversation of a page, ``(last_used, convid)``,
base64url-encoded so callers treat it as opaque. Decoding validates it strictly.
"""

from __future__ import annotations

import base64
import binascii
import functools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from mock_account.stores.base import ConversationEntry
from mock_account.stores.errors import InvalidCursor

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_CURSOR_VERSION = "1"


def utc(value: datetime, name: str = "time") -> datetime:
    """``value`` converted to UTC; naive datetimes are refused since their zone is a guess."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware datetime, got naive {value.isoformat()}")
    return value.astimezone(UTC)


def to_micros(value: datetime, name: str = "time") -> int:
    """Microseconds since the epoch of a tz-aware datetime."""
    delta = utc(value, name) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


# Cached: a conversation's entry is converted on every save and load, and its creation and last
# read (often its last run too) are the same times each time; a hit costs a tenth of the sum.
@functools.lru_cache(maxsize=8192)
def from_micros(micros: int) -> datetime:
    """The UTC datetime of microseconds since the epoch."""
    return _EPOCH + timedelta(0, 0, micros)  # positional: half the cost of the keyword form


def sort_key(entry: ConversationEntry) -> tuple[datetime, str]:
    """Listing order key: sort descending on it (most recently used first, then convid)."""
    return (entry.last_used, entry.convid)


def encode_cursor(entry: ConversationEntry) -> str:
    """The cursor that resumes a listing right after ``entry``."""
    raw = f"{_CURSOR_VERSION}:{to_micros(entry.last_used)}:{entry.convid}".encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> tuple[int, str]:
    """``(last_used micros, convid)`` of a cursor; ``InvalidCursor`` if it is not one of ours."""
    if not isinstance(cursor, str) or not cursor:
        raise InvalidCursor(f"invalid paging cursor {cursor!r}: expected a non-empty string")
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        raw = base64.b64decode(padded, altchars=b"-_", validate=True).decode("utf-8")
    except (binascii.Error, ValueError) as exc:
        raise InvalidCursor(f"invalid paging cursor {cursor!r}: not a cursor from a list") from exc
    version, _, rest = raw.partition(":")
    micros_text, _, convid = rest.partition(":")
    digits = micros_text.isascii() and micros_text.isdigit()
    if version != _CURSOR_VERSION or not digits or not convid:
        raise InvalidCursor(f"invalid paging cursor {cursor!r}: not a cursor from a list")
    return int(micros_text), convid


def is_after_cursor(entry: ConversationEntry, position: tuple[int, str] | None) -> bool:
    """Whether ``entry`` comes after the cursor position in listing order."""
    if position is None:
        return True
    return (to_micros(entry.last_used), entry.convid) < position


def recent_page(
    limit: int,
    cursor: str | None,
    fetch: Callable[[tuple[int, str] | None, int], list[ConversationEntry]],
) -> tuple[list[ConversationEntry], str | None]:
    """One page of ``list_recent`` and the cursor of the next. ``fetch(position, want)`` gives
    the entries after ``position`` (the cursor's; ``None`` from the top) in listing order, at
    least ``want`` of them where there are as many: one more than the page is asked for, so a
    next cursor is given only when an entry follows."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    found = fetch(None if cursor is None else decode_cursor(cursor), limit + 1)
    page = found[:limit]
    return page, (encode_cursor(page[-1]) if len(found) > limit else None)
