"""The registry of side stores: every registered backend gives all three, next to its
conversations; a store of a backend it does not know is refused, never given memory."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from server_stores import PLAIN_BACKENDS

from mock_account.stores import ConversationStore, StoreConfigError
from mock_account.stores.batching import BatchingStore
from mock_account.stores.channel_records import ChannelRecords
from mock_account.stores.config_versions import ConfigVersionStore
from mock_account.stores.memory import MemoryStore
from mock_account.stores.registry import (
    BACKENDS,
    backing_store,
    channel_records,
    config_store,
    workflow_store,
)
from mock_account.stores.workflow_records import WorkflowStore


def test_the_test_backends_are_the_registered_ones() -> None:
    assert sorted(BACKENDS) == sorted(PLAIN_BACKENDS)


def test_every_backend_gives_all_three_side_stores(
    store: ConversationStore, store_url: str
) -> None:
    inner = backing_store(store)
    assert inner.backend in BACKENDS
    assert isinstance(store, BatchingStore) == ("batch=" in store_url)
    assert isinstance(channel_records(store), ChannelRecords)
    assert isinstance(workflow_store(store), WorkflowStore)
    assert isinstance(config_store(store), ConfigVersionStore)


def test_memory_side_stores_are_one_set_per_store() -> None:
    first, second = MemoryStore(), MemoryStore()
    batched = BatchingStore(first)
    try:
        for side_store in (channel_records, workflow_store, config_store):
            assert side_store(first) is side_store(first) is side_store(batched)
            assert side_store(first) is not side_store(second)
    finally:
        batched.close()


class _Elsewhere(MemoryStore):
    """A store of a backend no package keeps side stores for."""

    backend = "elsewhere"


class _Unnamed(MemoryStore):
    """A store that names no backend at all."""

    backend = ""


@pytest.fixture(params=[_Elsewhere, _Unnamed])
def unknown(request: pytest.FixtureRequest) -> Iterator[ConversationStore]:
    store = request.param()
    yield store
    store.close()


@pytest.mark.parametrize("side_store", [channel_records, workflow_store, config_store])
def test_an_unknown_backend_is_refused(
    unknown: ConversationStore, side_store: Callable[[ConversationStore], object]
) -> None:
    with pytest.raises(StoreConfigError, match=type(unknown).__name__):
        side_store(unknown)
    batched = BatchingStore(unknown)  # group commit changes nothing: the inner store decides
    try:
        with pytest.raises(StoreConfigError, match=type(unknown).__name__):
            side_store(batched)
    finally:
        batched.close()
