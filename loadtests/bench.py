"""``loadtests bench``: the stages of state save and restore next to raw baselines, in one run.

For each state size a realistic state is built (``states``), saved once to create its
conversation, then every iteration measures, on the same bytes:

    save      serialize, encrypt, write (compare-and-swap ``commit_run``)
    restore   read (``load``), decrypt, parse
    baselines raw AES-GCM encrypt and decrypt, raw upsert and raw read (``baselines``), and
              the bare JSON calls (``orjson.dumps`` / ``orjson.loads``, no checks)

The operations of an iteration run in turn, the order reversed every other iteration (A/B, B/A),
so slow phases of a shared machine hit both sides alike; with ``--peers`` each peer's save and
restore of the same state are operations of the same loop. Results are exact percentiles of the
samples, in microseconds, and the ratios a reader wants: what a save costs over a raw upsert,
what a restore costs over a raw read plus decrypt, and encryption's share of a save. The
"floor" ratios add the bare JSON calls to those baselines: what a save or restore of a JSON
state costs at the very least, so what is left over them is the harness's own work (the exact
round-trip check, the compare-and-swap, the record format, Python).
"""

from __future__ import annotations

import gc
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import orjson

from loadtests.baselines import RawTable, open_raw_table, raw_aesgcm
from loadtests.machine import machine_info
from loadtests.peers import PeerOps, open_peers, peer_line, peer_result
from loadtests.pipeline import StatePipeline, new_convid
from loadtests.states import build_state, size_label
from mock_account.engine.state import serialize_state
from mock_account.stores import open_store

DEFAULT_SIZES = ("1KB", "16KB", "256KB", "1MB")
DEFAULT_ITERATIONS = 200
SAVE_COLUMNS = (
    "serialize",
    "encrypt",
    "write",
    "save",
    "raw_dumps",
    "raw_encrypt",
    "raw_upsert",
)
RESTORE_COLUMNS = (
    "read",
    "decrypt",
    "parse",
    "restore",
    "raw_read",
    "raw_decrypt",
    "raw_loads",
    "raw_read_decrypt",
)


@dataclass
class BenchConfig:
    sizes: list[int]
    store_url: str | None = None
    iterations: int = DEFAULT_ITERATIONS
    warmup: int = 5
    peers: bool = False


@dataclass
class SizeResult:
    size: int
    stored_bytes: int
    samples: dict[str, list[float]] = field(default_factory=dict)
    #: Per peer: its label and its save and restore samples (µs), taken in the same loop.
    peers: dict[str, tuple[str, list[float], list[float]]] = field(default_factory=dict)
    #: Peers whose save or restore failed during the loop, with the error.
    peer_failures: dict[str, str] = field(default_factory=dict)

    def stat(self, name: str, p: float) -> float:
        return float(np.percentile(np.asarray(self.samples[name]), p))

    def as_dict(self) -> dict[str, Any]:
        stages = {
            name: {
                "p50_us": round(self.stat(name, 50), 1),
                "p99_us": round(self.stat(name, 99), 1),
                "mean_us": round(float(np.mean(values)), 1),
            }
            for name, values in self.samples.items()
        }
        return {
            "size": self.size,
            "label": size_label(self.size),
            "stored_bytes": self.stored_bytes,
            "iterations": len(self.samples["save"]),
            "stages_us": stages,
            "ratios": self.ratios(),
        }

    def ratios(self) -> dict[str, float]:
        p50 = {name: self.stat(name, 50) for name in self.samples}
        p99 = {name: self.stat(name, 99) for name in ("save", "raw_upsert", "restore")}
        p99["raw_read_decrypt"] = self.stat("raw_read_decrypt", 99)
        save_floor, restore_floor = floors(p50)
        return {
            "save_over_raw_upsert": round(p50["save"] / p50["raw_upsert"], 2),
            "save_p99_over_raw_upsert_p99": round(p99["save"] / p99["raw_upsert"], 2),
            "write_over_raw_upsert": round(p50["write"] / p50["raw_upsert"], 2),
            "restore_over_raw_read_decrypt": round(p50["restore"] / p50["raw_read_decrypt"], 2),
            "restore_p99_over_raw_read_decrypt_p99": round(
                p99["restore"] / p99["raw_read_decrypt"], 2
            ),
            "encrypt_share_of_save": round(p50["encrypt"] / p50["save"], 3),
            "encrypt_over_raw_aesgcm": round(p50["encrypt"] / p50["raw_encrypt"], 2),
            "save_over_floor": round(p50["save"] / save_floor, 2),
            "restore_over_floor": round(p50["restore"] / restore_floor, 2),
            # Where the targets stand against the floor itself: a save that did nothing but the
            # bare dump, AES-GCM and upsert, a restore nothing but the raw read, decrypt and a
            # bare parse, and a cipher that cost no more than raw AES-GCM.
            "floor_save_over_raw_upsert": round(save_floor / p50["raw_upsert"], 2),
            "floor_restore_over_raw_read_decrypt": round(
                restore_floor / p50["raw_read_decrypt"], 2
            ),
            "raw_aesgcm_share_of_save": round(p50["raw_encrypt"] / p50["save"], 3),
        }


