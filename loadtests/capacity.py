"""``loadtests capacity``: from measured figures to what a deployment of U users needs.

    loadtests capacity --users U --followups-per-hour F --state-kb S [--measured FILE ...]
                       [--peak-factor 3] [--active-hours 8] [--turns-per-conversation 5]
                       [--retention-days 7] [--target-utilisation 0.7] [--cores N]
                       [--storage-gb G] [--overhead 1.0] [--store NAME|URL] [--json FILE]

The model (every figure scales linearly with the number of users):

    average follow-ups/s   = U x F / 3600          F: follow-ups a user makes per active hour
    peak follow-ups/s      = average x peak factor  default 3: the busiest minutes of a working
                                                    day (start of day, after meetings) run at
                                                    two to four times the day's average
    store operations/s     = 2 x peak               each follow-up restores once and saves once
    one process            = 1e6 / (run + restore + save) follow-ups/s, from one-thread times
                             in microseconds: the engine's run (search + agent) and the state's
                             restore (read, decrypt, parse) and save (serialize, encrypt, write)
                             at S KB; a Python process does this work on one core at a time
    server processes       = ceil(peak / (one process x target utilisation))   target 70 %
    store capacity         = 1 / (1/saves per s + 1/restores per s) follow-ups/s, the most the
                             store sustained under concurrent writers / readers
    conversations retained = U x F x active hours / turns per conversation x retention days
                             (a conversation is deleted after N days without use)
    storage                = retained x (encrypted state + entry) x overhead

Each resource (server cores, store throughput, storage) is compared with its capacity at the
target utilisation; the one that supports the fewest users runs out first.

Measured figures come from ``--measured`` files, recognised by their content: the JSON of
``loadtests writers --json`` (store saves/s), of ``loadtests bench --json`` (restore and save
times at several sizes, interpolated to S) and of this command's own ``--json`` (all figures,
reusable). Whatever they leave out is measured here, in-process, in a few seconds.
Exit codes: 0 fine, 1 a measurement failed, 2 bad usage or an unusable --measured file.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents_catalog.cli_kit import Parser
from loadtests.json_report import write_json

ENTRY_BYTES = 320  # an entry: ids, owner, encrypted title, times, version (plus index share)
MEASURED_FIELDS = (
    "run_us",
    "restore_us",
    "save_us",
    "store_saves_per_s",
    "store_restores_per_s",
    "stored_bytes",
)


class CapacityError(Exception):
    """A ``--measured`` file is unusable, or a measurement failed."""


@dataclass(frozen=True)
class Workload:
    users: int
    followups_per_hour: float
    state_kb: float
    peak_factor: float = 3.0
    active_hours: float = 8.0
    turns_per_conversation: float = 5.0
    retention_days: float = 7.0
    target_utilisation: float = 0.7
    overhead: float = 1.0


@dataclass(frozen=True)
class Measured:
    run_us: float  # engine work of one follow-up besides restore and save (search + agent run)
    restore_us: float  # read + decrypt + parse of the state, one thread
    save_us: float  # serialize + encrypt + write of the state, one thread
    store_saves_per_s: float  # most saves/s the store sustained
    store_restores_per_s: float  # most restores/s the store sustained
    stored_bytes: int  # the encrypted state


@dataclass(frozen=True)
class Limits:
    cores: int
    storage_bytes: float


# -- the model (pure) ----------------------------------------------------------------------------


def _resource(name: str, need: float, capacity: float, unit: str, users: int) -> dict[str, Any]:
    """A resource at peak: what is needed, what it offers at the target, users it supports."""
    return {
        "resource": name,
        "need": need,
        "capacity_at_target": capacity,
        "unit": unit,
        "utilisation_of_target": need / capacity if capacity else math.inf,
        "users_supported": int(users * capacity / need) if need else None,
    }


def plan_capacity(w: Workload, m: Measured, limits: Limits) -> dict[str, Any]:
    """The capacity plan of workload ``w`` given measured figures ``m`` and machine ``limits``."""
    average = w.users * w.followups_per_hour / 3600.0
    peak = average * w.peak_factor
    per_followup_us = m.run_us + m.restore_us + m.save_us
    per_process = 1e6 / per_followup_us
    usable_per_process = per_process * w.target_utilisation
    processes = math.ceil(peak / usable_per_process) if peak else 0
    store_followups = 1.0 / (1.0 / m.store_saves_per_s + 1.0 / m.store_restores_per_s)
    conversations_per_day = (
        w.users * w.followups_per_hour * w.active_hours / w.turns_per_conversation
    )
    retained = conversations_per_day * w.retention_days
    bytes_per_conversation = (m.stored_bytes + ENTRY_BYTES) * w.overhead
    storage = retained * bytes_per_conversation
    resources = [
        _resource(
            "server cores",
            peak / per_process,
            limits.cores * w.target_utilisation,
            "cores",
            w.users,
        ),
        _resource(
            "store throughput",
            peak,
            store_followups * w.target_utilisation,
            "follow-ups/s",
            w.users,
        ),
        _resource(
            "storage",
            storage,
            limits.storage_bytes * w.target_utilisation,
            "bytes",
            w.users,
        ),
    ]
    first = min(
        resources,
        key=lambda r: math.inf if r["users_supported"] is None else r["users_supported"],
    )
    return {
        "average_followups_per_s": average,
        "peak_followups_per_s": peak,
        "store_ops_per_s": 2 * peak,
        "restores_per_s": peak,
        "saves_per_s": peak,
        "per_followup_us": per_followup_us,
        "per_process_followups_per_s": per_process,
        "server_processes": processes,
        "store_followups_per_s": store_followups,
        "conversations_per_day": conversations_per_day,
        "conversations_retained": retained,
        "bytes_per_conversation": bytes_per_conversation,
        "storage_bytes": storage,
        "resources": resources,
        "runs_out_first": first["resource"],
        "users_at_first_limit": first["users_supported"],
    }


# -- measured figures from files -----------------------------------------------------------------


def _kind(name: str) -> str:
    scheme = name.split("://", 1)[0].lower()
    return {"postgresql": "postgres", "rediss": "redis"}.get(scheme, scheme)


def _from_writers(data: dict[str, Any], store: str | None) -> tuple[dict[str, float], str]:
    cells = [c for c in data["cells"] if store is None or _kind(c["store"]) == _kind(store)]
    if not cells:
        raise CapacityError(f"it has no cells of store {store!r}")
    label = cells[0]["store"]
    best = max(
        (
            (c[mode]["saves_per_s"], mode, c["threads"])
            for c in cells
            if c["store"] == label
            for mode in ("single", "batch")
            if not c[mode]["errors"]
        ),
        default=None,
    )
    if best is None:
        raise CapacityError("every cell of it had failed saves")
    rate, mode, threads = best
    how = "batching" if mode == "batch" else "one at a time"
    figures: dict[str, float] = {"store_saves_per_s": rate}
    if "stored_bytes" in data:
        figures["stored_bytes"] = data["stored_bytes"]
    return figures, f"writers {label}, {threads} threads, {how}, {data['state_kb']} KB"


def _from_bench(data: dict[str, Any], state_bytes: int) -> tuple[dict[str, float], str]:
    results = sorted(data["results"], key=lambda r: r["size"])
    sizes = [r["size"] for r in results]

    def at(stage: str) -> float:
        values = [r["stages_us"][stage]["p50_us"] for r in results]
        return float(np.interp(state_bytes, sizes, values))

    stored = float(np.interp(state_bytes, sizes, [r["stored_bytes"] for r in results]))
    figures = {
        "restore_us": at("restore"),
        "save_us": at("save"),
        # One thread of reads: a floor of what the store sustains with more.
        "store_restores_per_s": 1e6 / at("read"),
        "stored_bytes": round(stored),
    }
    kind = data.get("store", {}).get("kind", "?")
    return figures, f"bench {kind}, p50 interpolated to {state_bytes / 1024:g} KB"


def _source_of(name: str, source: str) -> str:
    if name == "store_restores_per_s" and source.startswith("bench"):
        return f"{source.split(',')[0]}, 1e6 / read p50: one reader, a floor"
    return source


def read_measured(
    paths: Sequence[Path], state_bytes: int, store: str | None
) -> tuple[dict[str, float], dict[str, str]]:
    """Figures the files give (the first file giving a figure wins) and where each came from."""
    figures: dict[str, float] = {}
    sources: dict[str, str] = {}
    for path in paths:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise CapacityError(f"--measured {path}: cannot read it as JSON: {exc}") from exc
        try:
            if isinstance(data, dict) and "cells" in data:
                found, source = _from_writers(data, store)
            elif isinstance(data, dict) and "results" in data:
                found, source = _from_bench(data, state_bytes)
            elif isinstance(data, dict) and "measured" in data and "plan" in data:
                found = {k: float(v) for k, v in data["measured"].items() if k in MEASURED_FIELDS}
                source = f"capacity file {path.name}"
            else:
                raise CapacityError("it is not writers, bench or capacity JSON")
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
            raise CapacityError(f"--measured {path}: unexpected content ({exc!r})") from exc
        except CapacityError as exc:
            raise CapacityError(f"--measured {path}: {exc}") from exc
        for name, value in found.items():
            if name not in figures:
                if not value > 0:
                    raise CapacityError(f"--measured {path}: {name} is {value}, not positive")
                figures[name] = value
                sources[name] = _source_of(name, source)
    return figures, sources


# -- a quick in-process sample -------------------------------------------------------------------

CONVERSATION_LENGTH = 6
SAMPLE_QUERIES = (
    "I need to fly to Berlin next week for the client workshop",
    "file my travel expenses for that trip",
    "what's the status of the open invoice for that customer",
    "open a ticket because the customer's order arrived damaged",
)


def sample_run_us(followups: int = 24) -> float:
    """Median engine time of a follow-up besides its restore and save: search, then the run."""
    from mock_account.deployment import AccountConfig, build_deployment

    with tempfile.TemporaryDirectory(prefix="loadtests-capacity-") as tmp:
        deployment = build_deployment(AccountConfig(data_dir=Path(tmp)))
        try:
            account, user = deployment.account, deployment.users.users[0]
            for query in SAMPLE_QUERIES:  # warm-up: first searches fill the caches
                account.route(user, query, None)
            times: list[float] = []
            convid: str | None = None
            for i in range(followups + followups // CONVERSATION_LENGTH + 1):
                if i % CONVERSATION_LENGTH == 0:
                    convid = None  # a new conversation now and then, as users do
                query = SAMPLE_QUERIES[i % len(SAMPLE_QUERIES)]
                started = time.perf_counter()
                agent = account.route(user, query, convid)[0] or ""
                routed = time.perf_counter() - started
                result = account.exec_agent(user, agent, {"query": query}, convid)
                run = routed + result.timings.get("run", 0.0)
                while result.success and result.result_code == "ask" and result.ask_input:
                    answers = {
                        field["name"]: field.get("default") or (field.get("options") or ["yes"])[0]
                        for field in result.ask_input["inputs"]
                    }
                    result = account.exec_agent(user, agent, answers, result.convid)
                    run += result.timings.get("run", 0.0)
                if not result.success:
                    raise CapacityError(
                        f"sample follow-up {query!r} failed: {result.result_code} {result.error}"
                    )
                if convid is not None:  # a follow-up, not the first request
                    times.append(run)
                convid = result.convid
        finally:
            deployment.close()
    return statistics.median(times) * 1e6


def _restore_rate(
    store: Any, pipeline: Any, convids: list[str], threads: int, seconds: float
) -> float:
    """Restores per second of ``threads`` readers (load + decrypt) for ``seconds``."""
    done = [0] * threads
    deadline = time.perf_counter() + seconds

    def reader(k: int) -> None:
        while time.perf_counter() < deadline:
            pipeline.restore(convids[(k + done[k]) % len(convids)])
            done[k] += 1

    started = time.perf_counter()
    workers = [threading.Thread(target=reader, args=(k,)) for k in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(done) / (time.perf_counter() - started)


def sample_store(
    store_url: str | None, state_bytes: int, progress: Callable[[str], None]
) -> dict[str, float]:
    """Restore and save times at the state size, and the store's saves/s and restores/s."""
    from loadtests.pipeline import StatePipeline, new_convid
    from loadtests.states import build_state
    from loadtests.writers import measure_cell
    from mock_account.crypto import Keyring, StateCipher
    from mock_account.engine.state import serialize_state
    from mock_account.stores import open_store
    from mock_account.stores.batching import BatchingStore

    state = build_state(max(1024, state_bytes))
    plain = serialize_state(state)
    cipher = StateCipher(Keyring.generate())
    with tempfile.TemporaryDirectory(prefix="loadtests-capacity-") as tmp:
        url = store_url or f"sqlite:///{Path(tmp).resolve() / 'capacity.db'}"
        store = open_store(url)
        try:
            pipeline = StatePipeline(store, cipher)
            convids = [new_convid() for _ in range(8)]
            saves, restores = [], []
            stored = 0
            for convid in convids:
                stored = pipeline.save(convid, state, 0).stored_bytes
            for i in range(24):
                convid = convids[i % len(convids)]
                saves.append(pipeline.save(convid, state, pipeline.version(convid)).total_us)
                restores.append(pipeline.restore(convid)[1].total_us)
            progress("capacity: sampling the store's restores/s (4 readers) ...")
            restore_rate = _restore_rate(store, pipeline, convids, 4, 0.5)
            for convid in convids:
                pipeline.delete(convid)
            progress("capacity: sampling the store's saves/s (8 writers, both modes) ...")
            single = measure_cell(store, 8, 0.5, plain, cipher).saves_per_s
        finally:
            store.close()
        batching = BatchingStore(open_store(url))
        try:
            batched = measure_cell(batching, 8, 0.5, plain, cipher).saves_per_s
        finally:
            batching.close()
    return {
        "restore_us": statistics.median(restores),
        "save_us": statistics.median(saves),
        "store_restores_per_s": restore_rate,
        "store_saves_per_s": max(single, batched),
        "stored_bytes": stored,
    }


