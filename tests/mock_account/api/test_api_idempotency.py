"""``Idempotency-Key`` on execAgent: a retry replays the first answer; the agent runs once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from mock_account.api.errors import IdempotencyInProgress, IdempotencyKeyReused
from mock_account.api.idempotency import IdempotencyGuard, request_hash
from mock_account.deployment import Deployment
from mock_account.stores import open_store

EXEC = "/api/exec/execAgent"
BODY = {"agentName": "InvoiceStatus", "inputs": {"query": "show the open invoice status"}}


def runs_of(client: TestClient, convid: str) -> int:
    state = client.post("/api/harness/getConversationState", json={"convid": convid}).json()
    return len(state["state"]["runs"])


def test_a_retry_replays_the_first_answer_without_running_again(client: TestClient) -> None:
    first = client.post(EXEC, json=BODY, headers={"Idempotency-Key": "order-42"})
    assert first.status_code == 200 and "idempotent-replayed" not in first.headers
    convid = first.json()["convid"]
    follow = {**BODY, "convid": convid}
    once = client.post(EXEC, json=follow, headers={"Idempotency-Key": "follow-1"})
    again = client.post(EXEC, json=follow, headers={"Idempotency-Key": "follow-1"})
    assert again.status_code == 200
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json() == once.json()
    assert runs_of(client, convid) == 2  # the start and one follow-up, not two


def test_the_same_key_with_another_body_is_422(client: TestClient) -> None:
    client.post(EXEC, json=BODY, headers={"Idempotency-Key": "k-1"})
    other = {**BODY, "inputs": {"query": "show the other open invoice"}}
    reply = client.post(EXEC, json=other, headers={"Idempotency-Key": "k-1"})
    assert reply.status_code == 422
    assert reply.json()["error"]["message"] == (
        "This Idempotency-Key was already used for a different request; "
        "send a new key with a new request."
    )


def test_equivalent_bodies_count_as_the_same_request(client: TestClient) -> None:
    first = client.post(EXEC, json=BODY, headers={"Idempotency-Key": "k-2"})
    reordered = {"inputs": BODY["inputs"], "stream": False, "agentName": BODY["agentName"]}
    again = client.post(EXEC, json=reordered, headers={"Idempotency-Key": "k-2"})
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()


def test_keys_belong_to_their_user(client: TestClient, other_client: TestClient) -> None:
    mine = client.post(EXEC, json=BODY, headers={"Idempotency-Key": "shared"}).json()
    theirs = other_client.post(EXEC, json=BODY, headers={"Idempotency-Key": "shared"})
    assert "idempotent-replayed" not in theirs.headers
    assert theirs.json()["convid"] != mine["convid"]


def test_a_failed_run_is_replayed_too(client: TestClient) -> None:
    body = {"agentName": "IssueRefund", "inputs": {"query": "refund the last payment"}}
    first = client.post(EXEC, json=body, headers={"Idempotency-Key": "refund-1"}).json()
    again = client.post(EXEC, json=body, headers={"Idempotency-Key": "refund-1"})
    assert again.headers["idempotent-replayed"] == "true" and again.json() == first


def test_concurrent_duplicates_run_the_agent_once(
    client: TestClient, deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = 0
    release = threading.Event()
    real = deployment.account.exec_agent

    def slow_exec(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        release.wait(5)  # hold the first run so the duplicates arrive while it runs
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(deployment.account, "exec_agent", slow_exec)
    with ThreadPoolExecutor(max_workers=4) as pool:
        replies = [
            pool.submit(client.post, EXEC, json=BODY, headers={"Idempotency-Key": "dup"})
            for _ in range(4)
        ]
        threading.Timer(0.3, release.set).start()
        answers = [r.result() for r in replies]
    assert calls == 1
    assert len({a.text for a in answers}) == 1
    assert sorted(a.headers.get("idempotent-replayed", "no") for a in answers) == [
        "no",
        "true",
        "true",
        "true",
    ]


NOW = datetime(2026, 3, 1, tzinfo=UTC)


def guard(wait_s: float = 0.2) -> IdempotencyGuard:
    return IdempotencyGuard(open_store("memory://"), lambda: NOW, wait_s=wait_s, poll_s=0.01)


def test_guard_waits_for_an_answer_another_process_is_computing() -> None:
    g = guard(wait_s=5)
    name = g.record_key("acme", "a@acme.example", "k")
    wanted = request_hash("/p", {"x": 1})
    # Another worker claimed the key and answers a little later.
    g.store.remember(f"{name}/claim", wanted, b"{}", NOW)
    threading.Timer(0.1, g.store.remember, (f"{name}/answer", wanted, b'{"a":1}', NOW)).start()
    ran = []
    response, replayed = g.run(name, wanted, lambda: ran.append(1) or b"{}")
    assert (response, replayed, ran) == (b'{"a":1}', True, [])


def test_guard_refuses_with_409_when_the_first_never_answers() -> None:
    g = guard()
    name = g.record_key("acme", "a@acme.example", "k")
    wanted = request_hash("/p", {"x": 1})
    g.store.remember(f"{name}/claim", wanted, b"{}", NOW)
    with pytest.raises(IdempotencyInProgress):
        g.run(name, wanted, lambda: b"{}")


def test_guard_refuses_another_request_on_a_claimed_key() -> None:
    g = guard()
    name = g.record_key("acme", "a@acme.example", "k")
    g.store.remember(f"{name}/claim", request_hash("/p", {"x": 1}), b"{}", NOW)
    with pytest.raises(IdempotencyKeyReused):
        g.run(name, request_hash("/p", {"x": 2}), lambda: b"{}")


def test_guard_serves_the_first_answer_when_a_start_was_answered() -> None:
    g = guard()
    name = g.record_key("acme", "a@acme.example", "k")
    wanted = request_hash("/p", {"x": 1})
    assert g.run(name, wanted, lambda: b"first") == (b"first", False)
    assert g.run(name, wanted, lambda: b"second") == (b"first", True)


def test_in_progress_is_answered_409(
    client: TestClient, deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    guard_of_app: IdempotencyGuard = client.app.state.idempotency  # type: ignore[attr-defined]
    monkeypatch.setattr(guard_of_app, "wait_s", 0.1)
    user = deployment.users.users[0]
    name = guard_of_app.record_key(user.account, user.email, "stuck")
    wanted = request_hash(EXEC, {**BODY, "convid": None, "stream": False})
    deployment.account.store.remember(f"{name}/claim", wanted, b"{}", NOW)
    reply = client.post(EXEC, json=BODY, headers={"Idempotency-Key": "stuck"})
    assert reply.status_code == 409
    assert "has not answered yet" in reply.json()["error"]["message"]


def test_request_hash_is_canonical() -> None:
    assert request_hash("/p", {"a": 1, "b": [1, 2]}) == request_hash("/p", {"b": [1, 2], "a": 1})
    assert request_hash("/p", {"a": 1}) != request_hash("/q", {"a": 1})
