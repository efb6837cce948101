"""The microsecond histograms of a Locust run, and how they travel from workers to the master.

Every Locust process keeps one :class:`HistogramSet` (``HISTOGRAMS``). Users record into it
(``record_us``). In distributed mode each worker adds its histograms to the stats report it sends
every few seconds (``report_to_master``) and starts afresh; the master merges what arrives
(``worker_report``). The master, or the only process of a local run, writes the merged set to
the file named by ``LOADTEST_HISTOGRAMS_FILE`` after each merge and when the run ends, so
``loadtests run`` can report p50 / p95 / p99 / p99.9 in µs.

Importing this module registers the listeners on ``locust.events`` once per process.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import gevent
from locust import events
from locust.env import Environment
from locust.runners import WorkerRunner

from loadtests.histograms import HistogramSet

HISTOGRAMS_FILE_ENV = "LOADTEST_HISTOGRAMS_FILE"
REPORT_KEY = "loadtests_histograms_us"

HISTOGRAMS = HistogramSet()
_lock = threading.Lock()


def record_us(name: str, value_us: float) -> None:
    """Record one duration in microseconds under ``name``."""
    with _lock:
        HISTOGRAMS.record_us(name, value_us)


def write_histograms(path: Path | None = None) -> Path | None:
    """Write the histograms as JSON (atomically) to ``path`` or the file the environment names."""
    target = path or (Path(p) if (p := os.environ.get(HISTOGRAMS_FILE_ENV)) else None)
    if target is None:
        return None
    with _lock:
        data = HISTOGRAMS.to_dict()
    partial = target.with_name(target.name + ".partial")
    partial.write_text(json.dumps(data))
    partial.replace(target)
    return target


@events.report_to_master.add_listener
def _ship_to_master(client_id: str, data: dict[str, Any], **_: Any) -> None:
    with _lock:
        data[REPORT_KEY] = HISTOGRAMS.to_dict()
        HISTOGRAMS.reset()


@events.worker_report.add_listener
def _merge_from_worker(client_id: str, data: dict[str, Any], **_: Any) -> None:
    shipped = data.get(REPORT_KEY)
    if not shipped:
        return
    with _lock:
        HISTOGRAMS.merge(HistogramSet.from_dict(shipped))
    write_histograms()


def _write_unless_worker(environment: Environment, **_: Any) -> None:
    # A worker's histograms go to the master; writing them would overwrite the merged file.
    if not isinstance(environment.runner, WorkerRunner):
        write_histograms()


@events.init.add_listener
def _refresh_loop_clock(**_: Any) -> None:
    # The event loop caches its clock between iterations. A locustfile that takes a while to
    # import (agent files, states of 1MB) leaves it stale, and Locust's --run-time timer, armed
    # right after this event, would then fire early by the import time.
    gevent.get_hub().loop.update_now()


events.test_stop.add_listener(_write_unless_worker)
events.quitting.add_listener(_write_unless_worker)
