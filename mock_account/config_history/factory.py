"""The configuration store that goes with a conversation store."""

from __future__ import annotations

from typing import Any

from mock_account.config_history.store import ConfigVersionStore


def open_config_store(conversation_store: Any) -> ConfigVersionStore:
    """The configuration versions next to ``conversation_store`` (unwrapping group commit)."""
    from mock_account.config_history.redis_store import RedisConfigStore
    from mock_account.config_history.sql_stores import PostgresConfigStore, SqliteConfigStore
    from mock_account.config_history.store import MemoryConfigStore

    inner = getattr(conversation_store, "inner", conversation_store)
    kind = type(inner).__name__
    if kind == "SqliteStore":
        return SqliteConfigStore(inner)
    if kind == "PostgresStore":
        return PostgresConfigStore(inner)
    if kind == "RedisStore":
        return RedisConfigStore(inner)
    # In memory: one history per store object, so deployments sharing it share the history.
    shared = getattr(inner, "_config_versions", None)
    if shared is None:
        shared = MemoryConfigStore()
        inner._config_versions = shared
    return shared
