"""``loadtests scale``: what a save, a restore and a page of the list cost as one owner's stored
conversations grow.

    loadtests scale [--stores sqlite,postgres,redis] [--sizes 1000,10000,100000] [--steps 500]
                    [--state-size 4KB] [--page 10] [--postgres-url URL] [--redis-url URL]
                    [--json FILE]

For each store, the load tests' owner (``loadtests.pipeline``) is given conversations until it
has the first size, then the next, and so on. At each size ``--steps`` steps are measured, each
a save of one of its conversations picked at random (a follow-up: a compare-and-swap over its
version), a restore of another, and the first page of its list (``list_recent``, ``--page``
entries), the order reversed every other step as in ``loadtests bench``. Saves and restores are
the vault's (``StatePipeline``), timed by its own stage clock; the page is the store's call.
The growth ratios divide each percentile at the largest size by the same at the smallest.

Growing goes through the same save (``StatePipeline.save`` at version 0, so every stored
conversation is one the server could have made), from ``SEED_THREADS`` threads through group
commit (``BatchingStore``), which hands the saves to the store's own bulk path,
``commit_runs``: one transaction per batch on SQLite, one pipelined transaction on PostgreSQL,
one pipeline on Redis. The state is checked once and its bytes saved each time. On a 2-core
machine, 10^5 conversations take some 10 s on SQLite, 25 s on Redis and a minute on
PostgreSQL (each save alone: 0.3, 0.5 and 4.5 ms).

Every store is a place of the run's own (``loadtests.store_targets``: a temporary SQLite file,
PostgreSQL schema or Redis key prefix), removed afterwards. Exit codes: 0 fine, 1 a save,
restore or listing failed during the run, 2 bad usage or a store that cannot be opened.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from agents_catalog.cli_kit import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Parser, positive_int
from loadtests import store_targets
from loadtests.bench import interleave, timed
from loadtests.json_report import write_json
from loadtests.machine import machine_info
from loadtests.pipeline import StatePipeline, new_convid
from loadtests.states import build_state, parse_size, size_label
from mock_account.crypto import Keyring, StateCipher
from mock_account.engine.state import check_state
from mock_account.stores import ConversationStore, StoreError, open_store
from mock_account.stores.batching import BatchingStore

DEFAULT_STORES = ("sqlite", "postgres", "redis")
DEFAULT_SIZES = (1_000, 10_000, 100_000)
MAX_SIZE = 1_000_000
DEFAULT_STEPS = 500
WARMUP_STEPS = 20
DEFAULT_STATE = "4KB"
DEFAULT_PAGE = 10
#: Enough concurrent saves to fill group commits of 64 (more did not seed faster: the GIL).
SEED_THREADS = 64
OPERATIONS = ("save", "restore", "list")
PERCENTILES = (50, 99)


@dataclass
class ScaleConfig:
    """What ``loadtests scale`` measures (its command-line options)."""

    stores: list[str] = field(default_factory=lambda: list(DEFAULT_STORES))
    sizes: list[int] = field(default_factory=lambda: list(DEFAULT_SIZES))
    steps: int = DEFAULT_STEPS
    state_bytes: int = parse_size(DEFAULT_STATE)
    page: int = DEFAULT_PAGE
    postgres_url: str = store_targets.DEFAULT_POSTGRES_URL
    redis_url: str = store_targets.DEFAULT_REDIS_URL
    seed: int = 7  # which conversations the steps pick


class ScaleFailed(Exception):
    """A save, restore or listing failed while the store grew or was measured."""


class _Owner:
    """One owner's conversations on one store: grown through the vault, then measured."""

    def __init__(self, store: ConversationStore, state: dict[str, Any], config: ScaleConfig):
        cipher = StateCipher(Keyring.generate())
        # Closing the batching store closes ``store`` too: it is closed once, by ``close``.
        self.batching = BatchingStore(store)
        self.grower = StatePipeline(self.batching, cipher)
        self.pipeline = StatePipeline(store, cipher)
        self.store = store
        self.state = state
        self.plain = check_state(state)
        self.page = config.page
        self.rng = random.Random(config.seed)
        self.convids: list[str] = []
        self.versions: list[int] = []

    def close(self) -> None:
        self.batching.close()

    def grow(self, size: int) -> float:
        """Create conversations until there are ``size``; the seconds it took."""
        new = [new_convid() for _ in range(size - len(self.convids))]
        failures: list[BaseException] = []

        def save_all(convids: Sequence[str]) -> None:
            try:
                for convid in convids:
                    self.grower.save(convid, self.plain, 0)
            except Exception as exc:  # re-raised by the caller, whichever thread failed
                failures.append(exc)

        started = time.perf_counter()
        threads = [
            threading.Thread(target=save_all, args=(new[i::SEED_THREADS],), name=f"grow-{i}")
            for i in range(min(SEED_THREADS, len(new)))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures:
            raise ScaleFailed(f"growing to {size:,} conversations: {failures[0]}") from failures[0]
        self.convids += new
        self.versions += [1] * len(new)
        return time.perf_counter() - started

    def measure(self, steps: int) -> dict[str, list[float]]:
        """``steps`` interleaved saves, restores and first pages: µs samples of each."""
        samples: dict[str, list[float]] = {name: [] for name in OPERATIONS}
        account, owner = self.pipeline.account, self.pipeline.owner

        def save() -> None:
            i = self.rng.randrange(len(self.convids))
            times = self.pipeline.save(self.convids[i], self.state, self.versions[i])
            self.versions[i] += 1
            samples["save"].append(times.total_us)

        def restore() -> None:
            _, times = self.pipeline.restore(self.rng.choice(self.convids))
            samples["restore"].append(times.total_us)

        first = partial(self.store.list_recent, account, owner, limit=self.page, cursor=None)

        def first_page() -> None:
            samples["list"].append(timed(first)[1])

        def forget_warmup() -> None:
            for values in samples.values():
                values.clear()

        try:
            interleave([save, restore, first_page], steps, WARMUP_STEPS, forget_warmup)
        except Exception as exc:  # one line for the caller, whatever failed
            raise ScaleFailed(
                f"measuring at {len(self.convids):,} conversations: {type(exc).__name__}: {exc}"
            ) from exc
        return samples


def _percentiles(values: list[float]) -> dict[str, float]:
    return {f"p{p}_us": round(float(np.percentile(np.asarray(values), p)), 1) for p in PERCENTILES}


def _measure_store(
    target: store_targets.StoreTarget,
    config: ScaleConfig,
    state: dict[str, Any],
    progress: Callable[[str], None],
) -> list[dict[str, Any]]:
    """A row per size of one store."""
    owner = _Owner(open_store(target.url), state, config)
    rows = []
    try:
        for size in config.sizes:
            progress(f"scale: {target.label}: growing to {size:,} conversations ...")
            grown_s = owner.grow(size)
            progress(f"scale: {target.label}: {size:,} conversations, {config.steps} steps ...")
            samples = owner.measure(config.steps)
            rows.append(
                {
                    "store": target.label,
                    "conversations": size,
                    "grown_s": round(grown_s, 2),
                    **{name: _percentiles(values) for name, values in samples.items()},
                }
            )
    finally:
        owner.close()
    return rows


def growth(rows: list[dict[str, Any]]) -> dict[str, float] | None:
    """Each percentile at the largest size over the same at the smallest (``None`` with one
    size)."""
    if len(rows) < 2:
        return None
    first, last = rows[0], rows[-1]
    return {
        f"{name}_p{p}": round(last[name][f"p{p}_us"] / first[name][f"p{p}_us"], 2)
        for name in OPERATIONS
        for p in PERCENTILES
        if first[name][f"p{p}_us"]
    }


def check_stores(config: ScaleConfig) -> str | None:
    """Why a store cannot be opened (the first that cannot), before anything is grown."""
    for name in config.stores:
        with _target(name, config) as target:
            try:
                open_store(target.url).close()
            except StoreError as exc:
                return f"{name}: cannot open the store: {exc}"
            target.opened = True  # it made its schema: dropped on leaving
    return None


def _target(name: str, config: ScaleConfig) -> AbstractContextManager[store_targets.StoreTarget]:
    return store_targets.store_target(
        name, "scale", postgres_url=config.postgres_url, redis_url=config.redis_url
    )


def run_scale(config: ScaleConfig, progress: Callable[[str], None]) -> dict[str, Any]:
    """Grow and measure every store; the JSON-ready result (``ScaleFailed`` on a failure)."""
    state = build_state(config.state_bytes)
    stores = []
    for name in config.stores:
        with _target(name, config) as target:
            target.opened = True
            rows = _measure_store(target, config, state, progress)
        stores.append({"store": name, "rows": rows, "growth": growth(rows)})
    return {
        "state_bytes": config.state_bytes,
        "state_label": size_label(config.state_bytes),
        "steps": config.steps,
        "page": config.page,
        "sizes": list(config.sizes),
        "grown_by": f"StatePipeline.save at version 0 from {SEED_THREADS} threads through "
        "BatchingStore (commit_runs)",
        "stores": stores,
        "machine": machine_info(),
    }


def format_table(result: dict[str, Any]) -> str:
    """The readable table of a ``run_scale`` result, then its growth ratios."""
    columns = [f"{name} p{p}" for name in OPERATIONS for p in PERCENTILES]
    lines = [
        f"scale: one owner's conversations, {result['state_label']} states, {result['steps']} "
        f"steps per size (a save of a random conversation, a restore of another, the first "
        f"page of {result['page']}); µs",
        "",
        f"{'store':<9}{'conversations':>14}{'grown in':>10}" + "".join(f"{c:>13}" for c in columns),
    ]
    for store in result["stores"]:
        for row in store["rows"]:
            cells = "".join(
                f"{row[name][f'p{p}_us']:>13,.1f}" for name in OPERATIONS for p in PERCENTILES
            )
            lines.append(
                f"{row['store']:<9}{row['conversations']:>14,}{row['grown_s']:>9.1f}s{cells}"
            )
    sizes = result["sizes"]
    if len(sizes) < 2:
        return "\n".join(lines)
    lines += [
        "",
        f"growth: at {sizes[-1]:,} conversations ÷ at {sizes[0]:,}",
        f"{'store':<9}" + "".join(f"{c:>13}" for c in columns),
    ]
    for store in result["stores"]:
        ratios = store["growth"] or {}
        cells = "".join(
            f"{ratios[key]:>12.2f}x" if (key := f"{name}_p{p}") in ratios else f"{'-':>13}"
            for name in OPERATIONS
            for p in PERCENTILES
        )
        lines.append(f"{store['store']:<9}{cells}")
    return "\n".join(lines)


# -- command line --------------------------------------------------------------------------------


def _sizes(text: str) -> list[int]:
    """Conversation counts, comma-separated, each 1 to ``MAX_SIZE``; sorted, once each."""
    sizes = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            size = int(part.replace("_", ""))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(
                f"expected whole numbers of conversations, e.g. 1000,10000, got {part!r}"
            ) from exc
        if not 1 <= size <= MAX_SIZE:
            raise argparse.ArgumentTypeError(f"a size is 1 to {MAX_SIZE:,}, got {size:,}")
        sizes.add(size)
    if not sizes:
        raise argparse.ArgumentTypeError("give at least one size, e.g. 1000,10000")
    return sorted(sizes)


def _state_size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def _page(text: str) -> int:
    value = positive_int(text)
    if value > 25:  # the API's largest page
        raise argparse.ArgumentTypeError(f"a page is 1 to 25 conversations, got {value}")
    return value


def build_parser(prog: str = "loadtests scale") -> argparse.ArgumentParser:
    parser = Parser(
        prog=prog,
        description="Save, restore and list-page latency as one owner's stored conversations "
        "grow (per store, with the growth from the smallest size to the largest). The "
        "conversations are created through the vault's save, many at once through group "
        "commit (the store's bulk write): 10^5 take some 10 s on SQLite, 25 s on Redis, a "
        "minute on PostgreSQL. Every store is a temporary file, schema or key prefix of the "
        "run's own, removed afterwards.",
    )
    parser.add_argument(
        "--stores",
        type=lambda text: store_targets.store_names(text, urls=False),
        default=list(DEFAULT_STORES),
        help="comma-separated: memory, sqlite, postgres, redis (default sqlite,postgres,redis)",
    )
    parser.add_argument(
        "--sizes",
        type=_sizes,
        default=list(DEFAULT_SIZES),
        help=f"stored conversations to measure at, comma-separated, at most {MAX_SIZE:,} "
        "(default 1000,10000,100000)",
    )
    parser.add_argument(
        "--steps",
        type=positive_int,
        default=DEFAULT_STEPS,
        help=f"measured steps per size, each a save, a restore and a page (default "
        f"{DEFAULT_STEPS})",
    )
    parser.add_argument(
        "--state-size",
        type=_state_size,
        default=parse_size(DEFAULT_STATE),
        help=f"size of each conversation's state, e.g. 4KB, 16KB (default {DEFAULT_STATE})",
    )
    parser.add_argument(
        "--page", type=_page, default=DEFAULT_PAGE, help="conversations per page (default 10)"
    )
    store_targets.add_server_urls(parser)
    parser.add_argument("--json", type=Path, help="also write the result as JSON to this file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    config = ScaleConfig(
        stores=list(dict.fromkeys(args.stores)),
        sizes=args.sizes,
        steps=args.steps,
        state_bytes=args.state_size,
        page=args.page,
        postgres_url=args.postgres_url,
        redis_url=args.redis_url,
    )
    problem = check_stores(config)
    if problem is not None:
        print(f"loadtests scale: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        result = run_scale(config, progress=lambda line: print(line, file=sys.stderr))
    except (ScaleFailed, StoreError) as exc:
        print(f"loadtests scale: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print(format_table(result))
    return EXIT_OK if write_json(args.json, result, "scale") else EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
