"""State save and restore straight against a store, in process, at sizes from 1 KB to 1 MB.

Each simulated user owns one conversation per state size on the store named by
``LOADTEST_STORE_URL`` (default: a temporary SQLite file per process) and saves or restores
it: serialize + encrypt + compare-and-swap write, or read + decrypt + parse, exactly as the agent
server does (``loadtests.pipeline``). Each operation is reported to Locust as a request of type
``STATE`` named ``save 16KB`` / ``restore 16KB``, and its stages go into microsecond histograms
(see ``locust_support``).

Run it with:

    locust -f loadtests/store_user.py --headless -u 10 -r 5 -t 30s
"""

from __future__ import annotations

import atexit
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from locust import User, between, task

from loadtests.locust_support import record_us
from loadtests.pipeline import StageTimes, StatePipeline, new_convid
from loadtests.settings import env_int, state_sizes, weight
from loadtests.states import build_state, size_label
from mock_account.stores import ConversationStore, open_store

SIZES = state_sizes()
STATES = {size: build_state(size) for size in SIZES}
_store: ConversationStore | None = None


def shared_store() -> ConversationStore:
    """The process's store, opened on first use (one connection pool for every user)."""
    global _store
    if _store is None:
        url = os.environ.get("LOADTEST_STORE_URL")
        if not url:
            folder = Path(tempfile.mkdtemp(prefix="loadtests-store-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            url = f"sqlite:///{folder / 'store.db'}"
        _store = open_store(url)
        atexit.register(_store.close)
    return _store


class InProcessUser(User):
    """A user whose requests are function calls timed here and reported as Locust requests."""

    abstract = True
    wait_time = between(
        env_int("LOADTEST_THINK_MIN_MS", 0) / 1000, env_int("LOADTEST_THINK_MAX_MS", 50) / 1000
    )

    def report(self, request_type: str, name: str, func: Callable[[], Any]) -> Any:
        """Run ``func`` and fire Locust's request event with its time in (fractional) ms."""
        start = time.perf_counter()
        result: Any = None
        length = 0
        exception: BaseException | None = None
        try:
            result = func()
            length = getattr(result, "plain_bytes", 0) or (
                len(result) if isinstance(result, bytes | bytearray) else 0
            )
        except Exception as exc:  # reported to Locust as this request's failure
            exception = exc
        self.environment.events.request.fire(
            request_type=request_type,
            name=name,
            response_time=(time.perf_counter() - start) * 1000.0,
            response_length=length,
            exception=exception,
            context={},
        )
        return result


class StateStoreUser(InProcessUser):
    """Saves and restores its conversations' states on the store."""

    def on_start(self) -> None:
        self.rng = random.Random()
        self.pipeline = StatePipeline(shared_store())
        self.convids = {size: new_convid() for size in SIZES}
        self.versions = dict.fromkeys(SIZES, 0)
        for size in SIZES:
            self.save(size)

    def on_stop(self) -> None:
        for convid in self.convids.values():
            self.pipeline.delete(convid)

    def save(self, size: int) -> None:
        def run() -> StageTimes:
            times = self.pipeline.save(self.convids[size], STATES[size], self.versions[size])
            self.versions[size] += 1
            return times

        times = self.report("STATE", f"save {size_label(size)}", run)
        if isinstance(times, StageTimes):
            self._record("save", size, times)

    def restore(self, size: int) -> None:
        if self.versions[size] == 0:
            self.save(size)
            return
        result = self.report(
            "STATE",
            f"restore {size_label(size)}",
            lambda: self.pipeline.restore(self.convids[size])[1],
        )
        if isinstance(result, StageTimes):
            self._record("restore", size, result)

    @staticmethod
    def _record(operation: str, size: int, times: StageTimes) -> None:
        label = size_label(size)
        record_us(f"{operation} {label}", times.total_us)
        for stage, value in times.stages.items():
            record_us(f"{operation} {label} {stage}", value)

    @task(weight("save", 1))
    def save_state(self) -> None:
        self.save(self.rng.choice(SIZES))

    @task(weight("restore", 1))
    def restore_state(self) -> None:
        self.restore(self.rng.choice(SIZES))
