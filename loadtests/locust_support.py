"""What a Locust run's processes share: µs histograms, agent runs, and each user's number.

Every Locust process keeps one :class:`HistogramSet` (``HISTOGRAMS``) and one count of the agents
its journeys ran (``AGENT_RUNS``). Users record into them (``record_us``, ``count_agent_run``). In
distributed mode each worker adds both to the stats report it sends every few seconds
(``report_to_master``) and starts afresh; the master merges what arrives (``worker_report``).
The master, or the only process of a local run, writes the merged histograms to the file named by
``LOADTEST_HISTOGRAMS_FILE`` and the agent runs to ``LOADTEST_AGENT_RUNS_FILE`` after each merge
and when the run ends, so ``loadtests run`` can report p50 / p95 / p99 / p99.9 in µs and which
agents the journeys reached.

Workers number their users from 0 each; ``run_user_number`` gives a user its number in the whole
run (``LOADTEST_WORKERS``: how many workers there are), so tokens taken in turn are spread over
every process.

Importing this module registers the listeners on ``locust.events`` once per process.
"""

from __future__ import annotations

import json
import os
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import gevent
from locust import events
from locust.env import Environment
from locust.runners import WorkerRunner

from loadtests.histograms import HistogramSet
from loadtests.identities import redact
from loadtests.settings import AGENT_RUNS_FILE_ENV, HISTOGRAMS_FILE_ENV, WORKERS_ENV, env_int

REPORT_KEY = "loadtests_histograms_us"
AGENT_RUNS_KEY = "loadtests_agent_runs"

HISTOGRAMS = HistogramSet()
AGENT_RUNS: Counter[str] = Counter()
_lock = threading.Lock()


def record_us(name: str, value_us: float) -> None:
    """Record one duration in microseconds under ``name``."""
    with _lock:
        HISTOGRAMS.record_us(name, value_us)


def count_agent_run(agent: str) -> None:
    """Count a journey step that ran ``agent`` (whichever agent the server's search chose)."""
    with _lock:
        AGENT_RUNS[agent] += 1


def fail(response: Any, message: str) -> None:
    """Mark a request failed with ``message``, any token in it (a server may quote what it was
    sent) replaced, so no token reaches Locust's reports."""
    response.failure(redact(message))


def status_problem(response: Any) -> str:
    """What went wrong with a response that is not a 200: the status and the start of the body,
    or, when no answer came (Locust's status 0), why (a refused connection, a certificate that
    does not verify...)."""
    if response.status_code == 0:
        return f"no answer: {getattr(response, 'error', None) or 'the connection failed'}"
    return f"HTTP {response.status_code}: {(response.text or '')[:200]}"


def run_user_number(environment: Environment, local_number: int) -> int:
    """The number of a process's ``local_number``-th user in the whole run."""
    runner = environment.runner
    if not isinstance(runner, WorkerRunner):
        return local_number
    return local_number * env_int(WORKERS_ENV, 1, minimum=1) + max(runner.worker_index, 0)


def _write_atomically(target: Path, data: Any) -> None:
    partial = target.with_name(target.name + ".partial")
    partial.write_text(json.dumps(data))
    partial.replace(target)


def write_histograms(path: Path | None = None) -> Path | None:
    """Write the histograms as JSON (atomically) to ``path`` or the file the environment names,
    and the agent runs to theirs when the environment names one."""
    target = path or (Path(p) if (p := os.environ.get(HISTOGRAMS_FILE_ENV)) else None)
    runs_file = os.environ.get(AGENT_RUNS_FILE_ENV)
    with _lock:
        histograms, runs = HISTOGRAMS.to_dict(), dict(AGENT_RUNS)
    if runs_file:
        _write_atomically(Path(runs_file), runs)
    if target is None:
        return None
    _write_atomically(target, histograms)
    return target


@events.report_to_master.add_listener
def _ship_to_master(client_id: str, data: dict[str, Any], **_: Any) -> None:
    with _lock:
        data[REPORT_KEY] = HISTOGRAMS.to_dict()
        data[AGENT_RUNS_KEY] = dict(AGENT_RUNS)
        HISTOGRAMS.reset()
        AGENT_RUNS.clear()


@events.worker_report.add_listener
def _merge_from_worker(client_id: str, data: dict[str, Any], **_: Any) -> None:
    shipped, runs = data.get(REPORT_KEY), data.get(AGENT_RUNS_KEY)
    if not shipped and not runs:
        return
    with _lock:
        if shipped:
            HISTOGRAMS.merge(HistogramSet.from_dict(shipped))
        AGENT_RUNS.update(runs or {})
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
