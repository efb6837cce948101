"""``Idempotency-Key`` on execAgent: a retried request gets the first answer, the agent runs once.

Per user and key the store keeps two insert-if-absent records (``IdempotencyRecords.remember``):

- a *claim*, written before the agent runs, holding the SHA-256 of the canonical request; it
  expires after ``claim_ttl`` (by default the longest a duplicate waits), so a claim whose server
  died before answering stops blocking: the next retry takes it over and runs the agent, once;
- the *answer*, written after it ran: the same hash and the response body, kept for ``ttl``
  (24 hours by default) and removed with the conversation it answered. The claim is then
  removed.

A request finds the answer -> it is replayed (or refused if the body differs). It finds neither
-> it claims the key and runs. It finds only a live claim -> another request with that key is
running (in this process or another worker), so it waits for the answer and replays it; if none
comes in time, it is refused with 409 rather than run a second time. Within one process a
per-key lock makes duplicates wait for each other instead of polling the store.

Nothing readable reaches the store. A record's name is ``execAgent/<lookup key>/claim|answer``,
where the lookup key is a keyed hash (``StateCipher.lookup_keys``) of the account, the user and
the key they sent: the key itself is never stored, and two users may pick the same one. The
record is sealed like the state (AES-256-GCM, purpose ``idempotency``, bound to the user and to
the record's name), so it opens only for that user and that key.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from mock_account.api.errors import IdempotencyInProgress, IdempotencyKeyReused
from mock_account.crypto import InvalidRecord, StateCipher
from mock_account.stores import IdempotencyRecord, IdempotencyRecords, StoreError

log = logging.getLogger(__name__)

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
DEFAULT_TTL = timedelta(hours=24)
_CLAIM = b"C"
_ANSWER = b"A"
_DIGEST = 32


def request_hash(path: str, body: Any) -> str:
    """SHA-256 of the path and the canonical JSON of the (validated) body."""
    canonical = json.dumps(
        {"path": path, "body": body}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _convid_of(response: bytes) -> str:
    """The conversation an execAgent answer names ('' when none)."""
    try:
        convid = json.loads(response).get("convid")
    except (ValueError, AttributeError):
        return ""
    return convid if isinstance(convid, str) else ""


class IdempotencyGuard:
    """Runs a computation at most once per (user, key), replaying its stored answer after."""

    def __init__(
        self,
        store: IdempotencyRecords,
        cipher: StateCipher,
        clock: Callable[[], datetime],
        *,
        wait_s: float,
        ttl: timedelta = DEFAULT_TTL,
        claim_ttl: timedelta | None = None,
        poll_s: float = 0.05,
    ) -> None:
        if not isinstance(store, IdempotencyRecords):
            raise TypeError("the store must keep idempotency records")
        if not isinstance(cipher, StateCipher):
            raise TypeError("the cipher must be a StateCipher")
        if not wait_s > 0 or not poll_s > 0:
            raise ValueError("wait_s and poll_s must be positive")
        claim_ttl = claim_ttl if claim_ttl is not None else timedelta(seconds=wait_s)
        if ttl <= timedelta(0) or claim_ttl <= timedelta(0):
            raise ValueError("idempotency records must live for a positive time")
        self.store = store
        self.cipher = cipher
        self.clock = clock
        self.wait_s = wait_s
        self.ttl = ttl
        self.claim_ttl = claim_ttl
        self.poll_s = poll_s
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.Lock, int]] = {}

    def record_names(self, account: str, owner: str, key: str) -> list[str]:
        """The names a (user, key) is stored under, the current key's first (see module doc)."""
        scoped = f"{account}\0{owner}\0{key}".encode()
        return [f"execAgent/{lookup}" for lookup in self.cipher.lookup_keys(scoped)]

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

    # --- sealed records -------------------------------------------------------------------

    def _seal(self, name: str, owner: str, kind: bytes, wanted_hash: str, body: bytes) -> bytes:
        plain = kind + bytes.fromhex(wanted_hash) + body
        return self.cipher.encrypt(plain, convid=name, owner=owner, purpose="idempotency")

    def _open(
        self, name: str, owner: str, found: IdempotencyRecord | None
    ) -> tuple[str, bytes] | None:
        """``(request hash, body)`` of a stored record; an unreadable one is removed."""
        if found is None:
            return None
        try:
            plain = self.cipher.decrypt(
                found.record, convid=name, owner=owner, purpose="idempotency"
            )
        except InvalidRecord:
            log.warning("an idempotency record could not be opened; it is removed")
            self.store.forget(name)
            return None
        return plain[1 : 1 + _DIGEST].hex(), plain[1 + _DIGEST :]

    def _replay(self, stored: tuple[str, bytes], wanted_hash: str) -> bytes:
        stored_hash, response = stored
        if stored_hash != wanted_hash:
            raise IdempotencyKeyReused(
                f"This {HEADER} was already used for a different request; "
                "send a new key with a new request."
            )
        return response

    def _answer(self, names: list[str], owner: str, now: datetime) -> tuple[str, bytes] | None:
        for name in names:
            found = self._open(f"{name}/answer", owner, self.store.recall(f"{name}/answer", now))
            if found is not None:
                return found
        return None

    # --- the protocol ---------------------------------------------------------------------

    def run(
        self,
        account: str,
        owner: str,
        key: str,
        wanted_hash: str,
        compute: Callable[[], bytes],
    ) -> tuple[bytes, bool]:
        """``(response, replayed)``: the stored answer, or the answer of running ``compute``."""
        names = self.record_names(account, owner, key)
        claim = f"{names[0]}/claim"
        deadline = time.monotonic() + self.wait_s
        with self._key_lock(names[0]):
            while True:
                now = self.clock()
                answered = self._answer(names, owner, now)
                if answered is not None:
                    return self._replay(answered, wanted_hash), True
                held = self._open(claim, owner, self.store.recall(claim, now))
                if held is None:
                    sealed = self._seal(claim, owner, _CLAIM, wanted_hash, b"")
                    record = IdempotencyRecord(account, "", sealed, now + self.claim_ttl)
                    kept = self.store.remember(claim, record, now)
                    if kept is None:
                        return self._compute(names[0], account, owner, wanted_hash, compute), False
                    held = self._open(claim, owner, kept)
                if held is not None:
                    self._replay(held, wanted_hash)  # raises if it is a different request
                if time.monotonic() >= deadline:
                    raise IdempotencyInProgress(
                        f"The first request with this {HEADER} has not answered yet "
                        "(or never will); retry later, or send a new key."
                    )
                time.sleep(self.poll_s)

    def _compute(
        self, name: str, account: str, owner: str, wanted_hash: str, compute: Callable[[], bytes]
    ) -> bytes:
        response = compute()
        try:
            now = self.clock()
            answer = f"{name}/answer"
            sealed = self._seal(answer, owner, _ANSWER, wanted_hash, response)
            record = IdempotencyRecord(account, _convid_of(response), sealed, now + self.ttl)
            self.store.remember(answer, record, now)
            self.store.forget(f"{name}/claim")
        except StoreError as exc:
            # The run happened; its answer still goes to this caller. A retry finds the claim
            # and waits; once the claim expires, it runs the agent again.
            log.warning("idempotent answer not recorded: %s", exc)
        return response
