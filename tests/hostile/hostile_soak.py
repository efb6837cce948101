"""Conversation journeys for the soak test, and the server process's resource samples.

A journey is what a user of the demo does: search, start a conversation, answer the ask,
follow up with another agent (a hand-off), read, rename, pin, list and delete it, with a few
refused requests in between (bad body, unknown conversation, wrong token). Samples read the
server's resident memory and open file descriptors from ``/proc``.
"""

from __future__ import annotations

import os
import socket
import statistics
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from hostile_env import EXPENSES, INVOICE, TRIP

EXEC = "/api/exec/execAgent"


@dataclass(frozen=True)
class Sample:
    """One reading of the server process: seconds since start, RSS in KiB, open fds."""

    at_s: float
    rss_kib: int
    fds: int


def sample(pid: int, at_s: float) -> Sample:
    status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    rss = next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))
    return Sample(at_s, int(rss), len(os.listdir(f"/proc/{pid}/fd")))


def median_of(samples: list[Sample], attribute: str) -> float:
    return float(statistics.median(getattr(s, attribute) for s in samples))


@dataclass
class JourneyTally:
    """Requests sent and answers seen, shared by the journey threads."""

    statuses: Counter[int] = field(default_factory=Counter)
    result_codes: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    journeys: int = 0
    raw_connections: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def requests(self) -> int:
        return sum(self.statuses.values())

    def record(self, what: str, reply: httpx.Response, wanted: int) -> httpx.Response:
        with self.lock:
            self.statuses[reply.status_code] += 1
            if reply.status_code != wanted:
                self.problems.append(
                    f"{what}: {reply.status_code}, wanted {wanted}: {reply.text[:200]}"
                )
        return reply

    def exec(self, client: httpx.Client, body: dict[str, object], wanted: str) -> str | None:
        reply = self.record(f"execAgent {body.get('agentName')}", client.post(EXEC, json=body), 200)
        if reply.status_code != 200:
            return None
        answer = reply.json()
        with self.lock:
            self.result_codes[answer["resultCode"]] += 1
            if answer["resultCode"] != wanted:
                self.problems.append(
                    f"execAgent {body.get('agentName')}: {answer['resultCode']}, wanted {wanted}"
                )
        return answer.get("convid")


#: What a broken or hostile client sends on a raw connection (the server answers 400 or
#: just closes); each must leave no descriptor behind.
RAW_GARBAGE = [
    b"",  # connect and hang up
    b"GARBAGE\r\n\r\n",
    b'POST /api/exec/search HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"q',
    b"POST /api/exec/search HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
    b"GET /health HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"a" * 70_000 + b"\r\n\r\n",
]


def raw_garbage(host: str, port: int, tally: JourneyTally) -> None:
    """Send each kind of garbage on its own connection, read what comes back, hang up."""
    for payload in RAW_GARBAGE:
        with socket.create_connection((host, port), timeout=10) as conn:
            if payload:
                try:
                    conn.sendall(payload)
                    conn.shutdown(socket.SHUT_WR)
                    while conn.recv(65536):
                        pass
                except OSError:
                    pass  # the server may reset a connection it refuses: that is fine
        with tally.lock:
            tally.raw_connections += 1


def journey(client: httpx.Client, tally: JourneyTally, number: int) -> None:
    """One user's conversation from search to deletion (every tenth one is kept)."""
    post = client.post
    tally.record("search", post("/api/exec/search", json={"query": TRIP}), 200)
    convid = tally.exec(
        client, {"agentName": "BookTrip", "inputs": {"query": f"{TRIP} {number}"}}, "ask"
    )
    if convid is None:
        return
    tally.exec(
        client, {"agentName": "BookTrip", "convid": convid, "inputs": {"seat": "aisle"}}, "success"
    )
    tally.record("search follow-up", post("/api/exec/search", json={"query": EXPENSES}), 200)
    tally.exec(
        client,
        {"agentName": "FileExpenses", "convid": convid, "inputs": {"query": EXPENSES}},
        "success",
    )
    tally.exec(
        client,
        {"agentName": "IssueRefund", "convid": convid, "inputs": {"query": INVOICE}},
        "failCommand",
    )
    which = {"convid": convid}
    tally.record("get", post("/api/user/getConversation", json=which), 200)
    tally.record("state", post("/api/harness/getConversationState", json=which), 200)
    tally.record(
        "rename",
        post("/api/user/setConversationTitle", json={**which, "title": f"trip {number}"}),
        200,
    )
    tally.record("pin", post("/api/user/setPinned", json={**which, "pinned": True}), 200)
    tally.record("pinned", post("/api/user/getPinnedConversations", json={}), 200)
    tally.record("unpin", post("/api/user/setPinned", json={**which, "pinned": False}), 200)
    tally.record("recent", post("/api/user/getUnpinnedConversations", json={"limit": 5}), 200)
    tally.record("bad body", post("/api/exec/search", json={"query": 5}), 422)
    tally.record("unknown", post("/api/user/getConversation", json={"convid": "A" * 22}), 404)
    tally.record(
        "no token",
        post("/api/exec/search", json={"query": TRIP}, headers={"Authorization": "Bearer nope"}),
        401,
    )
    if number % 10:
        tally.record("delete", post("/api/user/deleteConversation", json=which), 200)
    with tally.lock:
        tally.journeys += 1
