"""Group commit: concurrent saves gathered into batches, one transaction or round trip each.

``BatchingStore`` wraps any ``ConversationStore``. ``commit_run`` hands its request to a
committer thread and waits; the committer takes every request waiting (up to ``max_batch``,
optionally lingering ``max_wait_us`` for more) and saves them with the inner store's
``commit_runs``: one write transaction on SQLite, one pipelined transaction on PostgreSQL, one
pipeline of compare-and-swap scripts on Redis. Batches form by themselves under load: while one
batch commits, the next one queues up. A save made while no other is under way has nothing to
be gathered with: it goes straight to the inner store (``solo_direct``), sparing the hand-off.

SQLite has one committer: it has one writer at a time, so a second would only wait for the lock.
Server backends get several (``DEFAULT_SERVER_COMMITTERS``), so that batches overlap: the server
flushes concurrent commits together, and a single batch in flight would leave it idle between
round trips. Requests for one conversation may then land in two batches at once; each is still
its own compare-and-swap, so one of them wins and the other gets ``VersionConflict``.

Each request keeps its own compare-and-swap and its own outcome: a conflicting or invalid request
fails alone with its own exception while the others are saved. Only a failure of the whole batch
(its transaction could not commit, the backend went away) reaches every request of that batch.
Every other method goes straight to the inner store.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from mock_account.stores import base
from mock_account.stores.errors import StoreError

DEFAULT_MAX_BATCH = 64
DEFAULT_SERVER_COMMITTERS = 4


def default_committers(inner: base.ConversationStore) -> int:
    """Committer threads for ``inner``: one for an embedded store, several for a server."""
    from mock_account.stores.memory import MemoryStore
    from mock_account.stores.sqlite import SqliteStore

    return 1 if isinstance(inner, SqliteStore | MemoryStore) else DEFAULT_SERVER_COMMITTERS


class _Pending:
    """One waiting ``commit_run``: its request, and a lock released once its outcome is set."""

    __slots__ = ("request", "outcome", "shared", "_done")

    def __init__(self, request: base.CommitRequest) -> None:
        self.request = request
        self.outcome: base.CommitOutcome | BaseException | None = None
        self.shared = False  # the outcome is one exception handed to the whole batch
        self._done = threading.Lock()
        self._done.acquire()

    def settle(self, outcome: base.CommitOutcome | BaseException, *, shared: bool = False) -> None:
        self.outcome = outcome
        self.shared = shared
        self._done.release()

    def wait(self) -> None:
        self._done.acquire()


_STOP = object()


@dataclass(frozen=True)
class BatchStats:
    """How the saves were grouped so far."""

    batches: int
    requests: int  # saved in batches
    largest: int
    direct: int  # lone saves that went straight to the inner store

    @property
    def mean_batch(self) -> float:
        return self.requests / self.batches if self.batches else 0.0


def _copy_for_caller(exc: BaseException) -> Exception:
    """A fresh exception per waiting caller: one instance raised in many threads would have its
    traceback rewritten by each of them."""
    if isinstance(exc, StoreError):
        return type(exc)(str(exc))
    return StoreError(f"saving a batch failed: {type(exc).__name__}: {exc}")


class BatchingStore(base.ConversationStore, base.IdempotencyRecords):
    """``inner`` with concurrent ``commit_run`` calls saved in batches by committer threads."""

    def __init__(
        self,
        inner: base.ConversationStore,
        *,
        max_batch: int = DEFAULT_MAX_BATCH,
        max_wait_us: int = 0,
        committers: int | None = None,
        solo_direct: bool = True,
    ) -> None:
        if committers is None:
            committers = default_committers(inner)
        if committers < 1:
            raise ValueError(f"committers must be at least 1, got {committers}")
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, got {max_batch}")
        if max_wait_us < 0:
            raise ValueError(f"max_wait_us must not be negative, got {max_wait_us}")
        self.inner = inner
        self.max_batch = max_batch
        self.max_wait_us = max_wait_us
        self._queue: queue.SimpleQueue[_Pending | object] = queue.SimpleQueue()
        # Held while checking ``_closed`` and enqueueing, so nothing is queued behind _STOP.
        self._gate = threading.Lock()
        self._closed = False
        self._stats_lock = threading.Lock()
        self._batches = self._requests = self._largest = self._direct = 0
        self.committers = committers
        self.solo_direct = solo_direct
        self._inside = 0  # commit_run calls under way, to spot a lone one
        self._inside_lock = threading.Lock()
        self._threads = [
            threading.Thread(
                target=self._run, name=f"group-commit-{type(inner).__name__}-{i}", daemon=True
            )
            for i in range(committers)
        ]
        for thread in self._threads:
            thread.start()

    # -- the committer ---------------------------------------------------------------------------

    def _gather(self, first: _Pending) -> tuple[list[_Pending], bool]:
        """The batch starting with ``first``, and whether this committer was told to stop."""
        batch = [first]
        deadline = time.monotonic() + self.max_wait_us / 1e6
        while len(batch) < self.max_batch:
            try:
                if self.max_wait_us:
                    left = deadline - time.monotonic()
                    item = self._queue.get(timeout=left) if left > 0 else self._queue.get_nowait()
                else:
                    item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is _STOP:
                return batch, True
            assert isinstance(item, _Pending)
            batch.append(item)
        return batch, False

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            assert isinstance(item, _Pending)
            batch, stop = self._gather(item)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Pending]) -> None:
        try:
            outcomes = self.inner.commit_runs([p.request for p in batch])
            if len(outcomes) != len(batch):
                raise StoreError(
                    f"{type(self.inner).__name__}.commit_runs answered {len(outcomes)} of "
                    f"{len(batch)} requests"
                )
        except BaseException as exc:  # the committer must outlive anything a batch raises
            for pending in batch:
                pending.settle(exc, shared=True)
        else:
            for pending, outcome in zip(batch, outcomes, strict=True):
                pending.settle(outcome)
        with self._stats_lock:
            self._batches += 1
            self._requests += len(batch)
            self._largest = max(self._largest, len(batch))

    # -- the batched call ------------------------------------------------------------------------

    def commit(self, request: base.CommitRequest) -> base.Committed:
        with self._inside_lock:
            self._inside += 1
            alone = self._inside == 1 and self.solo_direct
            self._direct += alone
        try:
            if alone:
                if self._closed:
                    raise StoreError("the batching store is closed")
                return self.inner.commit(request)
            return self._through_committer(request)
        finally:
            with self._inside_lock:
                self._inside -= 1

    def _through_committer(self, request: base.CommitRequest) -> base.Committed:
        pending = _Pending(request)
        with self._gate:
            if self._closed:
                raise StoreError("the batching store is closed")
            self._queue.put(pending)
        pending.wait()
        outcome = pending.outcome
        if pending.shared:
            assert isinstance(outcome, BaseException)
            raise _copy_for_caller(outcome) from outcome
        if isinstance(outcome, BaseException):
            raise outcome
        assert isinstance(outcome, base.Committed)
        return outcome

    def commit_runs(self, requests: Sequence[base.CommitRequest]) -> list[base.CommitOutcome]:
        # Already a batch: nothing to gather.
        return self.inner.commit_runs(requests)

    def stats(self) -> BatchStats:
        """Batches committed so far, requests in them, the largest batch, direct saves."""
        with self._stats_lock, self._inside_lock:
            return BatchStats(self._batches, self._requests, self._largest, self._direct)

    @property
    def queued(self) -> int:
        """Requests waiting for a committer (approximate while others come and go)."""
        return self._queue.qsize()

    @property
    def running(self) -> bool:
        """Whether any committer thread is alive (they stop in ``close``)."""
        return any(thread.is_alive() for thread in self._threads)

    def close(self) -> None:
        """Save what is queued, stop the committer, then close the inner store."""
        with self._gate:
            if self._closed:
                return
            self._closed = True
            # Behind every request (the gate is held), one stop per committer.
            for _ in self._threads:
                self._queue.put(_STOP)
        for thread in self._threads:
            thread.join()
        self.inner.close()

    # -- everything else goes straight through ---------------------------------------------------

    def load(self, account: str, convid: str) -> base.StoredState | None:
        return self.inner.load(account, convid)

    def get_entry(self, account: str, convid: str) -> base.ConversationEntry | None:
        return self.inner.get_entry(account, convid)

    def change_entry(self, account: str, convid: str, change: base.EntryChange) -> bool:
        return self.inner.change_entry(account, convid, change)

    def replace_blob(
        self, account: str, convid: str, *, expected_version: int, blob: bytes
    ) -> None:
        self.inner.replace_blob(account, convid, expected_version=expected_version, blob=blob)

    def delete(self, account: str, convid: str) -> bool:
        return self.inner.delete(account, convid)

    def list_pinned(self, account: str, owner: str) -> list[base.ConversationEntry]:
        return self.inner.list_pinned(account, owner)

    def list_recent(
        self, account: str, owner: str, *, limit: int, cursor: str | None
    ) -> tuple[list[base.ConversationEntry], str | None]:
        return self.inner.list_recent(account, owner, limit=limit, cursor=cursor)

    def count_pinned(self, account: str, owner: str) -> int:
        return self.inner.count_pinned(account, owner)

    def iter_entries(self, account: str | None = None) -> Iterator[base.ConversationEntry]:
        return self.inner.iter_entries(account)

    def _records(self) -> base.IdempotencyRecords:
        if not isinstance(self.inner, base.IdempotencyRecords):
            raise StoreError("the batched store keeps no idempotency records")
        return self.inner

    def remember(
        self, key: str, record: base.IdempotencyRecord, now: datetime
    ) -> base.IdempotencyRecord | None:
        return self._records().remember(key, record, now)

    def recall(self, key: str, now: datetime) -> base.IdempotencyRecord | None:
        return self._records().recall(key, now)

    def forget(self, key: str) -> bool:
        return self._records().forget(key)

    def purge_expired(self, now: datetime) -> int:
        return self._records().purge_expired(now)

    def check_integrity(self) -> list[str]:
        return self.inner.check_integrity()
