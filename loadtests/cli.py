"""``loadtests``: the state-latency benchmark and headless Locust runs.

    loadtests bench [--sizes 1KB,16KB,256KB,1MB] [--store URL] [--iterations N] [--json FILE]
                    [--peers]
    loadtests run --scenario conversation|workflows|channels|config-edit|ceiling|store|crypto
                  --users N --spawn-rate R --run-time T --out DIR [--with-ceiling]
                  [--host URL [--allow-remote] [--insecure]] [--tokens FILE] [--agents DIR]
                  [--store URL] [--workers K] [--server-workers N] [--max-fail-ratio X]
                  [--max-p99-ms Y]
    loadtests writers [--stores sqlite,postgres,redis] [--threads 1,8,64] [--seconds S]
    loadtests scale [--stores sqlite,postgres,redis] [--sizes 1000,10000,100000] [--steps N]
                    [--state-size 4KB] [--page 10]
    loadtests capacity --users U --followups-per-hour F --state-kb S [--measured FILE]
    loadtests bench-engine [--runs N] [--store URL]
    loadtests bench-http [--requests N] [--concurrency C] [--workers W] [--store URL]
                         [--data-dir DIR] [--account-dir DIR]

Exit codes: 0 fine, 1 a threshold was exceeded or the run failed, 2 bad usage or unusable input.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from agents_catalog.cli_kit import Parser, positive_int, run
from loadtests.states import parse_size
from mock_account.crypto import CryptoError
from mock_account.stores import StoreError


def _sizes(text: str) -> list[int]:
    try:
        sizes = [parse_size(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc
    if not sizes:
        raise argparse.ArgumentTypeError("give at least one size, e.g. 1KB,16KB")
    return sizes


def _bench(args: argparse.Namespace) -> int:
    from loadtests.bench import BenchConfig, format_table, run_bench

    config = BenchConfig(
        sizes=args.sizes, store_url=args.store, iterations=args.iterations, peers=args.peers
    )
    result = run_bench(config, progress=lambda line: print(line, file=sys.stderr))
    print(format_table(result))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
        print(f"JSON written to {args.json}")
    return 0


def _run(args: argparse.Namespace) -> int:
    from loadtests.runner import RunConfig, default_out, run_load_test

    return run_load_test(
        RunConfig(
            scenario=args.scenario,
            users=args.users,
            spawn_rate=args.spawn_rate,
            run_time=args.run_time,
            out=args.out or default_out(),
            host=args.host,
            store_url=args.store,
            workers=args.workers,
            server_workers=args.server_workers,
            max_fail_ratio=args.max_fail_ratio,
            max_p99_ms=args.max_p99_ms,
            think=args.think,
            rate=args.rate,
            allow_remote=args.allow_remote,
            insecure=args.insecure,
            tokens=args.tokens,
            agents=args.agents,
            with_ceiling=args.with_ceiling,
        )
    )


def _bench_engine(args: argparse.Namespace) -> int:
    from loadtests.engine_bench import run_engine_bench

    return run_engine_bench(runs=args.runs, store_url=args.store)


def _bench_http(args: argparse.Namespace) -> int:
    from loadtests.http_bench import run_http_bench

    return run_http_bench(
        requests=args.requests,
        concurrency=args.concurrency,
        workers=args.workers,
        store_url=args.store,
        account_dir=str(args.account_dir) if args.account_dir else None,
        data_dir=str(args.data_dir) if args.data_dir else None,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="loadtests", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    bench = commands.add_parser("bench", help="time each stage of state save and restore")
    bench.add_argument(
        "--sizes",
        type=_sizes,
        default=_sizes("1KB,16KB,256KB,1MB"),
        help="state sizes, comma-separated (default 1KB,16KB,256KB,1MB)",
    )
    bench.add_argument("--store", help="store URL (default: a temporary SQLite file)")
    bench.add_argument(
        "--iterations",
        type=positive_int,
        default=200,
        help="measured iterations per size (default 200)",
    )
    bench.add_argument("--json", type=Path, help="also write the result as JSON to this file")
    bench.add_argument(
        "--peers",
        action="store_true",
        help="include peer libraries (LangGraph, OpenAI Agents SDK) when installed",
    )
    bench.set_defaults(func=_bench)

    from loadtests.runner import add_run_arguments

    run = commands.add_parser("run", help="run a Locust scenario headless and report")
    add_run_arguments(run)
    run.set_defaults(func=_run)

    engine = commands.add_parser("bench-engine", help="time restore + run + save of follow-ups")
    engine.add_argument("--runs", type=positive_int, default=300, help="runs to time (300)")
    engine.add_argument("--store", help="store URL (default: a temporary SQLite file)")
    engine.set_defaults(func=_bench_engine)

    http = commands.add_parser(
        "bench-http", help="requests/s and p50/p99 of execAgent over real HTTP"
    )
    http.add_argument("--requests", type=positive_int, default=300, help="execAgent calls (300)")
    http.add_argument("--concurrency", type=positive_int, default=4, help="client threads (4)")
    http.add_argument("--workers", type=positive_int, default=1, help="server processes (1)")
    http.add_argument("--store", help="store URL (default: SQLite in a temporary folder)")
    http.add_argument("--data-dir", type=Path, help="the server's data folder")
    http.add_argument("--account-dir", type=Path, help="folder of agent files")
    http.set_defaults(func=_bench_http)

    # These own their arguments; main() hands them the rest of the command line.
    commands.add_parser("writers", help="saves/s and latency at 1, 8, 64 writers, batched or not")
    commands.add_parser(
        "scale", help="save, restore and list latency at 10^3, 10^4, 10^5 stored conversations"
    )
    commands.add_parser("capacity", help="what a deployment needs, from measured figures")
    return parser


PASSTHROUGH = {
    "writers": "loadtests.writers",
    "scale": "loadtests.scale",
    "capacity": "loadtests.capacity",
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in PASSTHROUGH:
        return int(importlib.import_module(PASSTHROUGH[argv[0]]).main(argv[1:]))
    args = build_parser().parse_args(argv)
    return run("loadtests", args, (CryptoError, StoreError, ValueError, OSError))


if __name__ == "__main__":
    sys.exit(main())
