"""Retries through a failing network: the same Idempotency-Key gets the same answer, and the
agent runs once.

A fault-injecting proxy sits between the client and a real server. It forwards a request and
then loses the answer (or hangs up on the client while the server works); the client sees a
broken connection and retries with the same key. The retry must return the answer the client
never saw (same convid, same output), and the conversation must hold exactly one run of it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from faults import HEAD_END, Fault, FaultProxy
from rel_servers import client, note, run_queries, servers, state_of
from rel_support import report

pytestmark = pytest.mark.slow  # real server processes and stores

ROUNDS = 8


def _body(message: bytes) -> dict[str, Any]:
    head, _, body = message.partition(HEAD_END)
    assert head.startswith(b"HTTP/1.1 200"), head[:80]
    return dict(json.loads(body))


def _lost_then_retried(
    proxy: FaultProxy, fault: Fault, query: str, convid: str | None, key: str | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The answer the client lost and the one its retry got."""
    headers = {"Idempotency-Key": key} if key else None
    proxy.arm(fault)
    # A new client each time: a fault applies to one connection.
    with client(proxy.url) as http, pytest.raises(httpx.TransportError):
        note(http, query, convid, headers)
    with client(proxy.url) as http:
        retried = note(http, query, convid, headers)
    # With HANG_UP the server may still be answering the first request: wait for that answer.
    return _body(proxy.take_lost_answer()), retried


def _same(lost: dict[str, Any], retried: dict[str, Any]) -> bool:
    keys = ("success", "convid", "output", "resultCode")
    return all(lost[k] == retried[k] for k in keys)


def test_retried_requests_run_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store' / 'conversations.db'}"
    dropped = same = twice = 0
    with servers(url, tmp_path) as (server,), FaultProxy(server.port) as proxy:
        for number in range(ROUNDS):
            fault = (Fault.LOSE_RESPONSE, Fault.HANG_UP)[number % 2]
            # A new conversation whose answer is lost: the retry must not start a second one.
            query = f"take a note of retried plan {number}"
            lost, retried = _lost_then_retried(proxy, fault, query, None, f"new-{number}")
            convid = str(retried["convid"])
            dropped, same = dropped + 1, same + _same(lost, retried)
            with client(server.url) as http:
                first_runs = run_queries(state_of(http, convid)["state"])
                listed = http.post("/api/user/getUnpinnedConversations", json={"limit": 25}).json()[
                    "unpinnedConversations"
                ]
            twice += first_runs != [query]
            twice += sum(c["title"] == query for c in listed) != 1
            # A follow-up in it whose answer is lost: the retry must not save it twice.
            follow = f"take a note of retried follow-up {number}"
            lost, retried = _lost_then_retried(proxy, fault, follow, convid, f"follow-{number}")
            dropped, same = dropped + 1, same + _same(lost, retried)
            with client(server.url) as http:
                runs = run_queries(state_of(http, convid)["state"])
            twice += runs != [query, follow]
        # The control: the same loss retried without a key runs the agent twice, which the
        # checks above would have seen.
        control = "take a note of the control follow-up"
        _lost_then_retried(proxy, Fault.LOSE_RESPONSE, control, convid, None)
        with client(server.url) as http:
            control_runs = run_queries(state_of(http, convid)["state"]).count(control)
    report(
        f"retries: {dropped} answers lost by the network, {same} retries answered the same, "
        f"{twice} agents ran twice (control without a key: ran {control_runs} times)"
    )
    assert dropped == 2 * ROUNDS
    assert same == dropped and twice == 0
    assert control_runs == 2