def floors(p50: Mapping[str, float]) -> tuple[float, float]:
    """The floor of a save (bare JSON dump + raw AES-GCM + raw upsert) and of a restore (raw read
    + raw decrypt + bare JSON parse), from the p50 of each baseline column, µs."""
    return (
        p50["raw_dumps"] + p50["raw_encrypt"] + p50["raw_upsert"],
        p50["raw_read_decrypt"] + p50["raw_loads"],
    )


def timed(func: Callable[[], Any]) -> tuple[Any, float]:
    """``func()`` and the microseconds it took."""
    start = time.perf_counter_ns()
    value = func()
    return value, (time.perf_counter_ns() - start) / 1000.0


def interleave(
    operations: Sequence[Callable[[], None]],
    iterations: int,
    warmup: int,
    forget_warmup: Callable[[], None],
) -> None:
    """Run the operations in turn ``warmup`` times (their samples then dropped by
    ``forget_warmup``), then ``iterations`` times, the order reversed every other iteration
    (A/B, B/A) so that slow phases of a shared machine hit both sides alike."""
    for _ in range(warmup):
        for op in operations:
            op()
    forget_warmup()
    # The collector would land its pauses on whichever operation happened to be running.
    gc.collect()
    gc.disable()
    try:
        for i in range(iterations):
            for op in operations if i % 2 == 0 else reversed(operations):
                op()
    finally:
        gc.enable()


def _peer_operation(result: SizeResult, key: str, label: str, ops: PeerOps) -> Callable[[], None]:
    """The peer's save then its restore, each timed into ``result``."""
    save, restore = ops
    saves: list[float] = []
    restores: list[float] = []
    result.peers[key] = (label, saves, restores)

    def run() -> None:
        if key in result.peer_failures:
            return
        try:
            saves.append(timed(save)[1])
            restores.append(timed(restore)[1])
        except Exception as exc:  # a peer failing mid-run must not stop the bench
            result.peer_failures[key] = f"{type(exc).__name__}: {exc}"

    return run


def _bench_size(
    pipeline: StatePipeline,
    raw: RawTable,
    size: int,
    iterations: int,
    warmup: int,
    peers: dict[str, tuple[str, PeerOps]] | None = None,
) -> SizeResult:
    state = build_state(size)
    plain = serialize_state(state)
    aes = raw_aesgcm()
    convid, raw_key = new_convid(), new_convid()
    first = pipeline.save(convid, state, 0)
    version = 1
    raw.upsert(raw_key, aes.encrypt(plain))
    samples: dict[str, list[float]] = {name: [] for name in (*SAVE_COLUMNS, *RESTORE_COLUMNS)}

    def save() -> None:
        nonlocal version
        times = pipeline.save(convid, state, version)
        version += 1
        for stage, value in times.stages.items():
            samples[stage].append(value)
        samples["save"].append(times.total_us)

    def restore() -> None:
        _, times = pipeline.restore(convid)
        for stage, value in times.stages.items():
            samples[stage].append(value)
        samples["restore"].append(times.total_us)

    def raw_write() -> None:
        samples["raw_dumps"].append(timed(lambda: orjson.dumps(state))[1])
        blob, enc_us = timed(lambda: aes.encrypt(plain))
        _, up_us = timed(lambda: raw.upsert(raw_key, blob))
        samples["raw_encrypt"].append(enc_us)
        samples["raw_upsert"].append(up_us)

    def raw_read() -> None:
        blob, read_us = timed(lambda: raw.read(raw_key))
        opened, dec_us = timed(lambda: aes.decrypt(blob))
        samples["raw_loads"].append(timed(lambda: orjson.loads(opened))[1])
        samples["raw_read"].append(read_us)
        samples["raw_decrypt"].append(dec_us)
        samples["raw_read_decrypt"].append(read_us + dec_us)

    result = SizeResult(size=size, stored_bytes=first.stored_bytes, samples=samples)
    operations = [save, raw_write, restore, raw_read]
    operations += [
        _peer_operation(result, k, label, ops) for k, (label, ops) in (peers or {}).items()
    ]

    def forget_warmup() -> None:
        for values in samples.values():
            values.clear()
        for _, saves, restores in result.peers.values():
            saves.clear()
            restores.clear()

    try:
        interleave(operations, iterations, warmup, forget_warmup)
    finally:
        pipeline.delete(convid)
    return result


