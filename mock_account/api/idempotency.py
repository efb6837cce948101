"""``Idempotency-Key`` on execAgent: a retried request gets the first answer, the agent runs once.

Per user and key the store keeps two insert-if-absent records (``ConversationStore.remember``):

- a *claim*, written before the agent runs, with the SHA-256 of the canonical request;
- the *answer*, written after it ran: the same hash and the response body.

A request finds the answer -> it is replayed (or refused if the body differs). It finds neither
-> it claims the key and runs. It finds only a claim -> another request with that key is running
(in this process or another worker), so it waits for the answer and replays it; if none comes in
time, it is refused with 409 rather than run a second time. Within one process a per-key lock
makes duplicates wait for each other instead of polling the store.

A key is scoped to the user (two users may pick the same key) and stored hashed, so it may hold
any visible ASCII characters.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from mock_account.api.errors import IdempotencyInProgress, IdempotencyKeyReused
from mock_account.stores import IdempotencyRecords, StoreError

log = logging.getLogger(__name__)

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
CLAIM_MARKER = b'{"pending":true}'


def request_hash(path: str, body: Any) -> str:
    """SHA-256 of the path and the canonical JSON of the (validated) body."""
    canonical = json.dumps(
        {"path": path, "body": body}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class IdempotencyGuard:
    """Runs a computation at most once per (scope, key), replaying its stored answer after."""

    def __init__(
        self,
        store: IdempotencyRecords,
        clock: Callable[[], datetime],
        *,
        wait_s: float,
        poll_s: float = 0.05,
    ) -> None:
        self.store = store
        self.clock = clock
        self.wait_s = wait_s
        self.poll_s = poll_s
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.Lock, int]] = {}

    @staticmethod
    def record_key(account: str, owner: str, key: str) -> str:
        scoped = hashlib.sha256(f"{account}\0{owner}\0{key}".encode()).hexdigest()
        return f"execAgent/{scoped}"

    @contextmanager
    def _key_lock(self, name: str) -> Iterator[None]:
        with self._guard:
            lock, users = self._locks.get(name, (threading.Lock(), 0))
            self._locks[name] = (lock, users + 1)
        try:
            with lock:
                yield
        finally:
            with self._guard:
                lock, users = self._locks[name]
                if users == 1:
                    del self._locks[name]
                else:
                    self._locks[name] = (lock, users - 1)

    def _replay(self, stored: tuple[str, bytes], wanted_hash: str) -> bytes:
        stored_hash, response = stored
        if stored_hash != wanted_hash:
            raise IdempotencyKeyReused(
                f"This {HEADER} was already used for a different request; "
                "send a new key with a new request."
            )
        return response

    def _wait_for_answer(self, name: str, wanted_hash: str) -> bytes:
        deadline = time.monotonic() + self.wait_s
        while time.monotonic() < deadline:
            stored = self.store.recall(f"{name}/answer")
            if stored is not None:
                return self._replay(stored, wanted_hash)
            time.sleep(self.poll_s)
        raise IdempotencyInProgress(
            f"The first request with this {HEADER} has not answered yet (or never will); "
            "retry later, or send a new key."
        )

    def run(self, name: str, wanted_hash: str, compute: Callable[[], bytes]) -> tuple[bytes, bool]:
        """``(response, replayed)``: the stored answer, or the answer of running ``compute``."""
        with self._key_lock(name):
            stored = self.store.recall(f"{name}/answer")
            if stored is not None:
                return self._replay(stored, wanted_hash), True
            claimed = self.store.remember(f"{name}/claim", wanted_hash, CLAIM_MARKER, self.clock())
            if claimed is not None:
                if claimed[0] != wanted_hash:
                    self._replay(claimed, wanted_hash)  # raises: a different request
                return self._wait_for_answer(name, wanted_hash), True
            response = compute()
            try:
                first = self.store.remember(f"{name}/answer", wanted_hash, response, self.clock())
            except StoreError as exc:
                # The run happened; its answer still goes to this caller. A retry will find
                # only the claim and be refused with 409 instead of running the agent again.
                log.warning("idempotent answer not recorded: %s", exc)
                return response, False
            # Only this request holds the claim, so nobody else can have answered first.
            return (first[1] if first is not None else response), False
