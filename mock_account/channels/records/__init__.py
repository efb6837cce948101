"""Where channel records live: next to the conversations, in the same store and connection.

``records_for(store)`` gives the ``ChannelRecords`` of a conversation store (any backend, also
behind group commit).
"""

from __future__ import annotations

from mock_account.stores import ConversationStore, StoreConfigError
from mock_account.stores.channel_records import (
    ChannelRecords,
    ConversationLink,
    IdentityRecord,
    TurnRecord,
)


def records_for(store: ConversationStore) -> ChannelRecords:
    """The channel records kept by ``store``'s backend."""
    inner = getattr(store, "inner", store)  # a BatchingStore groups saves of another store
    kind = type(inner).__name__
    if kind == "MemoryStore":
        from mock_account.channels.records.memory import MemoryChannelRecords

        # One set of records per memory store, as a database holds one set of tables.
        with inner._lock:  # type: ignore[attr-defined]
            shared = getattr(inner, "_channel_records", None)
            if shared is None:
                shared = MemoryChannelRecords(inner)  # type: ignore[arg-type]
                inner._channel_records = shared  # type: ignore[attr-defined]
        return shared
    if kind == "SqliteStore":
        from mock_account.channels.records.sqlite import SqliteChannelRecords

        return SqliteChannelRecords(inner)  # type: ignore[arg-type]
    if kind == "PostgresStore":
        from mock_account.channels.records.postgres import PostgresChannelRecords

        return PostgresChannelRecords(inner)  # type: ignore[arg-type]
    if kind == "RedisStore":
        from mock_account.channels.records.redis import RedisChannelRecords

        return RedisChannelRecords(inner)  # type: ignore[arg-type]
    raise StoreConfigError(f"a {kind} keeps no channel records")


__all__ = ["ChannelRecords", "ConversationLink", "IdentityRecord", "TurnRecord", "records_for"]
