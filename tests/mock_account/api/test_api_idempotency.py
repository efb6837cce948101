"""``Idempotency-Key`` on execAgent: a retry replays the first answer; the agent runs once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mock_account.api.errors import IdempotencyInProgress, IdempotencyKeyReused
from mock_account.api.idempotency import IdempotencyGuard, request_hash
from mock_account.crypto import (
    Keyring,
    StateCipher,
    load_keyring_file,
    load_or_create_keyring,
    rotate_keyring_file,
)
from mock_account.deployment import Deployment
from mock_account.stores.memory import MemoryStore

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
ACME, ADA = "acme", "a@acme.example"


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


def guard(
    wait_s: float = 0.2, clock: Clock | None = None, store: MemoryStore | None = None
) -> IdempotencyGuard:
    return IdempotencyGuard(
        store or MemoryStore(),
        StateCipher(Keyring.generate()),
        clock or Clock(),
        wait_s=wait_s,
        ttl=timedelta(hours=24),
        claim_ttl=timedelta(seconds=30),
        poll_s=0.01,
    )


def died() -> bytes:
    raise RuntimeError("the server died while the agent ran")


def claim_and_die(g: IdempotencyGuard, wanted: str, key: str = "k") -> None:
    """What a server that died mid-run leaves behind: a claim and no answer."""
    with pytest.raises(RuntimeError):
        g.run(ACME, ADA, key, wanted, died)


def test_guard_waits_for_an_answer_another_process_is_computing() -> None:
    store = MemoryStore()
    g, other = guard(wait_s=5, store=store), guard(store=store)
    other.cipher = g.cipher  # two workers of one account
    wanted = request_hash("/p", {"x": 1})
    started, release = threading.Event(), threading.Event()

    def slow() -> bytes:
        started.set()
        release.wait(5)
        return b'{"a":1}'

    with ThreadPoolExecutor(max_workers=1) as pool:
        first = pool.submit(other.run, ACME, ADA, "k", wanted, slow)
        assert started.wait(5)
        threading.Timer(0.1, release.set).start()
        ran: list[int] = []
        response, replayed = g.run(ACME, ADA, "k", wanted, lambda: ran.append(1) or b"{}")
        assert first.result() == (b'{"a":1}', False)
    assert (response, replayed, ran) == (b'{"a":1}', True, [])


def test_guard_refuses_with_409_while_the_claim_is_live() -> None:
    g = guard()
    wanted = request_hash("/p", {"x": 1})
    claim_and_die(g, wanted)
    with pytest.raises(IdempotencyInProgress):
        g.run(ACME, ADA, "k", wanted, lambda: b"{}")


def test_an_abandoned_claim_is_taken_over_after_its_time_and_runs_once() -> None:
    clock = Clock()
    g = guard(clock=clock)
    wanted = request_hash("/p", {"x": 1})
    claim_and_die(g, wanted)
    clock.now += timedelta(seconds=31)
    runs: list[int] = []
    assert g.run(ACME, ADA, "k", wanted, lambda: runs.append(1) or b"second") == (
        b"second",
        False,
    )
    assert g.run(ACME, ADA, "k", wanted, lambda: runs.append(1) or b"third") == (b"second", True)
    assert runs == [1]


def test_guard_refuses_another_request_on_a_claimed_key() -> None:
    g = guard()
    claim_and_die(g, request_hash("/p", {"x": 1}))
    with pytest.raises(IdempotencyKeyReused):
        g.run(ACME, ADA, "k", request_hash("/p", {"x": 2}), lambda: b"{}")


def test_guard_serves_the_first_answer_until_it_expires() -> None:
    clock = Clock()
    g = guard(clock=clock)
    wanted = request_hash("/p", {"x": 1})
    assert g.run(ACME, ADA, "k", wanted, lambda: b"first") == (b"first", False)
    clock.now += timedelta(hours=23, minutes=59)
    assert g.run(ACME, ADA, "k", wanted, lambda: b"second") == (b"first", True)
    clock.now += timedelta(minutes=1)
    assert g.run(ACME, ADA, "k", wanted, lambda: b"third") == (b"third", False)
    assert g.store.purge_expired(clock.now + timedelta(hours=24)) == 1  # only the last answer


def test_records_hold_neither_the_key_nor_the_answer_and_open_only_for_their_user() -> None:
    g = guard()
    wanted = request_hash("/p", {"x": 1})
    answer = b'{"convid":"c-1","text":"I booked flight LH-Marker-77 to Berlin"}'
    g.run(ACME, ADA, "order-Marker-55", wanted, lambda: answer)
    records = dict(g.store._idempotency)
    assert len(records) == 1  # the answer; its claim is gone
    ((name, stored),) = records.items()
    raw = name.encode() + stored.record
    for needle in (b"order-Marker-55", b"LH-Marker-77", b"Berlin", ADA.encode()):
        assert needle not in raw
    assert stored.convid == "c-1" and stored.account == ACME
    # Another user with the same key finds nothing of Ada's ...
    assert g.run(ACME, "b@acme.example", "order-Marker-55", wanted, lambda: b"b") == (b"b", False)
    # ... and Ada's record copied under Bob's name does not open: it is removed and Bob's runs.
    bob = g.record_names(ACME, "b@acme.example", "other")[0]
    g.store.remember(f"{bob}/answer", stored, NOW)
    assert g.run(ACME, "b@acme.example", "other", wanted, lambda: b"bob") == (b"bob", False)


def test_records_written_before_a_key_rotation_are_still_found(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    store = MemoryStore()
    before = IdempotencyGuard(store, StateCipher(load_or_create_keyring(path)), Clock(), wait_s=1)
    wanted = request_hash("/p", {"x": 1})
    assert before.run(ACME, ADA, "k", wanted, lambda: b"first") == (b"first", False)
    rotate_keyring_file(path)
    after = IdempotencyGuard(store, StateCipher(load_keyring_file(path)), Clock(), wait_s=1)
    assert after.run(ACME, ADA, "k", wanted, lambda: b"again") == (b"first", True)


def test_in_progress_is_answered_409_then_taken_over(
    client: TestClient, deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    guard_of_app: IdempotencyGuard = client.app.state.idempotency  # type: ignore[attr-defined]
    monkeypatch.setattr(guard_of_app, "wait_s", 0.1)
    frozen = Clock()
    monkeypatch.setattr(guard_of_app, "clock", frozen)
    user = deployment.users.users[0]
    wanted = request_hash(EXEC, {**BODY, "convid": None, "stream": False})
    with pytest.raises(RuntimeError):
        guard_of_app.run(user.account, user.email, "stuck", wanted, died)
    reply = client.post(EXEC, json=BODY, headers={"Idempotency-Key": "stuck"})
    assert reply.status_code == 409
    assert "has not answered yet" in reply.json()["error"]["message"]
    frozen.now += guard_of_app.claim_ttl
    taken = client.post(EXEC, json=BODY, headers={"Idempotency-Key": "stuck"})
    assert taken.status_code == 200 and taken.json()["resultCode"] == "success"
    assert "idempotent-replayed" not in taken.headers
    assert runs_of(client, taken.json()["convid"]) == 1


def test_deleting_the_conversation_removes_its_idempotency_records(
    client: TestClient, deployment: Deployment
) -> None:
    first = client.post(EXEC, json=BODY, headers={"Idempotency-Key": "del-1"}).json()
    store = deployment.account.store
    assert [r.convid for r in store._idempotency.values()] == [first["convid"]]
    deleted = client.post("/api/user/deleteConversation", json={"convid": first["convid"]})
    assert deleted.status_code == 200
    assert store._idempotency == {}
    again = client.post(EXEC, json=BODY, headers={"Idempotency-Key": "del-1"})
    assert "idempotent-replayed" not in again.headers
    assert again.json()["convid"] != first["convid"]


def test_guard_checks_its_arguments() -> None:
    cipher = StateCipher(Keyring.generate())
    with pytest.raises(ValueError, match="positive"):
        IdempotencyGuard(MemoryStore(), cipher, Clock(), wait_s=0)
    with pytest.raises(ValueError, match="positive time"):
        IdempotencyGuard(MemoryStore(), cipher, Clock(), wait_s=1, ttl=timedelta(0))
    with pytest.raises(TypeError, match="StateCipher"):
        IdempotencyGuard(MemoryStore(), object(), Clock(), wait_s=1)  # type: ignore[arg-type]


def test_request_hash_is_canonical() -> None:
    assert request_hash("/p", {"a": 1, "b": [1, 2]}) == request_hash("/p", {"b": [1, 2], "a": 1})
    assert request_hash("/p", {"a": 1}) != request_hash("/q", {"a": 1})
