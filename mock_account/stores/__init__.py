"""Conversation stores: where entries and encrypted states are kept, and everything next to them.

One contract (``ConversationStore``, in ``base``) with four backends, one package each:
``memory``, ``sqlite`` (the embedded default), ``postgres`` and ``redis``; ``batching`` groups
concurrent saves of any of them. Every backend also keeps the HTTP layer's idempotency records
(``IdempotencyRecords``, a contract of its own). Open one with ``open_store(url)``; see
``factory`` for the URL forms.

Next to the conversations, each backend package also keeps the side records of three more
contracts: ``channel_records``, ``workflow_records`` and ``config_versions``; ``registry``
gives those of a store (``registry.channel_records(store)`` and so on), and ``sql`` holds the
SQL that SQLite and PostgreSQL share.
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
