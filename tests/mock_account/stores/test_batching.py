"""Group commit (``BatchingStore``): batches form, each request keeps its own compare-and-swap and
its own outcome, and the committer stops on close. The contract itself is checked by the
conformance suite, which runs on every ``+batch`` backend too."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from server_stores import BATCH_BACKENDS, fresh_url, open_or_skip

from mock_account.stores import (
    Committed,
    ConversationStore,
    StoreConfigError,
    StoreError,
    StoreUnavailable,
    VersionConflict,
    open_store,
)
from mock_account.stores.base import CommitOutcome, CommitRequest, IdempotencyRecord
from mock_account.stores.batching import BatchingStore
from mock_account.stores.memory import MemoryStore

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ACCOUNT = "acme"
OWNER = "ada@example.com"


@pytest.fixture(params=BATCH_BACKENDS)
def batching(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BatchingStore]:
    """A fresh batching store over each real backend, opened by URL with its defaults."""
    url, cleanup = fresh_url(request.param, tmp_path)
    store = open_or_skip(url, request.param)
    try:
        assert isinstance(store, BatchingStore)
        yield store
    finally:
        store.close()
        cleanup()


@pytest.fixture(params=BATCH_BACKENDS)
def one_committer(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BatchingStore]:
    """A batching store with one committer thread that every save goes through, so that
    ``Gate`` decides what is batched."""
    backend = request.param.removesuffix("+batch")
    url, cleanup = fresh_url(backend, tmp_path)
    store = BatchingStore(open_or_skip(url, backend), committers=1, solo_direct=False)
    try:
        yield store
    finally:
        store.close()
        cleanup()


class Gate:
    """Holds the committer inside its first batch until released, so that the requests made
    meanwhile queue up and are committed together in the second batch."""

    def __init__(self, store: BatchingStore) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.batches: list[int] = []
        inner_commit = store.inner.commit_runs

        def gated(requests: Sequence[CommitRequest]) -> list[CommitOutcome]:
            self.batches.append(len(requests))
            if len(self.batches) == 1:
                self.entered.set()
                assert self.release.wait(30), "the test never released the gate"
            return inner_commit(requests)

        store.inner.commit_runs = gated  # type: ignore[method-assign]


def _save(
    store: ConversationStore,
    convid: str,
    version: int,
    blob: bytes | None = b"s",
    *,
    owner: str = OWNER,
    now: datetime = T0,
) -> Committed:
    return store.commit_run(
        account=ACCOUNT,
        convid=convid,
        owner=owner,
        expected_version=version,
        blob=blob,
        now=now,
        title_if_new=f"title {convid}".encode(),
    )


def _queued(store: BatchingStore, count: int) -> None:
    """Wait until ``count`` requests wait in the queue (the gate holds the committer)."""
    for _ in range(3000):
        if store.queued >= count:
            return
        time.sleep(0.01)
    raise AssertionError(f"{count} requests never queued up")


def _in_one_batch(
    store: BatchingStore, calls: list[Callable[[], Committed]]
) -> list[Committed | Exception]:
    """Run ``calls`` so that they are committed together, in one batch; their outcomes."""
    gate = Gate(store)
    with ThreadPoolExecutor(max_workers=len(calls) + 1) as pool:
        opener = pool.submit(_save, store, "gate-opener", 0)
        assert gate.entered.wait(30)
        futures: list[Future[Committed]] = [pool.submit(call) for call in calls]
        _queued(store, len(calls))
        gate.release.set()
        opener.result()
        outcomes: list[Committed | Exception] = []
        for future in futures:
            exc = future.exception()
            outcomes.append(future.result() if exc is None else exc)  # type: ignore[arg-type]
    assert gate.batches[:2] == [1, len(calls)]
    return outcomes


def test_concurrent_saves_are_committed_as_one_batch(one_committer: BatchingStore) -> None:
    store = one_committer
    outcomes = _in_one_batch(
        store, [lambda i=i: _save(store, f"c{i}", 0, f"state {i}".encode()) for i in range(8)]
    )
    assert [o.state_version for o in outcomes] == [1] * 8  # type: ignore[union-attr]
    for i in range(8):
        assert one_committer.load(ACCOUNT, f"c{i}").blob == f"state {i}".encode()
    stats = one_committer.stats()
    assert (stats.batches, stats.requests, stats.largest, stats.direct) == (2, 9, 8, 0)
    assert one_committer.check_integrity() == []


def test_a_failing_request_fails_alone(one_committer: BatchingStore) -> None:
    _save(one_committer, "exists", 0, b"original")
    _save(one_committer, "advanced", 0, b"v1")
    naive = datetime(2026, 3, 1, 12, 0)

    outcomes = _in_one_batch(
        one_committer,
        [
            lambda: _save(one_committer, "new", 0, b"new state"),
            lambda: _save(one_committer, "exists", 0, b"overwrite"),  # already there
            lambda: _save(one_committer, "advanced", 1, b"v2"),
            lambda: _save(one_committer, "advanced", 7, b"stale"),  # wrong version
            lambda: _save(one_committer, "missing", 3, b"nowhere"),  # not there
            lambda: _save(one_committer, "exists", 1, b"theirs", owner="eve@example.com"),
            lambda: _save(one_committer, "naive", 0, b"x", now=naive),  # bad input
            lambda: _save(one_committer, "no-time", 0, b"x", now="noon"),  # type: ignore[arg-type]
            lambda: _save(one_committer, "no-state", 0, None),
        ],
    )

    kinds = [type(o).__name__ for o in outcomes]
    assert kinds == [
        "Committed",
        "VersionConflict",
        "Committed",
        "VersionConflict",
        "VersionConflict",
        "VersionConflict",
        "ValueError",
        "AttributeError",
        "Committed",
    ]
    assert one_committer.load(ACCOUNT, "new").blob == b"new state"
    assert one_committer.load(ACCOUNT, "exists").blob == b"original"
    loaded = one_committer.load(ACCOUNT, "advanced")
    assert (loaded.blob, loaded.entry.state_version) == (b"v2", 2)
    assert one_committer.get_entry(ACCOUNT, "missing") is None
    assert one_committer.get_entry(ACCOUNT, "naive") is None
    assert one_committer.get_entry(ACCOUNT, "no-time") is None
    assert one_committer.load(ACCOUNT, "no-state").blob is None
    assert one_committer.check_integrity() == []


def test_two_saves_of_one_conversation_in_a_batch_have_one_winner(
    one_committer: BatchingStore,
) -> None:
    _save(one_committer, "c1", 0, b"v1")
    outcomes = _in_one_batch(
        one_committer, [lambda b=b: _save(one_committer, "c1", 1, b) for b in (b"left", b"right")]
    )
    won = [isinstance(o, Committed) for o in outcomes]
    assert won.count(True) == 1
    assert isinstance(outcomes[won.index(False)], VersionConflict)
    loaded = one_committer.load(ACCOUNT, "c1")
    assert (loaded.blob, loaded.entry.state_version) == ([b"left", b"right"][won.index(True)], 2)


def test_64_threads_racing_on_few_conversations_lose_no_update(batching: BatchingStore) -> None:
    conversations, threads, saves_each = 4, 64, 3
    for c in range(conversations):
        _save(batching, f"busy{c}", 0, b"[]")
    conflicts = [0] * threads

    def worker(worker_id: int) -> None:
        convid = f"busy{worker_id % conversations}"
        done = 0
        while done < saves_each:
            loaded = batching.load(ACCOUNT, convid)
            items = json.loads(loaded.blob) + [f"{worker_id}-{done}"]
            try:
                _save(batching, convid, loaded.entry.state_version, json.dumps(items).encode())
            except VersionConflict:
                conflicts[worker_id] += 1
                continue  # someone saved first: read again and redo the change
            done += 1

    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(worker, range(threads)))  # re-raises any worker failure

    per_conversation = threads // conversations * saves_each
    for c in range(conversations):
        final = batching.load(ACCOUNT, f"busy{c}")
        assert final.entry.state_version == 1 + per_conversation
        writers = [w for w in range(threads) if w % conversations == c]
        assert sorted(json.loads(final.blob)) == sorted(
            f"{w}-{i}" for w in writers for i in range(saves_each)
        )
    stats = batching.stats()
    assert stats.requests + stats.direct == conversations + threads * saves_each + sum(conflicts)
    assert batching.check_integrity() == []


# -- failures of a whole batch, closing ----------------------------------------------------------


class _Unreachable(MemoryStore):
    """A store whose batches fail as a whole, as when the server goes away mid-batch."""

    def __init__(self) -> None:
        super().__init__()
        self.down = True

    def commit_runs(self, requests: Sequence[CommitRequest]) -> list[CommitOutcome]:
        if self.down:
            raise StoreUnavailable("test server is down")
        return super().commit_runs(requests)


def test_a_failed_batch_fails_each_of_its_requests_and_the_committer_goes_on() -> None:
    inner = _Unreachable()
    with BatchingStore(inner, solo_direct=False) as store:
        with ThreadPoolExecutor(max_workers=4) as pool:
            futures = [pool.submit(_save, store, f"c{i}", 0) for i in range(4)]
            errors = [f.exception() for f in futures]
        assert all(isinstance(e, StoreUnavailable) for e in errors)
        assert all("test server is down" in str(e) for e in errors)
        assert len({id(e) for e in errors}) == 4  # each caller raises its own exception

        inner.down = False
        assert _save(store, "c0", 0).state_version == 1


def test_close_commits_what_is_queued_then_stops_the_committer() -> None:
    store = BatchingStore(MemoryStore(), solo_direct=False)
    gate = Gate(store)
    with ThreadPoolExecutor(max_workers=6) as pool:
        first = pool.submit(_save, store, "first", 0)
        assert gate.entered.wait(30)
        queued = [pool.submit(_save, store, f"q{i}", 0) for i in range(4)]
        _queued(store, 4)
        closing = pool.submit(store.close)
        for _ in range(3000):  # close() has queued its stop behind the 4 saves
            if store.queued == 5:
                break
            time.sleep(0.01)
        gate.release.set()
        closing.result()
        assert first.result().state_version == 1
        assert [f.result().state_version for f in queued] == [1, 1, 1, 1]
    assert not store.running
    with pytest.raises(StoreError, match="closed"):
        _save(store, "late", 0)
    store.close()  # a second close does nothing


def test_a_lone_save_goes_straight_to_the_inner_store() -> None:
    with BatchingStore(MemoryStore()) as store:
        assert _save(store, "c1", 0).state_version == 1
        assert _save(store, "c1", 1).state_version == 2
        with pytest.raises(VersionConflict):
            _save(store, "c1", 1)
        stats = store.stats()
        assert (stats.direct, stats.batches, stats.requests) == (3, 0, 0)


def test_other_methods_go_straight_to_the_inner_store() -> None:
    inner = MemoryStore()
    with BatchingStore(inner, max_batch=4) as store:
        _save(store, "c1", 0, b"state")
        assert store.update_entry(ACCOUNT, "c1", pinned=True, last_read=T0 + timedelta(1))
        assert inner.get_entry(ACCOUNT, "c1") == store.get_entry(ACCOUNT, "c1")
        assert [e.convid for e in store.list_pinned(ACCOUNT, OWNER)] == ["c1"]
        kept = IdempotencyRecord(ACCOUNT, "c1", b"r", T0 + timedelta(hours=1))
        assert store.remember("k", kept, T0) is None and inner.recall("k", T0) == kept
        store.replace_blob(ACCOUNT, "c1", expected_version=1, blob=b"rekeyed")
        assert inner.load(ACCOUNT, "c1").blob == b"rekeyed"
        assert store.delete(ACCOUNT, "c1") and inner.get_entry(ACCOUNT, "c1") is None


@pytest.mark.parametrize(
    ("max_batch", "max_wait_us", "committers", "message"),
    [(0, 0, None, "max_batch"), (4, -1, None, "max_wait_us"), (4, 0, 0, "committers")],
)
def test_bad_batching_settings_are_refused(
    max_batch: int, max_wait_us: int, committers: int | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        BatchingStore(
            MemoryStore(), max_batch=max_batch, max_wait_us=max_wait_us, committers=committers
        )


# -- opening by URL ------------------------------------------------------------------------------


def test_batch_option_opens_a_batching_store(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'b.db'}?batch=16&batch_wait_us=0&timeout=5")
    try:
        assert isinstance(store, BatchingStore)
        assert (store.max_batch, store.max_wait_us) == (16, 0)
        assert _save(store, "c1", 0).state_version == 1
    finally:
        store.close()
    assert not store.running
    plain = open_store("memory://")
    assert not isinstance(plain, BatchingStore)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("batch=0", "batch must be positive"),
        ("batch=many", "batch must be a number"),
        ("batch=", "batch is empty"),
        ("batch=8&batch_wait_us=soon", "batch_wait_us must be a whole number"),
        ("batch_wait_us=100", "batch_wait_us needs batch=N"),
        ("batch_committers=2", "batch_committers needs batch=N"),
        ("batch=8&batch_committers=0", "batch_committers must be positive"),
    ],
)
def test_bad_batch_option_is_a_clear_config_error(
    query: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreConfigError, match=message):
        open_store(f"sqlite:///store.db?{query}")
    assert list(tmp_path.iterdir()) == []


def test_server_stores_get_several_committers_and_sqlite_one(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'one.db'}?batch=8") as sqlite_store:
        assert isinstance(sqlite_store, BatchingStore) and sqlite_store.committers == 1
    assert not sqlite_store.running
    with BatchingStore(MemoryStore(), committers=3) as store:
        assert store.committers == 3
        with ThreadPoolExecutor(max_workers=8) as pool:
            saved = list(pool.map(lambda i: _save(store, f"c{i}", 0), range(8)))
        assert [e.state_version for e in saved] == [1] * 8
    assert not store.running