def _store_kind(url: str) -> str:
    scheme = urlsplit(url).scheme.lower()
    return {"postgres": "postgresql", "rediss": "redis"}.get(scheme, scheme)


def _synchronous(url: str) -> str:
    """The ``synchronous`` setting of a SQLite store URL (peers write at the same durability)."""
    return dict(parse_qsl(urlsplit(url).query)).get("synchronous", "NORMAL").upper()


def _compare_peers(row: dict[str, Any]) -> None:
    """Add to each peer of ``row`` how many times slower than the harness it is, per percentile."""
    ours = row["stages_us"]
    # The peer against the floor too: a harness twice as fast as a peer at or under 2x the floor
    # would be faster than the bare parts of its own save or restore.
    save_floor, restore_floor = floors({name: stage["p50_us"] for name, stage in ours.items()})
    floor = {"save": save_floor, "restore": restore_floor}
    for peer in row["peers"].values():
        peer["over_harness"] = {
            f"{op}_{p}": round(peer[op][f"{p}_us"] / ours[op][f"{p}_us"], 2)
            for op in ("save", "restore")
            for p in ("p50", "p99")
        }
        peer["over_floor"] = {
            f"{op}_p50": round(peer[op]["p50_us"] / floor[op], 2) for op in ("save", "restore")
        }


def _peer_ratio_lines(row: dict[str, Any]) -> list[str]:
    return [
        f"{row['label']:>6} peer {peer['label']} / harness: save p50 "
        f"{peer['over_harness']['save_p50']:.2f}x p99 {peer['over_harness']['save_p99']:.2f}x; "
        f"restore p50 {peer['over_harness']['restore_p50']:.2f}x "
        f"p99 {peer['over_harness']['restore_p99']:.2f}x; over the floor: save p50 "
        f"{peer['over_floor']['save_p50']:.2f}x, "
        f"restore p50 {peer['over_floor']['restore_p50']:.2f}x"
        for peer in row["peers"].values()
    ]


