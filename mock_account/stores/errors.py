"""Errors of the conversation stores.

    StoreError               base: the store cannot do what was asked
    ├── StoreConfigError     the store URL or one of its options is invalid
    ├── StoreUnavailable     the backend is unreachable, busy or refused the connection
    ├── VersionConflict      compare-and-swap lost: the conversation changed since it was read
    └── InvalidCursor        a paging cursor is malformed (not one this store handed out)

Every message names the backend and the place (path, host, port, database) but never a password.
Backend exceptions are translated at the store boundary (``raise StoreUnavailable(...) from exc``),
so callers only ever handle these classes.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base of the conversation store errors."""


class StoreConfigError(StoreError):
    """The store URL or one of its options is invalid."""


class StoreUnavailable(StoreError):
    """The backend is unreachable, busy, or refused the request."""


class VersionConflict(StoreError):
    """Someone else saved the conversation first (or it does not exist for this writer)."""

    @classmethod
    def lost(cls, convid: str, expected_version: int) -> VersionConflict:
        """The conflict of a write that expected ``expected_version`` (0: a new conversation)."""
        if expected_version == 0:
            return cls(f"conversation {convid!r} already exists")
        return cls(f"conversation {convid!r} is no longer at version {expected_version}")


class InvalidCursor(StoreError):
    """A paging cursor is not one the store handed out."""


def unavailable_message(exc: BaseException) -> str:
    """What a caller is told when the store failed: the one wording every layer uses."""
    return f"The conversation store is unavailable: {exc}"
