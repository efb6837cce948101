"""Peer libraries measured next to the harness in ``loadtests bench --peers``, when installed.

Both peers save and restore the very state the harness does, encrypted, in a SQLite file of the
bench's folder at the durability of the bench's store (WAL, the same ``synchronous``):

- LangGraph's SQLite checkpointer (``langgraph-checkpoint-sqlite``) with its
  ``EncryptedSerializer`` around the default serializer; the cipher is AES-256-GCM from
  ``cryptography`` (the serializer's ``CipherProtocol``), as in the harness. Save = ``put`` of a
  checkpoint whose channel values hold the state, restore = ``get_tuple``.
- The OpenAI Agents SDK's ``EncryptedSession`` (Fernet, per-session HKDF key) over its
  ``SQLiteSession`` (``openai-agents``). The state is one session item. Save = ``clear_session``
  then ``add_items`` (the SDK's way to replace a session's content), restore = ``get_items``.

Each peer is opened once per state size (``open_peers``) and its save and restore then run
inside the bench's own interleaved loop, next to the harness's and the baselines' operations, so
a slow phase of a shared machine (a disk flush, another process) hits every side alike.

A peer that is not installed is skipped with a line saying so; one that fails is reported with
its error, never stopping the bench. Neither package is a dependency of the harness itself.
"""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PeerResult = dict[str, Any]
#: A peer's save and restore of the state it was opened with.
PeerOps = tuple[Callable[[], None], Callable[[], Any]]
#: Opens a peer on (folder, state, synchronous); leaving the context closes it.
PeerOpen = Callable[[Path, dict[str, Any], str], AbstractContextManager[PeerOps]]


def _percentiles(values: list[float]) -> dict[str, float]:
    arr = np.asarray(values)
    return {
        "p50_us": round(float(np.percentile(arr, 50)), 1),
        "p99_us": round(float(np.percentile(arr, 99)), 1),
    }


def peer_result(label: str, saves: list[float], restores: list[float]) -> PeerResult:
    """A peer's percentiles from its samples (µs)."""
    return {"label": label, "save": _percentiles(saves), "restore": _percentiles(restores)}


def peer_line(result: PeerResult) -> str:
    return (
        f"peer {result['label']}: save p50 {result['save']['p50_us']:.1f} µs p99 "
        f"{result['save']['p99_us']:.1f} µs; restore p50 {result['restore']['p50_us']:.1f} µs "
        f"p99 {result['restore']['p99_us']:.1f} µs"
    )


def _check_round_trip(save: Callable[[], None], restore: Callable[[], Any], saved: Any) -> None:
    """Once, before timing: what the peer reads back must be what it was given."""
    save()
    if restore() != saved:
        raise RuntimeError("what the peer read back differs from the state it saved")


class _AesGcmCipher:
    """LangGraph ``CipherProtocol``: AES-256-GCM with a fresh 96-bit nonce per encryption."""

    def __init__(self) -> None:
        self._aead = AESGCM(AESGCM.generate_key(bit_length=256))

    def encrypt(self, plaintext: bytes) -> tuple[str, bytes]:
        nonce = os.urandom(12)
        return "aesgcm", nonce + self._aead.encrypt(nonce, plaintext, None)

    def decrypt(self, ciphername: str, ciphertext: bytes) -> bytes:
        if ciphername != "aesgcm":
            raise ValueError(f"unexpected cipher {ciphername!r}")
        return self._aead.decrypt(ciphertext[:12], ciphertext[12:], None)


@contextmanager
def _langgraph(folder: Path, state: dict[str, Any], synchronous: str) -> Iterator[PeerOps]:
    from langgraph.checkpoint.base import empty_checkpoint
    from langgraph.checkpoint.serde.encrypted import EncryptedSerializer
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(folder / "langgraph.db", check_same_thread=False)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={synchronous}")
        saver = SqliteSaver(conn, serde=EncryptedSerializer(_AesGcmCipher()))
        saver.setup()
        config = {"configurable": {"thread_id": "bench", "checkpoint_ns": ""}}

        def save() -> None:
            checkpoint = empty_checkpoint()
            checkpoint["channel_values"] = {"state": state}
            saver.put(config, checkpoint, {"source": "loop", "step": 1, "parents": {}}, {})

        def restore() -> Any:
            found = saver.get_tuple(config)
            return None if found is None else found.checkpoint["channel_values"].get("state")

        _check_round_trip(save, restore, state)
        yield save, restore
    finally:
        conn.close()


@contextmanager
def _agents_sdk(folder: Path, state: dict[str, Any], synchronous: str) -> Iterator[PeerOps]:
    from agents import SQLiteSession
    from agents.extensions.memory import EncryptedSession

    class DurableSession(SQLiteSession):
        """The SDK's session with the bench's ``synchronous`` on each connection it opens."""

        @staticmethod
        def _configure_connection(conn: sqlite3.Connection) -> None:
            SQLiteSession._configure_connection(conn)
            conn.execute(f"PRAGMA synchronous={synchronous}")

    key = base64.urlsafe_b64encode(os.urandom(32)).decode("ascii")
    session = EncryptedSession(
        session_id="bench",
        underlying_session=DurableSession("bench", str(folder / "agents.db")),
        encryption_key=key,
    )
    item: Any = {"type": "harness_state", **state}
    loop = asyncio.new_event_loop()
    try:

        def save() -> None:
            loop.run_until_complete(session.clear_session())
            loop.run_until_complete(session.add_items([item]))

        def restore() -> Any:
            return loop.run_until_complete(session.get_items())

        _check_round_trip(save, lambda: (restore() or [None])[0], item)
        yield save, restore
    finally:
        loop.close()


PEERS: dict[str, tuple[str, str, PeerOpen]] = {
    "langgraph": (
        "LangGraph SQLite checkpointer + EncryptedSerializer (AES-256-GCM)",
        "langgraph.checkpoint.sqlite",
        _langgraph,
    ),
    "agents": (
        "OpenAI Agents SDK EncryptedSession over SQLiteSession",
        "agents.extensions.memory",
        _agents_sdk,
    ),
}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


def open_peers(
    stack: ExitStack, folder: Path, state: dict[str, Any], synchronous: str = "NORMAL"
) -> tuple[dict[str, tuple[str, PeerOps]], list[str]]:
    """Each installed peer that opens, as ``{key: (label, (save, restore))}`` (closed with
    ``stack``), and a line for each peer skipped or failed."""
    opened: dict[str, tuple[str, PeerOps]] = {}
    lines: list[str] = []
    for key, (label, module, open_peer) in PEERS.items():
        if not _installed(module):
            lines.append(f"peer {label}: skipped ({module} is not installed)")
            continue
        try:
            opened[key] = (label, stack.enter_context(open_peer(folder, state, synchronous)))
        except Exception as exc:  # a peer's API change must not stop the bench
            lines.append(f"peer {label}: failed ({type(exc).__name__}: {exc})")
    return opened, lines
