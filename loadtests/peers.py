"""Peer libraries measured next to the harness in ``loadtests bench --peers``, when installed.

- LangGraph's SQLite checkpointer (``langgraph-checkpoint-sqlite``): save = ``put`` of a
  checkpoint whose channel values hold the state, restore = ``get_tuple``; its own serializer,
  no encryption.
- The OpenAI Agents SDK's ``SQLiteSession`` (``openai-agents``): save = clear the session and
  ``add_items`` the state's prompt messages, restore = ``get_items``; no encryption.

Both write to a SQLite file in the bench's folder. A peer that is not installed is skipped with
a line saying so; one that fails is reported with its error, never stopping the bench. Neither
package is a dependency of the project.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

PeerResult = dict[str, Any]


def _percentiles(values: list[float]) -> dict[str, float]:
    arr = np.asarray(values)
    return {"p50_us": round(float(np.percentile(arr, 50)), 1),
            "p99_us": round(float(np.percentile(arr, 99)), 1)}


def _measure(
    save: Callable[[], None], restore: Callable[[], Any], iterations: int
) -> dict[str, dict[str, float]]:
    saves: list[float] = []
    restores: list[float] = []
    for i in range(iterations + 3):
        for op, into in ((save, saves), (restore, restores)):
            start = time.perf_counter_ns()
            op()
            if i >= 3:  # the first rounds warm caches up
                into.append((time.perf_counter_ns() - start) / 1000.0)
    return {"save": _percentiles(saves), "restore": _percentiles(restores)}


def _langgraph(folder: Path, state: dict[str, Any], iterations: int) -> dict:
    from langgraph.checkpoint.base import empty_checkpoint
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(folder / "langgraph.db", check_same_thread=False)
    try:
        saver = SqliteSaver(conn)
        saver.setup()
        config = {"configurable": {"thread_id": "bench", "checkpoint_ns": ""}}

        def save() -> None:
            checkpoint = empty_checkpoint()
            checkpoint["channel_values"] = {"state": state}
            saver.put(config, checkpoint, {"source": "loop", "step": 1, "parents": {}}, {})

        return _measure(save, lambda: saver.get_tuple(config), iterations)
    finally:
        conn.close()


def _agents_sdk(folder: Path, state: dict[str, Any], iterations: int) -> dict:
    from agents import SQLiteSession

    session = SQLiteSession("bench", str(folder / "agents.db"))
    items = [
        {"role": m["role"] if m["role"] in ("user", "assistant") else "assistant",
         "content": m.get("content") if isinstance(m.get("content"), str) else str(m)}
        for m in state["prompts"]["chat"]["messages"]
    ]
    loop = asyncio.new_event_loop()
    try:
        def save() -> None:
            loop.run_until_complete(session.clear_session())
            loop.run_until_complete(session.add_items(items))

        return _measure(save, lambda: loop.run_until_complete(session.get_items()), iterations)
    finally:
        loop.close()


PEERS: dict[str, tuple[str, str, Callable[[Path, dict[str, Any], int], dict]]] = {
    "langgraph": ("LangGraph SQLite checkpointer", "langgraph.checkpoint.sqlite", _langgraph),
    "agents": ("OpenAI Agents SDK SQLiteSession", "agents", _agents_sdk),
}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


def measure_peers(
    folder: Path, state: dict[str, Any], iterations: int
) -> tuple[dict[str, PeerResult], list[str]]:
    """Each installed peer's save / restore percentiles, and a status line per peer."""
    results: dict[str, PeerResult] = {}
    lines: list[str] = []
    for key, (label, module, measure) in PEERS.items():
        if not _installed(module):
            lines.append(f"peer {label}: skipped ({module} is not installed)")
            continue
        try:
            results[key] = {"label": label, **measure(folder, state, iterations)}
        except Exception as exc:  # a peer's API change must not stop the bench
            lines.append(f"peer {label}: failed ({type(exc).__name__}: {exc})")
            continue
        r = results[key]
        lines.append(
            f"peer {label}: save p50 {r['save']['p50_us']:.1f} µs p99 {r['save']['p99_us']:.1f}"
            f" µs; restore p50 {r['restore']['p50_us']:.1f} µs p99 "
            f"{r['restore']['p99_us']:.1f} µs"
        )
    return results, lines
