"""Approved actions run at most once and are never lost: a process proposing, approving and
executing actions is killed (SIGKILL) 100 times at random moments.

Each round forks a child that opens its own store, first recovers (executes every approved
action a kill left unfinished), then retries the turn it may have been killed in (the same
action id) and goes on with new turns: three in four actions are approved and executed, one
in four rejected. A random 5-60 ms after its first new turn the parent kills it. At the end
the parent recovers once more and checks every action: an approved one is ``done`` with
exactly one outbox record, a rejected or unapproved one has none, and no outbox record exists
without its action.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import signal
import time
from collections import Counter
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path

import pytest
from rel_support import fresh_store_url, report, start_forked

from mock_account.crypto import Keyring, StateCipher
from mock_account.stores import open_store
from mock_account.workflows import ActionLedger, open_workflow_store

pytestmark = pytest.mark.slow  # real server processes and stores

KILLS = 100
KILL_AFTER_S = (0.005, 0.060)
READY_TIMEOUT_S = 30.0
FORK = multiprocessing.get_context("fork")
ACCOUNT = "acme"
IDENTITY = "email:ann@example.test"


def _now() -> datetime:
    return datetime.now(UTC)


def _action_id(turn: int) -> str:
    return f"act_{turn:08d}"


def _rejected(turn: int) -> bool:
    return turn % 4 == 3


def _child(url: str, keys: list[tuple[str, bytes]], pipe: Connection, seed: int) -> None:
    rng = random.Random(seed)
    store = open_store(url)
    # Sleep a little between delivering and marking done, so kills land in that window too.
    ledger = ActionLedger(
        open_workflow_store(store),
        StateCipher(Keyring(keys)),
        _now,
        before_finish=lambda _id: time.sleep(rng.uniform(0, 0.002)),
    )
    ledger.recover(ACCOUNT)
    turns = len(ledger.store.list_actions(ACCOUNT))
    first = max(0, turns - 1)
    for turn in range(first, 10**9):  # the last turn again (a retried turn), then new ones
        action_id = _action_id(turn)
        ledger.propose(
            ACCOUNT,
            IDENTITY,
            kind="email",
            payload={"to": "ops@example.test", "subject": f"turn {turn}", "body": "hello"},
            action_id=action_id,
        )
        if _rejected(turn):
            ledger.reject(ACCOUNT, IDENTITY, action_id)
        else:
            ledger.approve_and_execute(ACCOUNT, IDENTITY, action_id)
        if turn == first + 1:
            # Ready once the retried turn and a new one are done: every round adds an action,
            # however slow the store, and the kill lands among the turns after it.
            pipe.send(("ready", turns))


def _round(url: str, keys: list[tuple[str, bytes]], rng: random.Random) -> bool:
    """One child killed mid-work; ``True`` when the kill landed after it was ready."""
    reader, writer = FORK.Pipe(duplex=False)
    child = FORK.Process(target=_child, args=(url, keys, writer, rng.randrange(2**32)))
    start_forked(child)
    writer.close()
    try:
        if not reader.poll(READY_TIMEOUT_S):
            pytest.fail("the child never got ready")
        reader.recv()
        time.sleep(rng.uniform(*KILL_AFTER_S))
        os.kill(child.pid or 0, signal.SIGKILL)
        child.join(10)
        return child.exitcode == -signal.SIGKILL
    finally:
        if child.is_alive():
            child.kill()
            child.join()
        with contextlib.suppress(OSError):
            reader.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres", "redis"])
def test_approved_actions_survive_kills_without_duplicates_or_losses(
    backend: str, tmp_path: Path
) -> None:
    keys = Keyring.generate().items()
    rng = random.Random(20261130)
    with fresh_store_url(backend, tmp_path) as url:
        started = time.monotonic()
        kills = sum(_round(url, keys, rng) for _ in range(KILLS))
        store = open_store(url)
        try:
            ledger = ActionLedger(open_workflow_store(store), StateCipher(Keyring(keys)), _now)
            left_unfinished = len(
                ledger.store.list_actions(ACCOUNT, statuses=["approved", "executing"])
            )
            ledger.recover(ACCOUNT)
            actions = ledger.list(ACCOUNT, IDENTITY)
            outbox = ledger.store.list_outbox(ACCOUNT)
        finally:
            store.close()
    elapsed = time.monotonic() - started

    by_id = {a["actionId"]: a for a in actions}
    delivered = Counter(r.action_id for r in outbox)
    statuses = Counter(a["status"] for a in actions)
    duplicates = sum(n - 1 for n in delivered.values())
    approved = {i for i, a in by_id.items() if any(e["event"] == "approved" for e in a["events"])}
    lost = sorted(i for i in approved if delivered[i] != 1 or by_id[i]["status"] != "done")
    wrongly_sent = sorted(i for i in delivered if i not in approved)
    redelivered = sum(
        1
        for a in actions
        for e in a["events"]
        if e["event"] == "executed" and e.get("firstDelivery") is False
    )
    report(
        f"actions {backend}: {kills} kills in {elapsed:.1f}s, {len(actions)} actions "
        f"({dict(statuses)}), {len(outbox)} delivered, {duplicates} duplicates, {len(lost)} "
        f"lost, {left_unfinished} left approved-but-unfinished by a kill and finished by "
        f"recovery, {redelivered} re-deliveries absorbed by the outbox"
    )
    assert kills == KILLS
    assert len(actions) > KILLS  # the kills landed among turns, not before them
    assert duplicates == 0 and lost == [] and wrongly_sent == []
    assert len(outbox) == len(approved) == statuses["done"]
    for action_id, action in by_id.items():
        turn = int(action_id.removeprefix("act_"))
        if _rejected(turn):
            assert action["status"] in ("rejected", "awaitingApproval")
        else:
            assert action["status"] in ("done", "awaitingApproval")
    # Every turn but possibly the last one was carried through.
    assert statuses["awaitingApproval"] <= 1
