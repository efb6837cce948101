"""Soak: conversation journeys against a real server process; memory and descriptors stay flat.

``mock-account serve`` runs as a child process with an SQLite store in a temporary folder.
Two client threads run journeys (one keeps its connection, one opens a new one per journey
and follows it with raw connections carrying malformed HTTP)
for ``SOAK_SECONDS`` (default 30; set it higher for a longer soak) while the server's VmRSS
and open file descriptors are sampled every second or more. After a warm-up, the median of the
last samples may exceed the median of the first post-warm-up samples by less than 15 % (RSS)
and at most 5 (fds). Thirty seconds are some thousands of requests and hundreds of new
connections: a descriptor kept per connection, or memory kept per request (about 10 KiB each), is
past those limits well before the end; a longer soak finds smaller leaks.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import httpx
import pytest
from hostile_env import write_account
from hostile_soak import JourneyTally, Sample, journey, median_of, raw_garbage, sample

from loadtests.server import ServerProcess
from mock_account.users import UserDirectory

SOAK_SECONDS = float(os.environ.get("SOAK_SECONDS", "30"))
SAMPLE_EVERY_S = max(1.0, SOAK_SECONDS / 30)
WARM_UP_S = SOAK_SECONDS / 4
COMPARED = 3  # samples whose median is compared, at each end
RSS_GROWTH_LIMIT = 0.15
FD_GROWTH_LIMIT = 5


def server_pid(server: ServerProcess) -> int:
    process = server._process  # the child itself: serve runs one process without --workers
    assert process is not None
    return process.pid


@pytest.mark.slow
def test_soak_keeps_memory_and_descriptors_flat(tmp_path: Path) -> None:
    account = write_account(tmp_path / "account")
    args = [
        "--store",
        f"sqlite:///{tmp_path / 'soak.db'}",
        "--data-dir",
        str(tmp_path),
        "--account-dir",
        str(account),
        "--log-level",
        "warning",
    ]
    tokens = [t.token for t in UserDirectory.generate().tokens()]
    tally = JourneyTally()
    samples: list[Sample] = []
    stop = threading.Event()
    with ServerProcess(args, startup_s=90) as server:
        pid = server_pid(server)

        def keep_alive(token: str) -> None:
            with httpx.Client(
                base_url=server.url, timeout=30, headers={"Authorization": f"Bearer {token}"}
            ) as client:
                number = 0
                while not stop.is_set():
                    number += 1
                    journey(client, tally, number)

        def new_connections(token: str) -> None:
            number = 0
            while not stop.is_set():
                number += 1
                with httpx.Client(
                    base_url=server.url, timeout=30, headers={"Authorization": f"Bearer {token}"}
                ) as client:
                    journey(client, tally, number)
                raw_garbage(server.host, server.port, tally)

        errors: list[BaseException] = []

        def guarded(target: object, token: str) -> threading.Thread:
            def run() -> None:
                try:
                    target(token)  # type: ignore[operator]
                except BaseException as exc:  # reported by the test thread
                    errors.append(exc)
                    stop.set()

            return threading.Thread(target=run, daemon=True)

        workers = [guarded(keep_alive, tokens[0]), guarded(new_connections, tokens[4])]
        started = time.monotonic()
        for worker in workers:
            worker.start()
        while (elapsed := time.monotonic() - started) < SOAK_SECONDS and not stop.is_set():
            samples.append(sample(pid, elapsed))
            stop.wait(SAMPLE_EVERY_S)
        samples.append(sample(pid, time.monotonic() - started))
        stop.set()
        for worker in workers:
            worker.join(60)
        duration = time.monotonic() - started
        assert server._process is not None and server._process.poll() is None, server.log_tail()
        log = server.log_tail(50)
    assert errors == [], errors
    settled = [s for s in samples if s.at_s >= WARM_UP_S]
    assert len(settled) >= 2 * COMPARED, f"too few samples after the warm-up: {samples}"
    first, last = settled[:COMPARED], settled[-COMPARED:]
    rss_first, rss_last = median_of(first, "rss_kib"), median_of(last, "rss_kib")
    fds_first, fds_last = median_of(first, "fds"), median_of(last, "fds")
    rss_growth = (rss_last - rss_first) / rss_first
    statuses = ", ".join(f"{s}x{n}" for s, n in sorted(tally.statuses.items()))
    print(
        f"\nHOSTILE soak: {duration:.0f} s, {tally.journeys} journeys, {tally.requests} requests "
        f"({tally.requests / duration:.0f}/s; statuses {statuses}; result codes "
        f"{dict(tally.result_codes)}), {tally.raw_connections} raw garbage connections, "
        f"{len(samples)} samples; after {WARM_UP_S:.0f} s warm-up "
        f"RSS {rss_first / 1024:.1f} -> {rss_last / 1024:.1f} MiB ({rss_growth:+.1%}), "
        f"fds {fds_first:.0f} -> {fds_last:.0f}; peak RSS "
        f"{max(s.rss_kib for s in samples) / 1024:.1f} MiB"
    )
    assert tally.problems == [], tally.problems[:10]
    assert "Traceback" not in log, log
    assert tally.journeys > 0
    assert rss_growth < RSS_GROWTH_LIMIT
    assert fds_last - fds_first <= FD_GROWTH_LIMIT