def gather_measured(
    paths: Sequence[Path], state_bytes: int, store: str | None, progress: Callable[[str], None]
) -> tuple[Measured, dict[str, str]]:
    """The figures of the files, completed by an in-process sample where they are silent."""
    figures, sources = read_measured(paths, state_bytes, store)
    missing = [name for name in MEASURED_FIELDS if name not in figures]
    if set(missing) - {"run_us"}:
        if store is None or _kind(store) == "sqlite" and "://" not in store:
            url, where = None, "temporary SQLite file"
        elif store == "memory":
            url, where = "memory://", "memory store"
        elif "://" in store:
            url, where = store, f"{_kind(store)} store"
        else:
            raise CapacityError(
                f"figures of store {store!r} are missing: give its URL to sample it "
                "(--store postgresql://...) or --measured files covering it"
            )
        progress(f"capacity: sampling restore and save at the state size ({where}) ...")
        for name, value in sample_store(url, state_bytes, progress).items():
            if name in missing:
                figures[name] = value
                sources[name] = f"in-process sample, {where}"
    if "run_us" in missing:
        progress("capacity: sampling engine follow-ups ...")
        figures["run_us"] = sample_run_us()
        sources["run_us"] = "in-process sample, engine follow-ups (search + run), median"
    return Measured(**{name: figures[name] for name in MEASURED_FIELDS}), sources  # type: ignore[arg-type]


