"""Conversation stores: where entries and encrypted states are kept.

One contract (``ConversationStore``, in ``base``) with four backends, one package each:
``memory``, ``sqlite`` (the embedded default), ``postgres`` and ``redis``; ``batching`` groups
concurrent saves of any of them. Every backend also keeps the HTTP layer's idempotency records
(``IdempotencyRecords``, a contract of its own). Open one with ``open_store(url)``; see
``factory`` for the URL forms.
"""

from mock_account.stores.base import (
    Committed,
    ConversationEntry,
    ConversationStore,
    IdempotencyRecord,
    IdempotencyRecords,
    StoredState,
    check_idempotency_record,
)
from mock_account.stores.errors import (
    InvalidCursor,
    StoreConfigError,
    StoreError,
    StoreUnavailable,
    VersionConflict,
    unavailable_message,
)
from mock_account.stores.factory import open_store

__all__ = [
    "Committed",
    "ConversationEntry",
    "ConversationStore",
    "IdempotencyRecord",
    "IdempotencyRecords",
    "InvalidCursor",
    "StoreConfigError",
    "StoreError",
    "StoreUnavailable",
    "StoredState",
    "VersionConflict",
    "check_idempotency_record",
    "open_store",
    "unavailable_message",
]
