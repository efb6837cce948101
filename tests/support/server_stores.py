"""The store backends every suite runs on, and fresh, isolated stores of each.

``BACKENDS`` is the one list: the conversation, channel-records, workflow-store and
configuration-store conformance suites (and the other suites that need a store) all take their
backends from here, and ``store_fixture`` makes their store fixture.

PostgreSQL and Redis are the machine's servers (override with TEST_POSTGRES_URL /
TEST_REDIS_URL). Each caller gets its own PostgreSQL schema or Redis key prefix, removed by
the cleanup it is handed, so parallel runs never collide. When a server is unreachable the
test skips with the reason, except with CI=true, where that is a failure.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from missing import missing

from loadtests import store_targets
from loadtests.store_targets import with_option
from mock_account.stores import ConversationStore, StoreUnavailable, open_store

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")

#: Every backend of ``mock_account.stores.registry`` (a test there checks the two agree).
PLAIN_BACKENDS = ["memory", "sqlite", "postgres", "redis"]
#: The same stores behind group commit (``?batch=N``): every contract must hold unchanged.
BATCH_BACKENDS = [f"{backend}+batch" for backend in PLAIN_BACKENDS]
BACKENDS = PLAIN_BACKENDS + BATCH_BACKENDS


def unreachable(backend: str, exc: BaseException) -> None:
    """Skip (or fail under CI) because a real server the test needs is down."""
    missing(f"{backend} server unreachable: {exc}")


def drop_schema(schema: str) -> None:
    store_targets.drop_schema(POSTGRES_URL, schema)


def drop_prefix(prefix: str) -> None:
    store_targets.drop_prefix(REDIS_URL, prefix)


def fresh_url(backend: str, folder: Path, label: str = "store") -> tuple[str, Callable[[], None]]:
    """``(url, cleanup)`` of a fresh, empty store; ``backend+batch`` adds group commit."""
    if backend.endswith("+batch"):
        url, cleanup = fresh_url(backend.removesuffix("+batch"), folder, label)
        return with_option(url, "batch=64"), cleanup
    run = uuid.uuid4().hex[:12]
    if backend == "memory":
        return "memory://", lambda: None
    if backend == "sqlite":
        return f"sqlite:///{folder / 'stores' / 'conversations.db'}", lambda: None
    if backend == "postgres":
        schema = f"test_{label}_{run}"
        url = with_option(POSTGRES_URL, f"schema={schema}&connect_timeout=5")
        return url, lambda: drop_schema(schema)
    if backend == "redis":
        prefix = f"test:{label}:{run}"
        return with_option(REDIS_URL, f"prefix={prefix}"), lambda: drop_prefix(prefix)
    raise ValueError(f"unknown backend {backend!r}")


@contextmanager
def opened_store(backend: str, folder: Path, label: str = "store") -> Iterator[ConversationStore]:
    """A fresh conversation store of ``backend``, open for the block, then closed and removed
    (an unreachable server skips, or fails under CI)."""
    url, cleanup = fresh_url(backend, folder, label)
    try:
        store = open_store(url)
    except StoreUnavailable as exc:
        cleanup()
        unreachable(backend, exc)
        raise
    try:
        yield store
    finally:
        store.close()
        cleanup()


def open_or_skip(url: str, backend: str) -> ConversationStore:
    """The store ``url`` names, opened (an unreachable server skips, or fails under CI)."""
    try:
        return open_store(url)
    except StoreUnavailable as exc:
        unreachable(backend, exc)
        raise


def store_fixture(
    backends: list[str], label: str, name: str
) -> Callable[..., Iterator[ConversationStore]]:
    """A fixture called ``name``: a fresh conversation store of each of ``backends`` in turn,
    closed and removed after the test (``label`` names its PostgreSQL schema or Redis prefix).

    Assign it in a conftest or test module under the same name:
    ``backend_store = store_fixture(BACKENDS, "workflows", "backend_store")``.
    """

    @pytest.fixture(name=name, params=backends)
    def fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ConversationStore]:
        with opened_store(request.param, tmp_path, label) as store:
            yield store

    return fixture
