"""``loadtests writers``: save throughput and latency under concurrent writers, with and without
group commit.

    loadtests writers [--stores sqlite,postgres,redis] [--threads 1,8,64] [--seconds 3]
                      [--state-kb 16] [--batch 64] [--batch-wait-us 0]
                      [--postgres-url URL] [--redis-url URL] [--json FILE]

For each store and each number of writer threads, two cells are measured for a bounded time:
saves made one at a time (straight on the store) and saves through group commit
(``BatchingStore``: concurrent saves gathered into one transaction or round trip). Every writer
saves its own conversations, so there are no conflicts: what is measured is the cost of a save,
not of retries. A save is the vault's, as the server makes it after a run: encrypt the state
(AES-256-GCM with a fresh nonce) and write it with compare-and-swap on the version. The state is
a realistic one of ``--state-kb`` KB, serialized once and handed to ``Vault.save`` as bytes
(serialization is the engine's cost, the same in both modes).

Stores are names (``memory``, ``sqlite`` in a temporary folder, ``postgres`` in a temporary
schema, ``redis`` under a temporary key prefix; all removed afterwards) or full store URLs (whose
conversations written here are deleted afterwards). Without ``--stores``, every named store that
answers is measured and the others are listed as skipped.

The gain of a cell is batching saves/s over one-at-a-time saves/s at the same thread count.
Exit codes: 0 fine, 1 a store failed or a save failed during the run, 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from agents_catalog.cli_kit import Parser, positive_int
from loadtests.json_report import write_json
from loadtests.machine import machine_info
from loadtests.states import build_state
from loadtests.store_targets import (
    DEFAULT_POSTGRES_URL,
    DEFAULT_REDIS_URL,
    StoreTarget,
    add_server_urls,
    store_names,
    store_target,
)
from mock_account.conversations.vault import Vault, seal_state
from mock_account.crypto import Keyring, StateCipher
from mock_account.engine.state import serialize_state
from mock_account.stores import ConversationStore, StoreError, StoreUnavailable, open_store
from mock_account.stores.batching import BatchingStore

DEFAULT_STORES = ("sqlite", "postgres", "redis")
DEFAULT_THREADS = (1, 8, 64)
CONVERSATIONS_PER_WRITER = 2
ACCOUNT = "loadtests"
OWNER = "writers@acme.example"
MODES = ("single", "batch")


@dataclass
class WritersConfig:
    """What ``loadtests writers`` measures (its command-line options)."""

    stores: list[str] = field(default_factory=lambda: list(DEFAULT_STORES))
    stores_given: bool = False  # named explicitly: a store that cannot be opened is a failure
    threads: list[int] = field(default_factory=lambda: list(DEFAULT_THREADS))
    seconds: float = 3.0
    state_kb: int = 16
    batch: int = 64
    batch_wait_us: int = 0
    postgres_url: str = DEFAULT_POSTGRES_URL
    redis_url: str = DEFAULT_REDIS_URL


# -- stores --------------------------------------------------------------------------------------


def _target(name: str, config: WritersConfig) -> AbstractContextManager[StoreTarget]:
    return store_target(
        name, "writers", postgres_url=config.postgres_url, redis_url=config.redis_url
    )


def _open(target: StoreTarget, mode: str, config: WritersConfig) -> ConversationStore:
    store = open_store(target.url)
    if mode == "batch":
        return BatchingStore(store, max_batch=config.batch, max_wait_us=config.batch_wait_us)
    return store


# -- one cell ------------------------------------------------------------------------------------


@dataclass
class CellResult:
    """Saves of one (store, threads, mode) cell."""

    saves: int
    errors: int
    seconds: float
    latencies_us: list[float] = field(repr=False)
    mean_batch: float | None = None
    largest_batch: int | None = None
    direct_saves: int | None = None
    first_error: str | None = None

    @property
    def saves_per_s(self) -> float:
        return self.saves / self.seconds if self.seconds > 0 else 0.0

    def percentile(self, p: float) -> float:
        return float(np.percentile(np.asarray(self.latencies_us), p)) if self.latencies_us else 0.0

    def as_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "saves": self.saves,
            "errors": self.errors,
            "seconds": round(self.seconds, 3),
            "saves_per_s": round(self.saves_per_s, 1),
            "p50_us": round(self.percentile(50), 1),
            "p99_us": round(self.percentile(99), 1),
        }
        if self.mean_batch is not None:
            result["mean_batch"] = round(self.mean_batch, 2)
            result["largest_batch"] = self.largest_batch
            result["direct_saves"] = self.direct_saves
        if self.first_error:
            result["first_error"] = self.first_error
        return result


class _Writer:
    """One writer thread: saves its own conversations in turn until the deadline."""

    def __init__(self, vault: Vault, plain: bytes, tag: str):
        self.vault = vault
        self.plain = plain
        self.convids = [f"w{tag}-{uuid.uuid4().hex[:16]}" for _ in range(CONVERSATIONS_PER_WRITER)]
        self.versions = [0] * len(self.convids)
        self.latencies_us: list[float] = []
        self.errors = 0
        self.first_error: str | None = None

    def save(self, index: int) -> None:
        saved = self.vault.save(
            account=ACCOUNT,
            owner=OWNER,
            convid=self.convids[index],
            state=self.plain,
            expected_version=self.versions[index],
            now=datetime.now(UTC),
        )
        self.versions[index] = saved.committed.state_version

    def run(self, start: threading.Barrier, deadline: list[float]) -> None:
        try:
            for index in range(len(self.convids)):  # creation: untimed warm-up
                self.save(index)
        except Exception as exc:  # reported in the table, never a traceback
            self._failed(exc)
        start.wait()
        turn = 0
        while time.perf_counter() < deadline[0] and self.first_error is None:
            index = turn % len(self.convids)
            began = time.perf_counter_ns()
            try:
                self.save(index)
            except Exception as exc:
                self._failed(exc)
                break
            self.latencies_us.append((time.perf_counter_ns() - began) / 1000.0)
            turn += 1

    def _failed(self, exc: Exception) -> None:
        self.errors += 1
        if self.first_error is None:
            self.first_error = f"{type(exc).__name__}: {exc}"

    def remove(self) -> None:
        for convid in self.convids:
            self.vault.store.delete(ACCOUNT, convid)


def measure_cell(
    store: ConversationStore, threads: int, seconds: float, plain: bytes, cipher: StateCipher
) -> CellResult:
    """``threads`` writers saving for ``seconds`` on ``store``; their conversations are removed."""
    vault = Vault(store, cipher)
    writers = [_Writer(vault, plain, f"{i:02d}") for i in range(threads)]
    deadline = [0.0]
    before = store.stats() if isinstance(store, BatchingStore) else None

    def begin() -> None:
        # Runs once every writer has created its conversations, before any is let go.
        deadline[0] = time.perf_counter() + seconds

    start = threading.Barrier(threads, action=begin)
    workers = [
        threading.Thread(target=w.run, args=(start, deadline), name=f"writer-{i}")
        for i, w in enumerate(writers)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - (deadline[0] - seconds)
    after = store.stats() if isinstance(store, BatchingStore) else None
    try:
        for writer in writers:
            writer.remove()
    except StoreError:
        pass  # the store is dropped with its schema, prefix or folder anyway
    latencies = [v for w in writers for v in w.latencies_us]
    result = CellResult(
        saves=len(latencies),
        errors=sum(w.errors for w in writers),
        seconds=elapsed,
        latencies_us=latencies,
        first_error=next((w.first_error for w in writers if w.first_error), None),
    )
    if before is not None and after is not None:
        batches = after.batches - before.batches
        result.mean_batch = (after.requests - before.requests) / batches if batches else 0.0
        result.largest_batch = after.largest
        result.direct_saves = after.direct - before.direct
    return result


# -- the run -------------------------------------------------------------------------------------


def _gain(single: CellResult, batch: CellResult) -> float | None:
    return round(batch.saves_per_s / single.saves_per_s, 2) if single.saves_per_s else None


def run_writers(config: WritersConfig, progress: Callable[[str], None]) -> dict[str, Any]:
    """Measure every cell; the JSON-ready result (stores that could not be opened are listed)."""
    plain = serialize_state(build_state(config.state_kb * 1024))
    cipher = StateCipher(Keyring.generate())
    stored_bytes = len(seal_state(cipher, plain, convid="x" * 22, owner=OWNER))
    cells: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    failed: list[dict[str, str]] = []
    for name in config.stores:
        with _target(name, config) as target:
            try:
                _open(target, "single", config).close()  # reachable? creates the schema once
            except StoreUnavailable as exc:
                entry = {"store": target.label, "reason": str(exc)}
                (failed if config.stores_given else skipped).append(entry)
                verdict = "FAILED" if config.stores_given else "skipped"
                progress(f"writers: {target.label}: {verdict}, {exc}")
                continue
            target.opened = True
            for threads in config.threads:
                row: dict[str, Any] = {"store": target.label, "threads": threads}
                results: dict[str, CellResult] = {}
                for mode in MODES:
                    progress(f"writers: {target.label}, {threads} threads, {mode} ...")
                    store = _open(target, mode, config)
                    try:
                        results[mode] = measure_cell(store, threads, config.seconds, plain, cipher)
                    finally:
                        store.close()
                    row[mode] = results[mode].as_dict()
                row["gain"] = _gain(results["single"], results["batch"])
                cells.append(row)
    return {
        "state_kb": config.state_kb,
        "plain_bytes": len(plain),
        "stored_bytes": stored_bytes,
        "seconds_per_cell": config.seconds,
        "threads": list(config.threads),
        "batch": {"max_batch": config.batch, "max_wait_us": config.batch_wait_us},
        "save": "encrypt (AES-256-GCM, fresh nonce) + commit_run (compare-and-swap)",
        "cells": cells,
        "skipped": skipped,
        "failed": failed,
        "machine": machine_info(),
    }


def format_table(result: dict[str, Any]) -> str:
    """The readable table of a ``run_writers`` result."""
    width = max([10, *(len(cell["store"]) + 1 for cell in result["cells"])])
    lines = [
        f"writers: {result['state_kb']} KB state ({result['stored_bytes']:,} bytes encrypted), "
        f"{result['seconds_per_cell']:g} s per cell, batches of up to "
        f"{result['batch']['max_batch']} (wait {result['batch']['max_wait_us']} us)",
        "",
        f"{'store':<{width}}{'threads':>7}  {'--- one at a time ---':^30}  "
        f"{'------------- batching -------------':^38}  {'gain':>5}",
        f"{'':<{width}}{'':>7}  {'saves/s':>9} {'p50 us':>9} {'p99 us':>10}  "
        f"{'saves/s':>9} {'p50 us':>9} {'p99 us':>10} {'batch':>7}  {'x':>5}",
    ]
    for cell in result["cells"]:
        one, bat = cell["single"], cell["batch"]
        gain = "-" if cell["gain"] is None else f"{cell['gain']:.2f}"
        mean = f"{bat['mean_batch']:.1f}" if bat.get("mean_batch") else "-"
        lines.append(
            f"{cell['store']:<{width}}{cell['threads']:>7}  "
            f"{one['saves_per_s']:>9,.0f} {one['p50_us']:>9,.0f} {one['p99_us']:>10,.0f}  "
            f"{bat['saves_per_s']:>9,.0f} {bat['p50_us']:>9,.0f} {bat['p99_us']:>10,.0f} "
            f"{mean:>7}  {gain:>5}"
        )
        for mode in MODES:
            if cell[mode]["errors"]:
                lines.append(
                    f"{'':<{width + 7}}{mode}: {cell[mode]['errors']} failed saves, first: "
                    f"{cell[mode].get('first_error')}"
                )
    for entry in result["skipped"]:
        lines.append(f"{entry['store']}: skipped ({entry['reason']})")
    for entry in result["failed"]:
        lines.append(f"{entry['store']}: FAILED ({entry['reason']})")
    lines.append("")
    lines.append(
        "batch = mean saves per group commit (a save made while no other is under way goes "
        "straight to the store); gain = batching saves/s / one at a time"
    )
    return "\n".join(lines)


# -- command line --------------------------------------------------------------------------------


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from exc
    if not 0 < value <= 600:
        raise argparse.ArgumentTypeError(f"expected 0 < seconds <= 600, got {value:g}")
    return value


def _threads(text: str) -> list[int]:
    counts = [positive_int(part.strip()) for part in text.split(",") if part.strip()]
    if not counts or max(counts) > 1024:
        raise argparse.ArgumentTypeError("give 1 to 1024 threads per cell, e.g. 1,8,64")
    return counts


def build_parser(prog: str = "loadtests writers") -> argparse.ArgumentParser:
    parser = Parser(
        prog=prog,
        description="Saves per second and latency of concurrent writers, one at a time vs "
        "group commit, per store.",
    )
    parser.add_argument(
        "--stores",
        type=store_names,
        default=None,
        help="comma-separated: memory, sqlite, postgres, redis or store URLs "
        "(default: sqlite,postgres,redis, those that answer)",
    )
    parser.add_argument(
        "--threads",
        type=_threads,
        default=list(DEFAULT_THREADS),
        help="writer thread counts, one cell each (default 1,8,64)",
    )
    parser.add_argument(
        "--seconds", type=_seconds, default=3.0, help="measured seconds per cell (default 3)"
    )
    parser.add_argument(
        "--state-kb",
        type=positive_int,
        default=16,
        help="size of the saved state in KB (default 16)",
    )
    parser.add_argument(
        "--batch", type=positive_int, default=64, help="largest group commit (default 64)"
    )
    parser.add_argument(
        "--batch-wait-us",
        type=int,
        default=0,
        help="how long a batch waits for more saves (default 0)",
    )
    add_server_urls(parser)
    parser.add_argument("--json", type=Path, help="also write the result as JSON to this file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.batch_wait_us < 0:
        parser.error("--batch-wait-us must not be negative")
    config = WritersConfig(
        stores=list(args.stores or DEFAULT_STORES),
        stores_given=args.stores is not None,
        threads=list(args.threads),
        seconds=args.seconds,
        state_kb=args.state_kb,
        batch=args.batch,
        batch_wait_us=args.batch_wait_us,
        postgres_url=args.postgres_url,
        redis_url=args.redis_url,
    )
    try:
        result = run_writers(config, progress=lambda line: print(line, file=sys.stderr))
    except StoreError as exc:
        print(f"loadtests writers: {exc}", file=sys.stderr)
        return 1
    print(format_table(result))
    if not write_json(args.json, result, "writers"):
        return 1
    failed = result["failed"] or any(
        cell[mode]["errors"] for cell in result["cells"] for mode in MODES
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