def run_bench(config: BenchConfig, progress: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the benchmark and return its JSON-ready result."""
    if config.iterations < 1:
        raise ValueError("iterations must be at least 1")
    with tempfile.TemporaryDirectory(prefix="loadtests-bench-") as tmp:
        url = config.store_url or f"sqlite:///{Path(tmp).resolve() / 'bench.db'}"
        store = open_store(url)
        try:
            raw = open_raw_table(url, store)
            try:
                pipeline = StatePipeline(store)
                results = []
                peer_lines: list[str] = []
                for size in config.sizes:
                    progress(f"bench: {size_label(size)} x {config.iterations} ...")
                    with ExitStack() as stack:
                        opened, lines = (
                            open_peers(stack, Path(tmp), build_state(size), _synchronous(url))
                            if config.peers
                            else ({}, [])
                        )
                        result = _bench_size(
                            pipeline, raw, size, config.iterations, config.warmup, opened
                        )
                    row = result.as_dict()
                    if config.peers:
                        row["peers"] = {}
                        for key, (label, saves, restores) in result.peers.items():
                            if key in result.peer_failures:
                                failure = result.peer_failures[key]
                                lines.append(f"peer {label}: failed ({failure})")
                            else:
                                row["peers"][key] = peer_result(label, saves, restores)
                                lines.append(peer_line(row["peers"][key]))
                        _compare_peers(row)
                        peer_lines += [
                            line if "skipped" in line else f"{size_label(size):>6} {line}"
                            for line in lines
                            if line not in peer_lines
                        ]
                        peer_lines += _peer_ratio_lines(row)
                    results.append(row)
                description = raw.description
            finally:
                raw.close()
        finally:
            store.close()
    redacted = urlsplit(url)
    if redacted.password:
        url = url.replace(f":{redacted.password}@", ":***@", 1)
    return {
        "store": {
            "url": url if config.store_url else "temporary SQLite file",
            "kind": _store_kind(url),
            "baseline": description,
        },
        "iterations": config.iterations,
        "warmup": config.warmup,
        "order": "interleaved, A/B then B/A on alternate iterations",
        "results": results,
        "peers": peer_lines if config.peers else [],
        "machine": machine_info(),
    }


def _cell(stage: dict[str, float]) -> str:
    return f"{stage['p50_us']:>9.1f} {stage['p99_us']:>9.1f}"


def format_table(result: dict[str, Any]) -> str:
    """The result as a readable text table (p50 and p99 in µs per stage, then the ratios)."""
    store = result["store"]
    lines = [
        f"State save / restore on {store['kind']} ({store['url']}), "
        f"{result['iterations']} interleaved iterations per size; p50 and p99 in µs",
        f"baseline store: {store['baseline']}; baseline crypto: AES-256-GCM, no HKDF / AAD",
        "",
    ]

    def block(title: str, columns: tuple[str, ...]) -> None:
        header = f"{'size':>6} " + " ".join(f"{c:>19}" for c in columns)
        lines.extend([title, header, " " * 7 + " ".join(f"{'p50':>9} {'p99':>9}" for _ in columns)])
        for row in result["results"]:
            cells = " ".join(_cell(row["stages_us"][c]) for c in columns)
            lines.append(f"{row['label']:>6} {cells}")
        lines.append("")

    def ratio_rows(*columns: tuple[str, str]) -> None:
        """A header of ratio titles, then a row per size, each ratio under its title (a share
        as a percentage)."""
        titles = " ".join(f"{title:>{len(title) + 1}}" for title, _ in columns)
        lines.append(f"{'size':>6} {titles}")
        for row in result["results"]:
            cells = " ".join(
                f"{row['ratios'][key] * 100:>{len(title)}.1f}%"
                if key.endswith("_share_of_save")
                else f"{row['ratios'][key]:>{len(title)}.2f}x"
                for title, key in columns
            )
            lines.append(f"{row['label']:>6} {cells}")

    block("SAVE", SAVE_COLUMNS)
    block("RESTORE", RESTORE_COLUMNS)
    ratio_rows(
        ("save/raw upsert", "save_over_raw_upsert"),
        ("write/raw upsert", "write_over_raw_upsert"),
        ("restore/(raw read+decrypt)", "restore_over_raw_read_decrypt"),
        ("encrypt share of save", "encrypt_share_of_save"),
        ("encrypt/raw AES-GCM", "encrypt_over_raw_aesgcm"),
    )
    ratio_rows(
        ("floor: save/(dumps+AES-GCM+upsert)", "save_over_floor"),
        ("restore/(read+decrypt+loads)", "restore_over_floor"),
    )
    ratio_rows(
        ("the floor alone: (dumps+AES-GCM+upsert)/raw upsert", "floor_save_over_raw_upsert"),
        ("(read+decrypt+loads)/(raw read+decrypt)", "floor_restore_over_raw_read_decrypt"),
        ("raw AES-GCM share of save", "raw_aesgcm_share_of_save"),
    )
    ratio_rows(
        ("p99: save/raw upsert", "save_p99_over_raw_upsert_p99"),
        ("restore/(raw read+decrypt)", "restore_p99_over_raw_read_decrypt_p99"),
    )
    lines.extend(result["peers"])
    return "\n".join(lines)
