"""Crash-safe saves: a saving process killed (SIGKILL) at random moments never leaves a broken
conversation behind.

The parent builds the deployment once; each round forks a child that opens its own store
connection and runs follow-ups through the real save path (``MockAccount.exec_agent``: restore,
run, check, encrypt, compare-and-swap commit). Around each commit the child tells the parent
what it is writing and, once committed, that it was saved. After a random 5-80 ms the parent
kills the child and checks that every conversation the round touched restores (load, decrypt,
parse) to exactly the last saved state or the one being written, that its version matches its
runs, and that the store's integrity check finds nothing.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import re
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest
from rel_support import (
    NOTE,
    first_token,
    fresh_store_url,
    report,
    restore,
    start_forked,
    state_digest,
    write_account,
)

from mock_account.conversations.account import MockAccount
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.stores import ConversationStore, VersionConflict, open_store
from mock_account.users import User

pytestmark = pytest.mark.slow  # real server processes and stores

KILLS = 100
ACTIVE = 3  # conversations a child saves into at once
RETIRE = 40  # a conversation at this version is left alone (keeps states small)
KILL_AFTER_S = (0.005, 0.080)
READY_TIMEOUT_S = 60.0
FORK = multiprocessing.get_context("fork")
CONVID_RE = re.compile(r"'?\b[0-9A-Za-z]{22}\b'?")

Saved = tuple[int, str]  # (version, sha256 of the plaintext state)


def _report_commits(store: ConversationStore, deployment: Deployment, pipe: Connection) -> None:
    """Make ``store.commit_run`` tell the parent what it writes, then that it was saved."""
    cipher = deployment.account.vault.cipher
    commit = store.commit_run

    def commit_run(**request: Any) -> Any:
        plain = cipher.decrypt(
            request["blob"], convid=request["convid"], owner=request["owner"], purpose="state"
        )
        digest = state_digest(plain)
        pipe.send(("writing", request["convid"], request["expected_version"] + 1, digest))
        entry = commit(**request)
        pipe.send(("saved", request["convid"], entry.state_version, digest))
        return entry

    store.commit_run = commit_run  # type: ignore[method-assign]


def _warm_up(account: MockAccount, user: User, active: list[str]) -> None:
    """Connect and prepare reads and writes before the parent's clock starts, so that the kills
    land among saves rather than in a new connection's first statements."""
    for convid in active:
        account.restore(user, convid)
        # Creating a conversation that exists is refused: the write path runs, nothing changes.
        with contextlib.suppress(VersionConflict):
            account.store.commit_run(
                account=user.account,
                convid=convid,
                owner=user.email,
                expected_version=0,
                blob=b"",
                now=datetime.now(UTC),
                title_if_new=b"",
            )


def _save_forever(
    pipe: Connection,
    deployment: Deployment,
    url: str,
    user: User,
    versions: dict[str, int],
    seed: int,
) -> None:
    """The child: follow-ups in a few conversations, as fast as it can, until it is killed."""
    # Never the parent's connections: a forked socket shared by two processes corrupts both.
    store = open_store(url)
    account = deployment.account
    account.vault.store = store
    rng = random.Random(seed)
    active = [c for c, v in versions.items() if v < RETIRE]
    _warm_up(account, user, active)
    _report_commits(store, deployment, pipe)
    pipe.send(("ready",))
    count = 0
    while True:
        count += 1
        convid = rng.choice(active) if len(active) >= ACTIVE else None
        query = f"take a note of item {seed}-{count} for later"
        result = account.exec_agent(user, NOTE, {"query": query}, convid)
        if not result.success:
            pipe.send(("failed", convid, result.result_code, result.error))
            return
        if convid is None:
            convid = str(result.convid)
            active.append(convid)
            versions[convid] = 0
        versions[convid] += 1
        if versions[convid] >= RETIRE:
            active.remove(convid)


@dataclass
class Tally:
    kills: int = 0
    recovered: int = 0
    broken: int = 0  # kills after which something did not restore or check out
    problems: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    saves: int = 0
    mid_save: int = 0  # killed between "writing" and "saved"
    landed: int = 0  # ... and the write had reached the store anyway
    failures: list[str] = field(default_factory=list)


def _drain(pipe: Connection, saved: dict[str, Saved], tally: Tally) -> tuple[set[str], Any]:
    """Read what the dead child said: the conversations it touched and its unfinished write."""
    touched: set[str] = set()
    pending: tuple[str, int, str] | None = None
    while True:
        try:
            message = pipe.recv()
        except (EOFError, OSError):
            break  # the end, or a message cut short by the kill (its write never started)
        kind = message[0]
        if kind == "writing":
            pending = message[1:]
            touched.add(message[1])
        elif kind == "saved":
            assert pending == message[1:], f"saved {message[1:]} while writing {pending}"
            saved[message[1]] = (message[2], message[3])
            pending = None
            tally.saves += 1
        elif kind == "failed":
            tally.failures.append(repr(message[1:]))
    return touched, pending


