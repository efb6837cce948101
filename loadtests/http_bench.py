"""``loadtests bench-http``: requests/s and latency of execAgent over real HTTP.

Starts ``mock-account serve`` on a free loopback port (``--workers`` uvicorn workers; SQLite in a
temporary folder unless ``--store`` / ``--data-dir`` say otherwise), then ``--concurrency``
threads, each with its own keep-alive connection and user, run conversations: a travel request,
then follow-ups that hand off to other departments' agents (answering any ask with its
defaults), until ``--requests`` execAgent calls were made. Prints throughput, client-side
p50 / p99, and the server's own phase times from ``Server-Timing``; stops the server. Exit 1 if
any request failed.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx
import numpy as np

from loadtests.engine_bench import CONVERSATION_LENGTH, FOLLOWUPS
from loadtests.server import ServerProcess
from mock_account.api.timing import PHASES, parse_server_timing
from mock_account.deployment import DEFAULT_SEED
from mock_account.users import UserDirectory

REQUEST_TIMEOUT_S = 60.0


@dataclass
class Results:
    """What the client threads measured (appends are atomic under the GIL)."""

    seconds: list[float] = field(default_factory=list)
    followups: list[float] = field(default_factory=list)
    phases: dict[str, list[float]] = field(default_factory=lambda: {p: [] for p in PHASES})
    failures: list[str] = field(default_factory=list)


class Budget:
    """A shared, bounded count of requests still to send."""

    def __init__(self, total: int) -> None:
        self._left = total
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self._left <= 0:
                return False
            self._left -= 1
            return True


def _answers(ask_input: dict[str, Any]) -> dict[str, Any]:
    return {
        i["name"]: i.get("default") or (i.get("options") or ["yes, please go ahead"])[0]
        for i in ask_input.get("inputs", [])
    }


def _conversations(
    client: httpx.Client, routes: dict[str, str], budget: Budget, results: Results
) -> None:
    convid: str | None = None
    step = 0
    pending: dict[str, Any] | None = None  # the next body when answering an ask

    def call(body: dict[str, Any]) -> dict[str, Any] | None:
        started = time.perf_counter()
        try:
            response = client.post("/api/exec/execAgent", json=body)
        except httpx.HTTPError as exc:
            results.failures.append(f"{type(exc).__name__}: {exc}")
            return None
        elapsed = time.perf_counter() - started
        results.seconds.append(elapsed)
        if "convid" in body:
            results.followups.append(elapsed)
        for name, ms in parse_server_timing(response.headers.get("server-timing", "")).items():
            results.phases.setdefault(name, []).append(ms)
        reply = response.json() if response.status_code == 200 else None
        if reply is None or not reply.get("success"):
            detail = reply.get("error") if reply else response.text[:200]
            results.failures.append(f"{response.status_code} {detail}")
            return None
        return reply

    while budget.take():
        if pending is not None:
            body, pending = pending, None
        else:
            if step % CONVERSATION_LENGTH == 0:
                convid = None
            query = FOLLOWUPS[step % len(FOLLOWUPS)]
            step += 1
            body = {"agentName": routes[query], "inputs": {"query": query}}
            if convid:
                body["convid"] = convid
        reply = call(body)
        if reply is None:
            convid = None
            continue
        convid = reply["convid"]
        if reply["resultCode"] == "ask":
            pending = {
                "agentName": body["agentName"],
                "convid": convid,
                "inputs": _answers(reply["askInput"]),
            }


def _routes(client: httpx.Client) -> dict[str, str]:
    routes = {}
    for query in FOLLOWUPS:
        reply = client.post("/api/exec/search", json={"query": query}).raise_for_status().json()
        if not reply["searchResults"]:
            raise RuntimeError(f"no agent matches the benchmark request {query!r}")
        routes[query] = reply["searchResults"][0]["agentName"]
    return routes


def _ms(values: list[float], scale: float = 1000.0) -> str:
    if not values:
        return "p50        -    p99        -"
    arr = np.asarray(values) * scale
    return f"p50 {np.percentile(arr, 50):8.3f}   p99 {np.percentile(arr, 99):8.3f}"


def run_http_bench(
    *,
    requests: int,
    concurrency: int,
    workers: int = 1,
    store_url: str | None = None,
    account_dir: str | None = None,
    data_dir: str | None = None,
    out: Callable[[str], None] = print,
) -> int:
    """Run the benchmark and print its figures; 0 if every request succeeded, else 1."""
    if requests < 1 or concurrency < 1 or workers < 1:
        raise ValueError("--requests, --concurrency and --workers must be at least 1")
    with tempfile.TemporaryDirectory(prefix="bench-http-") as tmp:
        args = ["--data-dir", data_dir or tmp, "--workers", str(workers), "--log-level", "warning"]
        if store_url:
            args += ["--store", store_url]
        if account_dir:
            args += ["--account-dir", account_dir]
        users = UserDirectory.generate(DEFAULT_SEED).tokens()
        results = Results()
        with ServerProcess(args) as server:
            health = httpx.get(f"{server.url}/health").json()
            clients = [
                httpx.Client(
                    base_url=server.url,
                    headers={"Authorization": f"Bearer {users[i % len(users)].token}"},
                    timeout=REQUEST_TIMEOUT_S,
                )
                for i in range(concurrency)
            ]
            try:
                routes = _routes(clients[0])
                budget = Budget(requests)
                started = time.perf_counter()
                with ThreadPoolExecutor(max_workers=concurrency) as pool:
                    jobs = [
                        pool.submit(_conversations, c, routes, budget, results) for c in clients
                    ]
                    for job in jobs:
                        job.result()
                wall = time.perf_counter() - started
            finally:
                for client in clients:
                    client.close()
    done = len(results.seconds)
    out(
        f"bench-http: {done} execAgent requests, concurrency {concurrency}, {workers} worker(s), "
        f"{health['agents']} agents, store {health['store']}"
    )
    out(f"  throughput  {done / wall:8.1f} requests/s  ({wall:.2f} s)")
    out(f"  all (ms)        {_ms(results.seconds)}")
    out(f"  follow-ups (ms) {_ms(results.followups)}")
    for phase in PHASES:
        out(f"  server {phase:8} (ms) {_ms(results.phases.get(phase, []), scale=1.0)}")
    out(f"  failures    {len(results.failures)}")
    for failure in results.failures[:5]:
        out(f"    {failure}")
    return 1 if results.failures else 0
