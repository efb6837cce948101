"""Store outages: while the store is down requests fail clearly; once it is back the server
recovers by itself and nothing saved before is lost.

A server runs against a private Redis or PostgreSQL (never the machine's shared ones). A client
sends a steady stream of follow-ups; the store is shut down in the middle of it and started
again. While it is down, execAgent answers 200 with ``callFailed`` naming the store and the
conversation list answers 503 with a JSON error; after the restart, follow-ups succeed again
without restarting the server, and the conversation holds every run that was reported saved.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from rel_private import CannotStart, PrivatePostgres, PrivateRedis, private_postgres, private_redis
from rel_servers import client, note, run_queries, servers, state_of
from rel_support import report
from server_stores import unreachable, with_option

from mock_account.stores import open_store

pytestmark = pytest.mark.slow  # real server processes and stores

PACE_S = 0.05  # between two follow-ups of the stream
PHASE_S = 60.0  # the longest any phase may take before the test gives up
SEEN = 3  # results of a kind the stream must see before the next phase


@dataclass
class Stream:
    """A client sending follow-ups one after another, recording every answer."""

    http: httpx.Client
    convid: str
    results: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    broke: BaseException | None = None

    def run(self) -> None:
        number = 0
        try:
            while not self.stop.is_set():
                number += 1
                query = f"take a note of streamed item {number}"
                answer = note(self.http, query, self.convid)
                with self.lock:
                    self.results.append((query, answer))
                time.sleep(PACE_S)
        except BaseException as exc:  # reported by the waits below, not lost with the thread
            self.broke = exc

    def count(self, wanted: Callable[[dict[str, Any]], bool], since: int = 0) -> int:
        with self.lock:
            return sum(wanted(answer) for _, answer in self.results[since:])

    def mark(self) -> int:
        with self.lock:
            return len(self.results)


def _saved(answer: dict[str, Any]) -> bool:
    return bool(answer["success"])


def _store_down(answer: dict[str, Any]) -> bool:
    message = str((answer.get("error") or {}).get("message", ""))
    return answer["resultCode"] == "callFailed" and "store is unavailable" in message


def _wait_for(what: str, stream: Stream, done: Callable[[], bool]) -> float:
    started = time.monotonic()
    while not done():
        assert stream.broke is None, f"the stream broke: {stream.broke!r}"
        assert time.monotonic() - started < PHASE_S, f"gave up waiting for {what}"
        time.sleep(0.05)
    return time.monotonic() - started


@contextmanager
def _private(kind: str) -> Iterator[PrivateRedis | PrivatePostgres]:
    opener = private_redis if kind == "redis" else private_postgres
    with ExitStack() as stack:
        try:
            server: PrivateRedis | PrivatePostgres = stack.enter_context(opener())
        except CannotStart as exc:
            unreachable(f"private {kind}", exc)
            raise
        yield server


def _store_url(kind: str, server: PrivateRedis | PrivatePostgres) -> str:
    if kind == "redis":
        return with_option(server.url, "prefix=outage")
    # Short waits, so that requests during the outage fail in seconds rather than hang.
    return with_option(server.url, "schema=outage&pool_timeout=2&connect_timeout=2")


@pytest.mark.parametrize("kind", ["redis", "postgres"])
def test_server_rides_out_a_store_outage(kind: str, tmp_path: Path) -> None:
    with _private(kind) as store_server:
        url = _store_url(kind, store_server)
        with servers(url, tmp_path) as (server,), client(server.url, timeout=120) as http:
            first = note(http, "take a note of the outage drill")
            assert first["success"], first
            stream = Stream(http=client(server.url, timeout=120), convid=str(first["convid"]))
            worker = threading.Thread(target=stream.run, daemon=True)
            worker.start()
            try:
                _wait_for("saves before the outage", stream, lambda: stream.count(_saved) >= SEEN)
                store_server.stop()
                down_at = stream.mark()
                _wait_for(
                    "failures during the outage",
                    stream,
                    lambda: stream.count(_store_down, down_at) >= SEEN,
                )
                listing = http.post("/api/user/getUnpinnedConversations", json={"limit": 25})
                store_server.start()
                up_at = stream.mark()
                recovery_s = _wait_for(
                    "saves after the restart", stream, lambda: stream.count(_saved, up_at) >= SEEN
                )
            finally:
                stream.stop.set()
                worker.join(PHASE_S)
                stream.http.close()
            state = state_of(http, stream.convid)
            listed = http.post("/api/user/getUnpinnedConversations", json={"limit": 25})
        store = open_store(url)
        try:
            integrity = store.check_integrity()
        finally:
            store.close()

    saved = [q for q, a in stream.results if _saved(a)]
    down = [q for q, a in stream.results if _store_down(a)]
    other = [a for _, a in stream.results if not _saved(a) and not _store_down(a)]
    runs = run_queries(state["state"])[1:]
    lost = [q for q in saved if q not in runs]
    # A save whose reply was cut by the shutdown may have reached the store: the client was
    # told the store was unavailable, not that nothing was saved.
    unclear = [q for q in runs if q not in saved]
    report(
        f"store outage {kind}: {len(stream.results)} follow-ups, {len(saved)} saved, "
        f"{len(down)} refused while the store was down (conversation list: HTTP "
        f"{listing.status_code}), recovered {recovery_s:.1f} s after the restart, "
        f"{len(lost)} saves lost, {len(unclear)} cut-off saves kept"
    )
    assert other == []
    assert listing.status_code == 503, listing.text
    problem = listing.json()
    assert problem["success"] is False and "unavailable" in problem["error"]["message"], problem
    assert lost == [] and set(unclear) <= set(down) and len(unclear) <= 1
    assert runs == [q for q, _ in stream.results if q in saved or q in unclear]
    assert state["record"]["stateVersion"] == len(runs) + 1
    assert listed.status_code == 200
    assert stream.convid in {c["convid"] for c in listed.json()["unpinnedConversations"]}
    assert integrity == []
