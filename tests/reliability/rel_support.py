"""Shared by the reliability tests: a tiny agent account, isolated stores and state checks.

Each test gets its own SQLite file, PostgreSQL schema or Redis key prefix on the shared servers
(override them with TEST_POSTGRES_URL / TEST_REDIS_URL), removed afterwards. An unreachable
server skips its test, except with CI=true where that is a failure.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import multiprocessing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from server_stores import PLAIN_BACKENDS, fresh_url, unreachable

from mock_account.crypto import StateCipher
from mock_account.engine.state import parse_state
from mock_account.stores import ConversationStore, StoreUnavailable, open_store
from mock_account.users import IssuedToken, UserDirectory

# A memory store lives and dies with its process: nothing to share or to crash-test.
SERVER_BACKENDS = [backend for backend in PLAIN_BACKENDS if backend != "memory"]

# One agent that saves on every run (``end``), so a conversation's version is its number of
# runs, and whose only prompt is local, so the state grows by one run record per save.
NOTE_AGENT = """
name: TakeNote
title: Take a note
tag: office
description: Take a note of what the user says so the conversation remembers it.
examples: ["take a note of this for later", "remember that the meeting moved"]
main:
  - prompt: {name: notes, scope: local, user: "{sys.query}"}
  - var: {name: conv.note, value: "{sys.query}"}
  - llm: {prompt: notes, reply: "Noted: {conv.note}."}
  - output: "{result}"
  - end: {}
"""
NOTE = "TakeNote"


def write_account(folder: Path) -> Path:
    """A folder holding the one agent above."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{NOTE}.yaml").write_text(NOTE_AGENT.lstrip(), encoding="utf-8")
    return folder


@functools.cache
def first_token(seed: int = 7) -> IssuedToken:
    """The first user of the generated directory and its bearer token."""
    return UserDirectory.generate(seed).tokens()[0]


def backend_url(backend: str, folder: Path) -> tuple[str, Callable[[], None]]:
    """``(url, cleanup)`` of a fresh, empty store of ``backend``."""
    return fresh_url(backend, folder, "rel")


@contextmanager
def fresh_store_url(backend: str, folder: Path) -> Iterator[str]:
    """A fresh store URL (created and checked reachable), removed on exit."""
    url, cleanup = backend_url(backend, folder)
    try:
        open_store(url).close()
    except StoreUnavailable as exc:
        unreachable(backend, exc)
    try:
        yield url
    finally:
        cleanup()


def state_digest(plain: bytes) -> str:
    return hashlib.sha256(plain).hexdigest()


def restore(
    store: ConversationStore, cipher: StateCipher, account: str, owner: str, convid: str
) -> tuple[int, bytes, dict[str, Any]] | None:
    """``(version, plaintext, parsed state)`` of a conversation, the way a run restores it.

    ``None`` when the conversation does not exist; any broken part raises.
    """
    stored = store.load(account, convid)
    if stored is None:
        return None
    assert stored.blob is not None, f"{convid}: version {stored.entry.state_version}, no state"
    plain = cipher.decrypt(stored.blob, convid=convid, owner=owner, purpose="state")
    return stored.entry.state_version, plain, parse_state(plain)


def start_forked(child: multiprocessing.process.BaseProcess) -> None:
    """Start a forked child with the parent's objects kept out of its garbage collections,
    which would otherwise copy every page of the parent's heap (a test worker's is large)
    before the child's first step, in every round of a kill test."""
    gc.freeze()
    try:
        child.start()
    finally:
        gc.unfreeze()


def report(line: str) -> None:
    """Print one figure the run proves (collected from ``pytest -s`` output)."""
    print(f"\nRELIABILITY {line}", flush=True)
