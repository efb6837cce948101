"""Nothing readable at rest, nothing kept past its time, on every store.

A scripted journey over HTTP (asks answered with typed text, idempotent retries, a hand-off, a
streamed run, a rename, pins) leaves random markers typed by the user, and the agents' answers,
in the server's hands. Then every table and key of the store is dumped (``store_dump``) and
searched: no marker and no answer may appear in plaintext. After the user deletes a
conversation, and after another expires, nothing of either is left in any table, key or file:
not its id, not a byte of its encrypted state, not its idempotency records. Each phase prints
its figures.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sec_support import Base, FakeClock
from server_stores import PLAIN_BACKENDS, fresh_url, unreachable
from store_dump import Dump, dump

from mock_account.api import create_app
from mock_account.conversations.retention import RetentionPolicy, sweep
from mock_account.crypto import Keyring, StateCipher
from mock_account.deployment import DEFAULT_SEED, AccountConfig, Deployment
from mock_account.stores import ConversationStore, StoreUnavailable, open_store
from mock_account.users import UserDirectory

EXEC = "/api/exec/execAgent"


@pytest.fixture(params=PLAIN_BACKENDS)
def backend_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[str, str, ConversationStore]]:
    url, cleanup = fresh_url(request.param, tmp_path, "atrest")
    try:
        store = open_store(url)
    except StoreUnavailable as exc:
        unreachable(request.param, exc)
        raise
    try:
        yield request.param, url, store
    finally:
        store.close()
        cleanup()


class Journey:
    """One user's conversations through the HTTP API, with what they typed and were told."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.typed: list[str] = []  # markers the user typed (queries, answers, titles, keys)
        self.told: list[str] = []  # the agents' answers

    def marker(self, label: str) -> str:
        made = f"{label}{secrets.token_hex(5)}"
        self.typed.append(made)
        return made

    def run(self, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
        headers = {"Idempotency-Key": key} if key else {}
        reply = self.client.post(EXEC, json={**body, "stream": False}, headers=headers)
        assert reply.status_code == 200, reply.text
        answer = reply.json()
        assert answer["success"], answer
        if key:  # the retry a client makes when the answer got lost: replayed, not run again
            again = self.client.post(EXEC, json={**body, "stream": False}, headers=headers)
            assert again.headers.get("idempotent-replayed") == "true"
            assert again.json() == answer
        self.told += [p["text"] for p in answer["output"]["parts"] if p.get("text")]
        return answer

    def streamed(self, body: dict[str, Any]) -> dict[str, Any]:
        """A run answered line by line (``stream: true``); its final agent line."""
        with self.client.stream("POST", EXEC, json={**body, "stream": True}) as reply:
            assert reply.status_code == 200
            lines = [json.loads(line) for line in reply.iter_lines() if line]
        final = lines[-1]
        assert final["type"] == "agent" and final["value"]["success"], lines
        parts = [line["value"] for line in lines if line["type"] == "data"]
        self.told += [p["text"] for p in parts if p.get("text")]
        assert parts, lines
        return final["value"]

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        reply = self.client.post(path, json=body)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def trip_with_expenses(self) -> str:
        """A flight, then an expense claim that hands off the trip and asks for a reason."""
        place = self.marker("Quokkaville")
        first = self.run(
            {
                "agentName": "BookBusinessFlight",
                # A real city (a trip to one nobody knows is asked about, not booked), with
                # the marker in what the user typed all the same.
                "inputs": {"query": f"I need to fly to Lisbon next week for the {place} workshop"},
            },
            key=self.marker("trip-key-"),
        )
        convid = first["convid"]
        asked = self.run(
            {
                "agentName": "SubmitExpenseClaim",
                "convid": convid,
                "inputs": {"query": "file my travel expenses for that trip"},
            }
        )
        assert asked["resultCode"] == "ask", asked
        reason = self.marker("workshop with Dr ")
        done = self.run(
            {
                "agentName": "SubmitExpenseClaim",
                "convid": convid,
                "inputs": {"category": "travel", "amount": "84.50", "business_reason": reason},
            },
            key=self.marker("claim-key-"),
        )
        assert reason in done["output"]["parts"][0]["text"]  # the typed answer is in the answer
        self.streamed(
            {
                "agentName": "BookHotelStay",
                "convid": convid,
                "inputs": {"query": f"book a hotel near {self.marker('Emu Park ')} for that trip"},
            }
        )
        title = self.marker("Trip to see ")
        self.post("/api/user/setConversationTitle", {"convid": convid, "title": title})
        self.post("/api/user/setPinned", {"convid": convid, "pinned": True})
        return convid

    def flight(self, pinned: bool) -> str:
        place = self.marker("Wombatford")
        answer = self.run(
            {
                "agentName": "BookBusinessFlight",
                "inputs": {"query": f"please book me a flight to Porto for the {place} visit"},
            },
            key=self.marker("flight-key-"),
        )
        if pinned:
            self.post("/api/user/setPinned", {"convid": answer["convid"], "pinned": True})
        return answer["convid"]

    def needles(self) -> list[bytes]:
        return [t.encode() for t in [*self.typed, *self.told]]


def _report(backend: str, phase: str, found: Dump, needles: list[bytes], leaks: list) -> None:
    print(
        f"\n[at rest] {backend:8} {phase:22} records scanned: {len(found.records):4}, "
        f"raw bytes: {len(found.raw):7}, markers searched: {len(needles):3}, found: {len(leaks)}"
    )


def test_nothing_readable_at_rest_and_nothing_left_after_delete_and_expiry(
    base: Base, make_account, backend_store: tuple[str, str, ConversationStore]
) -> None:
    backend, url, store = backend_store
    clock = FakeClock()
    account = make_account(store, cipher=StateCipher(Keyring.generate()), clock=clock)
    users = UserDirectory.generate(DEFAULT_SEED)
    config = AccountConfig(store_url=url, sweep_interval_s=0.0, idempotency_hours=24 * 30)
    deployment = Deployment(account, users, config)
    alice = base.user("acme")
    token = next(t.token for t in users.tokens() if t.user == alice)
    client = TestClient(create_app(deployment), headers={"Authorization": f"Bearer {token}"})
    journey = Journey(client)

    deleted = journey.trip_with_expenses()  # pinned, renamed: the user deletes it
    expiring = journey.flight(pinned=False)  # unused for 8 days: retention deletes it
    kept = journey.flight(pinned=True)  # pinned: kept by retention, its records expire
    # The markers really reached the server: the owner reads them back decrypted.
    seen = str(journey.post("/api/harness/getConversationState", {"convid": deleted}))
    seen += str(journey.post("/api/user/getConversation", {"convid": deleted}))
    seen += str(journey.post("/api/user/getPinnedConversations", {}))  # the title
    assert sum(t in seen for t in journey.typed) >= 3
    needles = journey.needles()
    assert len(needles) >= 12

    before = dump(backend, url, store)
    leaks = before.find(needles)
    _report(backend, "after the journey", before, needles, leaks)
    assert leaks == []
    for convid in (deleted, expiring, kept):  # the data is there, only encrypted
        assert before.holding(convid.encode()), convid
    sealed = {c: store.load("acme", c).blob for c in (deleted, expiring)}

    journey.post("/api/user/deleteConversation", {"convid": deleted})
    after_delete = dump(backend, url, store)
    gone = [deleted.encode(), sealed[deleted][-32:]]
    leaks = after_delete.find(needles + gone)
    _report(backend, "after a delete", after_delete, needles, leaks)
    assert leaks == []
    assert after_delete.holding(expiring.encode()) and after_delete.holding(kept.encode())

    clock.advance(days=8)
    swept = sweep(store, users.users, clock.now, RetentionPolicy())
    assert swept.deleted == [("acme", expiring)] and swept.kept == 1
    after_expiry = dump(backend, url, store)
    gone += [expiring.encode(), sealed[expiring][-32:]]
    leaks = after_expiry.find(needles + gone)
    _report(backend, "after retention", after_expiry, needles, leaks)
    assert leaks == []
    assert after_expiry.holding(kept.encode())

    # The kept conversation's idempotency record lives 30 days here: then the sweep removes it.
    kept_records = [r for r in after_expiry.holding(kept.encode()) if b"idem" in r[:80]]
    assert kept_records, "the pinned conversation's idempotency record should still be there"
    clock.advance(days=23)
    swept = sweep(store, users.users, clock.now, RetentionPolicy())
    assert swept.deleted == [] and swept.purged == 1
    final = dump(backend, url, store)
    leaks = final.find(needles + gone)
    _report(backend, "after record expiry", final, needles, leaks)
    assert leaks == [] and not [r for r in final.holding(kept.encode()) if b"idem" in r[:80]]

    if backend == "sqlite":
        store.close()  # the last connection checkpoints the WAL into the file
        raw = Path(url.removeprefix("sqlite:///")).read_bytes()
        assert [n for n in needles + gone if n in raw] == []
        assert kept.encode() in raw


def test_an_idempotency_record_copied_to_another_user_does_not_open(
    base: Base, make_account
) -> None:
    clock = FakeClock()
    account = make_account(clock=clock)
    users = UserDirectory.generate(DEFAULT_SEED)
    deployment = Deployment(account, users, AccountConfig(sweep_interval_s=0.0))
    app = create_app(deployment)
    alice, bob = base.user("acme"), base.user("acme", 1)
    tokens = {t.user.email: t.token for t in users.tokens()}
    body = {
        "agentName": "BookBusinessFlight",
        "inputs": {"query": "I need to fly to Lisbon next week"},
        "stream": False,
    }
    as_alice = TestClient(app, headers={"Authorization": f"Bearer {tokens[alice.email]}"})
    first = as_alice.post(EXEC, json=body, headers={"Idempotency-Key": "k"}).json()
    guard = app.state.idempotency
    [(name, record)] = list(account.store._idempotency.items())
    assert name == f"{guard.record_names('acme', alice.email, 'k')[0]}/answer"
    # The operator of the store moves Alice's answer under Bob's name for the same key.
    account.store._idempotency[f"{guard.record_names('acme', bob.email, 'k')[0]}/answer"] = record
    as_bob = TestClient(app, headers={"Authorization": f"Bearer {tokens[bob.email]}"})
    theirs = as_bob.post(EXEC, json=body, headers={"Idempotency-Key": "k"})
    assert "idempotent-replayed" not in theirs.headers  # not replayed: it ran for Bob
    assert theirs.json()["convid"] != first["convid"]


def test_records_naming_a_deleted_conversation_go_on_every_path(base: Base, make_account) -> None:
    account = make_account(clock=FakeClock())
    users = UserDirectory.generate(DEFAULT_SEED)
    deployment = Deployment(account, users, AccountConfig(sweep_interval_s=0.0))
    alice = base.user("acme")
    token = next(t.token for t in users.tokens() if t.user == alice)
    journey = Journey(
        TestClient(create_app(deployment), headers={"Authorization": f"Bearer {token}"})
    )
    convid = journey.flight(pinned=False)
    assert [r.convid for r in account.store._idempotency.values()] == [convid]
    account.delete(alice, convid)
    assert account.store._idempotency == {}