def _check(
    store: ConversationStore,
    deployment: Deployment,
    user: User,
    convid: str,
    saved: dict[str, Saved],
    pending: tuple[str, int, str] | None,
    tally: Tally,
) -> str | None:
    """Why ``convid`` is broken, or None (then ``saved`` holds what it restores to)."""
    try:
        found = restore(store, deployment.account.vault.cipher, user.account, user.email, convid)
    except Exception as exc:  # anything that stops a restore is what this test looks for
        return f"{convid}: does not restore: {type(exc).__name__}: {exc}"
    allowed: list[Saved | None] = [saved.get(convid)]
    if pending is not None and pending[0] == convid:
        allowed.append(pending[1:])
    if found is None:
        return None if None in allowed else f"{convid}: lost (expected one of {allowed})"
    version, plain, state = found
    now = (version, state_digest(plain))
    if now not in allowed:
        return f"{convid}: restores to {now}, expected one of {allowed}"
    if len(state["runs"]) != version:
        return f"{convid}: version {version} but {len(state['runs'])} runs"
    if pending is not None and pending[0] == convid and now == pending[1:]:
        tally.landed += 1
    saved[convid] = now
    return None


def _round(
    number: int,
    deployment: Deployment,
    url: str,
    user: User,
    saved: dict[str, Saved],
    rng: random.Random,
    tally: Tally,
) -> None:
    reader, writer = FORK.Pipe(duplex=False)
    versions = {c: v for c, (v, _) in saved.items()}
    child = FORK.Process(
        target=_save_forever, args=(writer, deployment, url, user, versions, number), daemon=True
    )
    start_forked(child)
    writer.close()  # so that reading ends when the child is gone
    try:
        try:
            ready = reader.recv() if reader.poll(READY_TIMEOUT_S) else None
        except EOFError:
            ready = None
        assert ready == ("ready",), f"the saving child did not start ({child.exitcode=})"
        time.sleep(rng.uniform(*KILL_AFTER_S))
        os.kill(child.pid or 0, signal.SIGKILL)
        child.join(10)
        tally.kills += 1
        touched, pending = _drain(reader, saved, tally)
    finally:
        if child.is_alive():
            child.kill()
            child.join(10)
        reader.close()
    if pending is not None:
        tally.mid_save += 1
    store = open_store(url)
    try:
        problems = [
            p
            for convid in sorted(touched)
            if (p := _check(store, deployment, user, convid, saved, pending, tally))
        ]
        problems += _listing_and_integrity(store, user, set(saved))
    finally:
        store.close()
    # A problem that outlives its round (a conversation never listed) counts once, in the
    # round that caused it.
    new = [p for p in problems if p not in tally.seen]
    tally.seen.update(problems)
    if new:
        tally.broken += 1
        tally.problems.extend(f"kill {number}: {p}" for p in new)
    else:
        tally.recovered += 1


def _listing_and_integrity(store: ConversationStore, user: User, saved: set[str]) -> list[str]:
    """What the user's conversation list misses, then what the integrity check finds.

    The list is read first, as a user would: reading it is also what heals an index that a
    writer left behind when it died between its two steps (Redis).
    """
    listed = {e.convid for e in store.list_pinned(user.account, user.email)}
    cursor: str | None = None
    while True:
        page, cursor = store.list_recent(user.account, user.email, limit=25, cursor=cursor)
        listed.update(e.convid for e in page)
        if cursor is None:
            break
    problems = [f"{convid}: saved but not in the conversation list" for convid in saved - listed]
    problems += [f"{convid}: listed but never saved" for convid in listed - saved]
    return problems + [f"integrity: {p}" for p in store.check_integrity()]


def _kinds(problems: list[str]) -> str:
    """``problems: 3 x <what>, ...`` with conversation ids left out, or nothing."""
    if not problems:
        return ""
    kinds = Counter(CONVID_RE.sub("<convid>", p.split(": ", 1)[1]) for p in problems)
    return "; problems: " + ", ".join(f"{n} x {kind}" for kind, n in kinds.most_common())


@pytest.mark.parametrize("backend", ["sqlite", "postgres", "redis"])
def test_saves_survive_sigkill_at_random_moments(backend: str, tmp_path: Path) -> None:
    user = first_token().user
    config = AccountConfig(
        data_dir=tmp_path, store_url="memory://", account_dir=write_account(tmp_path / "agents")
    )
    deployment = build_deployment(config)
    # The children inherit a world already loaded: otherwise each would spend its first
    # moments loading tables and every kill would land before its first save.
    deployment.account.warm_up()
    rng = random.Random(20261129)
    saved: dict[str, Saved] = {}
    tally = Tally()
    try:
        with fresh_store_url(backend, tmp_path) as url:
            for number in range(KILLS):
                _round(number, deployment, url, user, saved, rng, tally)
                assert not tally.failures, tally.failures
            # Every conversation ever written restores to its last saved state.
            store = open_store(url)
            try:
                final = [
                    p
                    for convid in sorted(saved)
                    if (p := _check(store, deployment, user, convid, saved, None, tally))
                ]
                final += _listing_and_integrity(store, user, set(saved))
                entries = {e.convid for e in store.iter_entries(user.account)}
            finally:
                store.close()
    finally:
        deployment.close()
    report(
        f"crash-safe {backend}: {tally.kills} kills, {tally.recovered} recovered, "
        f"{tally.broken} broken ({tally.saves} saves acknowledged in "
        f"{len(saved)} conversations; {tally.mid_save} kills during a commit, "
        f"{tally.landed} of those committed){_kinds(tally.problems)}"
    )
    assert tally.problems == []
    assert final == []
    assert entries == set(saved)
    assert tally.kills == KILLS and tally.recovered == KILLS
    # The kills must land among saves, some of them in the middle of a commit.
    assert tally.saves >= KILLS // 4 and tally.mid_save > 0