# -- output --------------------------------------------------------------------------------------


def _bytes(n: float) -> str:
    for unit, size in (("TB", 1024**4), ("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if n >= size:
            return f"{n / size:,.1f} {unit}"
    return f"{n:,.0f} B"


def _need(resource: dict[str, Any], key: str) -> str:
    value = resource[key]
    if resource["unit"] == "bytes":
        return _bytes(value)
    return f"{value:,.2f} {resource['unit']}"


def format_plan(result: dict[str, Any]) -> str:
    """The readable plan of a ``build_result`` result."""
    w, m, p = result["workload"], result["measured"], result["plan"]
    src = result["sources"]
    pct = f"{w['target_utilisation']:.0%}"
    lines = [
        f"capacity: {w['users']:,} users x {w['followups_per_hour']:g} follow-ups/hour, "
        f"{w['state_kb']:g} KB state",
        "",
        "demand",
        f"  average follow-ups/s     {p['average_followups_per_s']:>14,.1f}"
        f"   users x follow-ups/hour / 3600",
        f"  peak follow-ups/s        {p['peak_followups_per_s']:>14,.1f}"
        f"   x {w['peak_factor']:g} peak factor",
        f"  store operations/s       {p['store_ops_per_s']:>14,.1f}"
        f"   {p['restores_per_s']:,.1f} restores + {p['saves_per_s']:,.1f} saves",
        f"  conversations retained   {p['conversations_retained']:>14,.0f}"
        f"   {p['conversations_per_day']:,.0f} a day x {w['retention_days']:g} days",
        f"  storage                  {_bytes(p['storage_bytes']):>14}"
        f"   x ({m['stored_bytes']:,} B state + {ENTRY_BYTES} B entry) x {w['overhead']:g}",
        "",
        "measured (one thread, microseconds unless said)",
        f"  engine run               {m['run_us']:>14,.0f}   {src['run_us']}",
        f"  restore                  {m['restore_us']:>14,.0f}   {src['restore_us']}",
        f"  save                     {m['save_us']:>14,.0f}   {src['save_us']}",
        f"  store saves/s            {m['store_saves_per_s']:>14,.0f}   {src['store_saves_per_s']}",
        f"  store restores/s         {m['store_restores_per_s']:>14,.0f}   "
        f"{src['store_restores_per_s']}",
        f"  one process follow-ups/s {p['per_process_followups_per_s']:>14,.1f}"
        f"   1e6 / (run + restore + save)",
        "",
        f"server processes needed: {p['server_processes']} "
        f"(at {pct} of {p['per_process_followups_per_s']:,.1f} follow-ups/s each)",
        "",
        f"resources at peak, against {pct} of capacity",
        f"  {'resource':<18}{'need':>18}{'capacity at ' + pct:>22}{'used':>8}"
        f"{'users supported':>18}",
    ]
    for r in p["resources"]:
        users = "-" if r["users_supported"] is None else f"{r['users_supported']:,}"
        lines.append(
            f"  {r['resource']:<18}{_need(r, 'need'):>18}{_need(r, 'capacity_at_target'):>22}"
            f"{r['utilisation_of_target']:>8.0%}{users:>18}"
        )
    lines += [
        "",
        f"runs out first: {p['runs_out_first']}, at about {p['users_at_first_limit']:,} users "
        f"(limits: {result['limits']['cores']} cores, "
        f"{_bytes(result['limits']['storage_bytes'])} of storage)",
    ]
    return "\n".join(lines)


def build_result(
    w: Workload, m: Measured, limits: Limits, sources: dict[str, str]
) -> dict[str, Any]:
    """The JSON-ready result: inputs, measured figures with their sources, and the plan."""
    measured = asdict(m) | {"state_kb": w.state_kb}
    return {
        "workload": asdict(w),
        "limits": asdict(limits),
        "measured": measured,
        "sources": sources,
        "plan": plan_capacity(w, m, limits),
    }


# -- command line --------------------------------------------------------------------------------


def _number(
    minimum: float, *, integer: bool = False, inclusive: bool = False
) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = int(text) if integer else float(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from exc
        if not math.isfinite(value) or value < minimum or (value == minimum and not inclusive):
            bound = "at least" if inclusive else "above"
            raise argparse.ArgumentTypeError(f"expected a number {bound} {minimum:g}, got {text}")
        return value

    return parse


def _fraction(text: str) -> float:
    value = _number(0.0)(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"expected a fraction up to 1, got {text}")
    return value


def _default_storage_bytes() -> float:
    return float(shutil.disk_usage(Path.cwd()).free)


def build_parser(prog: str = "loadtests capacity") -> argparse.ArgumentParser:
    parser = Parser(prog=prog, description="Capacity plan from measured figures.")
    add = parser.add_argument
    add(
        "--users",
        type=_number(1, integer=True, inclusive=True),
        required=True,
        help="users of the deployment",
    )
    add(
        "--followups-per-hour",
        type=_number(0),
        required=True,
        help="follow-ups a user makes per active hour",
    )
    add("--state-kb", type=_number(0), required=True, help="typical state size in KB")
    add(
        "--measured",
        type=Path,
        action="append",
        default=[],
        help="JSON of loadtests writers / bench / capacity (repeatable)",
    )
    add(
        "--store",
        help="store the figures are for: sqlite, postgres, redis, memory or a URL "
        "(filters --measured files; a URL or sqlite/memory is sampled when figures are missing)",
    )
    add(
        "--peak-factor",
        type=_number(1, inclusive=True),
        default=3.0,
        help="peak rate over the average of active hours (default 3)",
    )
    add(
        "--active-hours",
        type=_number(0),
        default=8.0,
        help="hours a day users are active (default 8)",
    )
    add(
        "--turns-per-conversation",
        type=_number(1, inclusive=True),
        default=5.0,
        help="requests per conversation, the first included (default 5)",
    )
    add(
        "--retention-days",
        type=_number(0),
        default=7.0,
        help="days a conversation is kept after its last use (default 7, the free plan)",
    )
    add(
        "--target-utilisation",
        type=_fraction,
        default=0.7,
        help="share of each resource to plan for (default 0.7)",
    )
    add(
        "--cores",
        type=_number(1, integer=True, inclusive=True),
        default=os.cpu_count() or 1,
        help="cores for server processes (default: this machine's)",
    )
    add(
        "--storage-gb",
        type=_number(0),
        help="storage of the store in GB (default: free space of the current folder's disk)",
    )
    add(
        "--overhead",
        type=_number(1, inclusive=True),
        default=1.0,
        help="storage multiplier for indexes, WAL and the backend's own overhead (default 1)",
    )
    add("--json", type=Path, help="also write the result as JSON to this file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    workload = Workload(
        users=int(args.users),
        followups_per_hour=args.followups_per_hour,
        state_kb=args.state_kb,
        peak_factor=args.peak_factor,
        active_hours=args.active_hours,
        turns_per_conversation=args.turns_per_conversation,
        retention_days=args.retention_days,
        target_utilisation=args.target_utilisation,
        overhead=args.overhead,
    )
    storage = args.storage_gb * 1024**3 if args.storage_gb else _default_storage_bytes()
    limits = Limits(cores=int(args.cores), storage_bytes=storage)

    def progress(line: str) -> None:
        print(line, file=sys.stderr)

    from mock_account.crypto import CryptoError
    from mock_account.stores import StoreError

    try:
        measured, sources = gather_measured(
            args.measured, round(args.state_kb * 1024), args.store, progress
        )
    except CapacityError as exc:
        print(f"loadtests capacity: {exc}", file=sys.stderr)
        return 2
    except (StoreError, CryptoError) as exc:
        print(f"loadtests capacity: measuring failed: {exc}", file=sys.stderr)
        return 1
    result = build_result(workload, measured, limits, sources)
    print(format_plan(result))
    if not write_json(args.json, result, "capacity"):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
