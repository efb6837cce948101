"""Work the demo does once per process in a background thread, with a stage to show meanwhile.

The embedded account takes seconds to load (its code, the store, 200 agents, the mock world);
the first screen paints at once and says which stage the loading is at. Standard library
only: the first screen imports this before anything heavy.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["BackgroundJob", "forget", "started"]


class BackgroundJob:
    """One piece of work running (or run) in its own thread."""

    def __init__(self, key: str, stage: str) -> None:
        self.key = key
        self.stage = stage
        self._finished = threading.Event()
        self._result: Any = None
        self._error: BaseException | None = None

    @property
    def done(self) -> bool:
        """Whether the work has finished, successfully or not."""
        return self._finished.is_set()

    def report(self, stage: str) -> None:
        """Say what the work is doing now (shown while it runs)."""
        self.stage = stage

    def result(self, timeout: float | None = None) -> Any:
        """What the work returned, once it has; the work's own exception if it raised one."""
        if not self._finished.wait(timeout):
            raise TimeoutError(f"{self.key} is still running ({self.stage})")
        if self._error is not None:
            raise self._error
        return self._result

    def _run(self, work: Callable[[BackgroundJob], Any]) -> None:
        try:
            self._result = work(self)
        except Exception as exc:  # kept for result(), which raises it in the caller's thread
            self._error = exc
        finally:
            self._finished.set()


_jobs: dict[str, BackgroundJob] = {}
_lock = threading.Lock()


def started(key: str, work: Callable[[BackgroundJob], Any], stage: str) -> BackgroundJob:
    """The job under ``key``: the one already started in this process, or ``work`` started now.

    ``work`` gets its job, to ``report`` its stages; ``stage`` is what it does first.
    """
    with _lock:
        job = _jobs.get(key)
        if job is None:
            job = _jobs[key] = BackgroundJob(key, stage)
            threading.Thread(target=job._run, args=(work,), name=key, daemon=True).start()
        return job


def forget(job: BackgroundJob) -> None:
    """Drop ``job`` (one that failed), so that the next ``started`` tries again."""
    with _lock:
        if _jobs.get(job.key) is job:
            del _jobs[job.key]
