"""Concurrent follow-ups in one conversation: no lost update, no torn state, losers save nothing.

Many clients send follow-ups to the same conversation at once, first all to one server process,
then spread over two server processes sharing the store. Every call either saves (success) or
is refused because another one finished first (callFailed, nothing saved). Afterwards the
conversation's version is the initial one plus the successes, and its runs are exactly the
initial run and the successful follow-ups, each once.
"""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rel_servers import CONFLICT, cipher_of, client, note, run_queries, servers, state_of
from rel_support import SERVER_BACKENDS, first_token, fresh_store_url, report, restore

from loadtests.server import ServerProcess
from mock_account.stores import open_store

pytestmark = pytest.mark.slow  # real server processes and stores

THREADS = 16
CALLS_PER_THREAD = 5


@dataclass
class Outcome:
    saved: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    other: list[dict[str, Any]] = field(default_factory=list)


def _storm(targets: list[ServerProcess], convid: str, label: str) -> Outcome:
    """THREADS clients, each on its own connection to one of ``targets``, all at once."""
    outcome = Outcome()
    lock = threading.Lock()
    barrier = threading.Barrier(THREADS)

    def worker(number: int) -> None:
        with client(targets[number % len(targets)].url) as http:
            barrier.wait()
            for call in range(CALLS_PER_THREAD):
                query = f"take a note of {label} item {number}-{call}"
                answer = note(http, query, convid)
                with lock:
                    if answer["success"] and answer["convid"] == convid:
                        outcome.saved.append(query)
                    elif answer["resultCode"] == "callFailed" and CONFLICT in str(
                        (answer.get("error") or {}).get("message")
                    ):
                        assert answer["convid"] is None and answer["output"] is None, answer
                        outcome.conflicts.append(query)
                    else:
                        outcome.other.append(answer)

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(worker, range(THREADS)))
    return outcome


def _check(targets: list[ServerProcess], label: str, backend: str, folder: Path, url: str) -> None:
    with client(targets[0].url) as http:
        first = note(http, f"take a note of the {label} plan")
        assert first["resultCode"] == "success", first
        convid = str(first["convid"])
        before = state_of(http, convid)
        outcome = _storm(targets, convid, label)
        after = state_of(http, convid)
    initial = before["record"]["stateVersion"]
    queries = run_queries(after["state"])
    lost = [q for q in outcome.saved if q not in queries]
    leaked = [q for q in outcome.conflicts if q in queries]
    # Read back from the store directly too: the blob decrypts and parses, versions agree.
    user = first_token().user
    store = open_store(url)
    try:
        found = restore(store, cipher_of(folder), user.account, user.email, convid)
        integrity = store.check_integrity()
    finally:
        store.close()
    assert found is not None
    version, _, stored_state = found
    torn = int(stored_state != after["state"] or len(stored_state["runs"]) != version)
    report(
        f"concurrent follow-ups {backend}, {label}: {THREADS * CALLS_PER_THREAD} calls, "
        f"{len(outcome.saved)} saved, {len(outcome.conflicts)} refused as conflicts, "
        f"{len(outcome.other)} other, {len(lost)} lost updates, {len(leaked)} leaked losers, "
        f"{torn} torn states"
    )
    assert outcome.other == []
    assert len(outcome.saved) + len(outcome.conflicts) == THREADS * CALLS_PER_THREAD
    assert after["record"]["stateVersion"] == initial + len(outcome.saved) == version
    assert lost == [] and leaked == [] and torn == 0 and integrity == []
    assert Counter(queries[initial:]) == Counter(outcome.saved)
    assert queries[:initial] == run_queries(before["state"])
    # Both outcomes happened, so the race was really run.
    assert outcome.saved and outcome.conflicts


@pytest.mark.parametrize("backend", SERVER_BACKENDS)
def test_concurrent_follow_ups_never_lose_an_update(backend: str, tmp_path: Path) -> None:
    with fresh_store_url(backend, tmp_path) as url, servers(url, tmp_path, count=2) as running:
        _check(running[:1], "one process", backend, tmp_path, url)
        _check(running, "two processes", backend, tmp_path, url)
