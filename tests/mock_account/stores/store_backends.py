"""Store backends for tests: a fresh, isolated URL per backend and how to clean it up.

PostgreSQL and Redis are the real servers (override with TEST_POSTGRES_URL / TEST_REDIS_URL).
Each test gets its own PostgreSQL schema or Redis key prefix, so parallel runs never collide.
When a server is unreachable its tests skip, except with CI=true where that is a failure.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from server_stores import fresh_url, unreachable

from mock_account.stores import ConversationStore, StoreUnavailable, open_store

PLAIN_BACKENDS = ["memory", "sqlite", "postgres", "redis"]
# The same stores behind group commit (``?batch=N``): the contract must hold unchanged.
BATCH_BACKENDS = [f"{backend}+batch" for backend in PLAIN_BACKENDS]
BACKENDS = PLAIN_BACKENDS + BATCH_BACKENDS


def backend_url(backend: str, tmp_path: Path) -> tuple[str, Callable[[], None]]:
    """``(url, cleanup)`` of a fresh, empty store of ``backend``."""
    return fresh_url(backend, tmp_path, "store")


def open_or_skip(url: str, backend: str) -> ConversationStore:
    try:
        return open_store(url)
    except StoreUnavailable as exc:
        unreachable(backend, exc)
        raise
