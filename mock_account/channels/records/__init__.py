"""Where channel records live: next to the conversations, in the same store and connection.

``records_for(store)`` gives the ``ChannelRecords`` of a conversation store (any backend, also
behind group commit).
"""

from __future__ import annotations

from typing import cast

from mock_account.stores import ConversationStore, StoreConfigError
from mock_account.stores.batching import BatchingStore
from mock_account.stores.channel_records import (
    ChannelRecords,
    ConversationLink,
    IdentityRecord,
    TurnRecord,
)


def records_for(store: ConversationStore) -> ChannelRecords:
    """The channel records kept by ``store``'s backend."""
    inner = store.inner if isinstance(store, BatchingStore) else store
    if inner.backend == "memory":
        from mock_account.channels.records.memory import MemoryChannelRecords
        from mock_account.stores.memory import MemoryStore

        memory = cast(MemoryStore, inner)
        # One set of records per memory store, as a database holds one set of tables.
        return memory.side_table("channel_records", lambda: MemoryChannelRecords(memory))
    if inner.backend == "sqlite":
        from mock_account.channels.records.sqlite import SqliteChannelRecords

        return SqliteChannelRecords(inner)  # type: ignore[arg-type]
    if inner.backend == "postgres":
        from mock_account.channels.records.postgres import PostgresChannelRecords

        return PostgresChannelRecords(inner)  # type: ignore[arg-type]
    if inner.backend == "redis":
        from mock_account.channels.records.redis import RedisChannelRecords

        return RedisChannelRecords(inner)  # type: ignore[arg-type]
    raise StoreConfigError(f"a {type(inner).__name__} keeps no channel records")


__all__ = ["ChannelRecords", "ConversationLink", "IdentityRecord", "TurnRecord", "records_for"]
