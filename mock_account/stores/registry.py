"""Which side stores go with a conversation store: one entry per backend package.

A conversation store names its backend package (``backend = "sqlite"``, a class attribute); the
package's ``SIDE_STORES`` makes the side stores that live next to its conversations (same file,
schema, prefix or process): the channel records, the workflow records and the configuration
versions. ``BatchingStore`` is seen through (``inner``): group commit changes how saves are
written, not where anything is kept.

Backend packages are imported on demand, so using SQLite never loads psycopg or redis-py. A
store whose backend is not registered raises ``StoreConfigError``: its side records would have
nowhere durable to go, and keeping them in memory would lose them silently.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mock_account.stores.base import ConversationStore
from mock_account.stores.batching import BatchingStore
from mock_account.stores.channel_records import ChannelRecords
from mock_account.stores.config_versions import ConfigVersionStore
from mock_account.stores.errors import StoreConfigError
from mock_account.stores.workflow_records import WorkflowStore

StoreT = TypeVar("StoreT", bound=ConversationStore)

#: The registered backends and the package of each (which defines ``SIDE_STORES``).
BACKENDS: dict[str, str] = {
    "memory": "mock_account.stores.memory",
    "sqlite": "mock_account.stores.sqlite",
    "postgres": "mock_account.stores.postgres",
    "redis": "mock_account.stores.redis",
}


@dataclass(frozen=True)
class SideStores(Generic[StoreT]):
    """How one backend makes each side store from one of its conversation stores."""

    channel_records: Callable[[StoreT], ChannelRecords]
    workflow_store: Callable[[StoreT], WorkflowStore]
    config_store: Callable[[StoreT], ConfigVersionStore]


def backing_store(store: ConversationStore) -> ConversationStore:
    """The store that keeps the data: ``store`` itself, or the one a ``BatchingStore`` wraps."""
    return store.inner if isinstance(store, BatchingStore) else store


def side_stores(store: ConversationStore) -> SideStores[Any]:
    """The side-store factories of ``store``'s backend (``StoreConfigError`` if it has none)."""
    inner = backing_store(store)
    backend = getattr(type(inner), "backend", "")
    package = BACKENDS.get(backend)
    if package is None:
        raise StoreConfigError(
            f"a {type(inner).__name__} (backend {backend!r}) keeps no channel records, workflow "
            f"records or configuration history: the backends that do are {', '.join(BACKENDS)}"
        )
    sides = importlib.import_module(package).SIDE_STORES
    if not isinstance(sides, SideStores):
        raise TypeError(f"{package}.SIDE_STORES is a {type(sides).__name__}, not SideStores")
    return sides


def channel_records(store: ConversationStore) -> ChannelRecords:
    """The channel records kept next to ``store``'s conversations."""
    return side_stores(store).channel_records(backing_store(store))


def workflow_store(store: ConversationStore) -> WorkflowStore:
    """The workflow progress, approved actions and outbox kept next to ``store``'s
    conversations."""
    return side_stores(store).workflow_store(backing_store(store))


def config_store(store: ConversationStore) -> ConfigVersionStore:
    """The agents' configuration versions kept next to ``store``'s conversations."""
    return side_stores(store).config_store(backing_store(store))
