"""The configuration store that goes with a conversation store."""

from __future__ import annotations

from typing import cast

from mock_account.stores import ConversationStore, StoreConfigError
from mock_account.stores.batching import BatchingStore
from mock_account.stores.config_versions import ConfigVersionStore


def open_config_store(conversation_store: ConversationStore) -> ConfigVersionStore:
    """The configuration versions next to ``conversation_store`` (unwrapping group commit)."""
    store = conversation_store
    inner = store.inner if isinstance(store, BatchingStore) else store
    if inner.backend == "memory":
        from mock_account.config_history.store import MemoryConfigStore
        from mock_account.stores.memory import MemoryStore

        # One history per store object, so deployments sharing it share the history.
        return cast(MemoryStore, inner).side_table("config_versions", MemoryConfigStore)
    if inner.backend == "sqlite":
        from mock_account.config_history.sql_stores import SqliteConfigStore

        return SqliteConfigStore(inner)  # type: ignore[arg-type]
    if inner.backend == "postgres":
        from mock_account.config_history.sql_stores import PostgresConfigStore

        return PostgresConfigStore(inner)  # type: ignore[arg-type]
    if inner.backend == "redis":
        from mock_account.config_history.redis_store import RedisConfigStore

        return RedisConfigStore(inner)  # type: ignore[arg-type]
    raise StoreConfigError(f"a {type(inner).__name__} keeps no configuration history")
