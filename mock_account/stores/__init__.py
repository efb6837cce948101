"""Conversation stores: where entries and encrypted states are kept.

One contract (``ConversationStore``) with four backends: in-memory, SQLite (the embedded default),
PostgreSQL and Redis. Open one with ``open_store(url)``; see ``factory`` for the URL forms.
"""

from mock_account.stores.base import ConversationEntry, ConversationStore, StoredState
from mock_account.stores.errors import (
    InvalidCursor,
    StoreConfigError,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from mock_account.stores.factory import open_store

__all__ = [
    "ConversationEntry",
    "ConversationStore",
    "InvalidCursor",
    "StoreConfigError",
    "StoreError",
    "StoreUnavailable",
    "StoredState",
    "VersionConflict",
    "open_store",
]
