"""Search benchmark: index build time and per-request search latency.

    python -m loadtests.search_bench [--account DIR] [--evaluation DIR] [--rounds N]

Builds the index over the account's agents (once with the vector cache as found, once
more with it warm), then times `SearchIndex.search` on every evaluation query, BM25
alone and blended with embeddings, and prints the median, 95th percentile and mean.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from mock_account.search.evaluation import EvalError, catalog_agents, load_eval_cases
from mock_account.search.index import BM25Params, Searchable, SearchIndex


def _timings(index: SearchIndex, queries: Sequence[str], rounds: int) -> list[float]:
    spent = []
    for _ in range(rounds):
        for query in queries:
            start = time.perf_counter()
            index.search(query)
            spent.append((time.perf_counter() - start) * 1000.0)
    return sorted(spent)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loadtests.search_bench")
    parser.add_argument("--account", type=Path, help="folder of agent YAML files")
    parser.add_argument("--evaluation", type=Path, help="folder of evaluation YAML files")
    parser.add_argument("--rounds", type=int, default=1, help="passes over the queries")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    try:
        if args.account:
            from agents_catalog.errors import CatalogError
            from agents_catalog.loader import load_account

            try:
                agents: Sequence[Searchable] = load_account(args.account)
            except CatalogError as exc:
                raise EvalError(str(exc).splitlines()[0]) from exc
        else:
            agents = catalog_agents()
        queries = [case.query for case in load_eval_cases(args.evaluation)]
    except EvalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for label in ("build (vector cache as found)", "build (vector cache warm)"):
        start = time.perf_counter()
        index = SearchIndex.build(agents)
        print(f"{label}: {time.perf_counter() - start:.2f} s")
    lexical = SearchIndex.build(agents, BM25Params(semantic=0.0))
    print(f"agents: {len(agents)}  queries: {len(queries)} x {args.rounds}")
    for label, searched in (("bm25", lexical), ("bm25+embeddings", index)):
        spent = _timings(searched, queries, args.rounds)
        p95 = spent[min(len(spent) - 1, int(0.95 * len(spent)))]
        print(
            f"{label}: median {statistics.median(spent):.2f} ms  p95 {p95:.2f} ms"
            f"  mean {statistics.mean(spent):.2f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
