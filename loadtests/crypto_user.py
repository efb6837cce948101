"""Encryption and decryption of conversation states only: no store, no server.

Each operation is the vault's ``seal_state`` / ``open_state`` of a state's bytes (AES-256-GCM
with the per-conversation key and associated data: the server's own code), reported to Locust as
a request of type ``CRYPTO`` named ``encrypt 16KB`` / ``decrypt 16KB`` and kept in microsecond
histograms.

Run it with:

    locust -f loadtests/crypto_user.py --headless -u 4 -r 4 -t 30s
"""

from __future__ import annotations

import random
import time

from locust import User, between, task

from loadtests.locust_support import record_us
from loadtests.pipeline import BENCH_OWNER, new_convid
from loadtests.settings import env_int, state_sizes, weight
from loadtests.states import build_state, size_label
from mock_account.conversations.vault import open_state, seal_state
from mock_account.crypto import Keyring, StateCipher
from mock_account.engine.state import serialize_state

SIZES = state_sizes()
PLAINTEXTS = {size: serialize_state(build_state(size)) for size in SIZES}


class CryptoUser(User):
    """Encrypts and decrypts states of its own conversation."""

    wait_time = between(
        env_int("LOADTEST_THINK_MIN_MS", 0) / 1000, env_int("LOADTEST_THINK_MAX_MS", 50) / 1000
    )

    def on_start(self) -> None:
        self.rng = random.Random()
        self.cipher = StateCipher(Keyring.generate())
        self.convid = new_convid()
        self.records = {size: self._seal(PLAINTEXTS[size]) for size in SIZES}

    def _seal(self, plain: bytes) -> bytes:
        return seal_state(self.cipher, plain, convid=self.convid, owner=BENCH_OWNER)

    def _timed(self, operation: str, size: int) -> None:
        name = f"{operation} {size_label(size)}"
        exception: Exception | None = None
        start = time.perf_counter_ns()
        try:
            if operation == "encrypt":
                self.records[size] = self._seal(PLAINTEXTS[size])
            else:
                open_state(self.cipher, self.records[size], convid=self.convid, owner=BENCH_OWNER)
        except Exception as exc:  # reported to Locust as this request's failure
            exception = exc
        elapsed_us = (time.perf_counter_ns() - start) / 1000.0
        if exception is None:
            record_us(name, elapsed_us)
        self.environment.events.request.fire(
            request_type="CRYPTO",
            name=name,
            response_time=elapsed_us / 1000.0,
            response_length=len(PLAINTEXTS[size]),
            exception=exception,
            context={},
        )

    @task(weight("encrypt", 1))
    def encrypt(self) -> None:
        self._timed("encrypt", self.rng.choice(SIZES))

    @task(weight("decrypt", 1))
    def decrypt(self) -> None:
        self._timed("decrypt", self.rng.choice(SIZES))
