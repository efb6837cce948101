"""Store backends for tests: a fresh, isolated URL per backend and how to clean it up.

PostgreSQL and Redis are the real servers (override with TEST_POSTGRES_URL / TEST_REDIS_URL).
Each test gets its own PostgreSQL schema or Redis key prefix, so parallel runs never collide.
When a server is unreachable its tests skip, except with CI=true where that is a failure.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from mock_account.stores import ConversationStore, StoreUnavailable, open_store

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
PLAIN_BACKENDS = ["memory", "sqlite", "postgres", "redis"]
# The same stores behind group commit (``?batch=N``): the contract must hold unchanged.
BATCH_BACKENDS = [f"{backend}+batch" for backend in PLAIN_BACKENDS]
BACKENDS = PLAIN_BACKENDS + BATCH_BACKENDS


def unreachable(backend: str, exc: Exception) -> None:
    """Skip (or fail under CI) because a real server the test needs is down."""
    message = f"{backend} server unreachable: {exc}"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def with_option(url: str, option: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}{option}"


def _drop_schema(schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(with_option(POSTGRES_URL, "connect_timeout=5"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def _drop_prefix(prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=500))
        for start in range(0, len(keys), 500):
            client.delete(*keys[start : start + 500])
    finally:
        client.close()


def backend_url(backend: str, tmp_path: Path) -> tuple[str, Callable[[], None]]:
    """``(url, cleanup)`` of a fresh, empty store of ``backend``."""
    if backend.endswith("+batch"):
        url, cleanup = backend_url(backend.removesuffix("+batch"), tmp_path)
        return with_option(url, "batch=64"), cleanup
    run = uuid.uuid4().hex[:12]
    if backend == "memory":
        return "memory://", lambda: None
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'stores' / 'conversations.db'}", lambda: None
    if backend == "postgres":
        schema = f"test_store_{run}"
        return with_option(
            POSTGRES_URL, f"schema={schema}&connect_timeout=5"
        ), lambda: _drop_schema(schema)
    prefix = f"test:store:{run}"
    return with_option(REDIS_URL, f"prefix={prefix}"), lambda: _drop_prefix(prefix)


def open_or_skip(url: str, backend: str) -> ConversationStore:
    try:
        return open_store(url)
    except StoreUnavailable as exc:
        unreachable(backend, exc)
        raise
