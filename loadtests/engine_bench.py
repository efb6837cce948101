"""A small benchmark of the engine: restore + run + save of typical follow-ups.

A travel request starts a conversation, then follow-ups alternate between agents of
other departments, so each run restores a growing state, runs, and saves it again
(encrypted, compare-and-swap) on the chosen store. Prints p50 / p99 per phase.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from mock_account.conversations.vault import SAVE_STAGES
from mock_account.deployment import AccountConfig, build_deployment

FOLLOWUPS = (
    "I need to fly to Berlin next week for the client workshop",
    "file my travel expenses for that trip",
    "what's the status of the open invoice for that customer",
    "open a ticket because the customer's order arrived damaged",
)
CONVERSATION_LENGTH = 6


def _percentiles(values: list[float]) -> str:
    arr = np.array(values) * 1e6
    return f"p50 {np.percentile(arr, 50):8.0f} us   p99 {np.percentile(arr, 99):8.0f} us"


def run_engine_bench(runs: int = 300, store_url: str | None = None) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        config = AccountConfig(data_dir=Path(tmp), store_url=store_url)
        deployment = build_deployment(config)
        account, user = deployment.account, deployment.users.users[0]
        # The phases an execAgent reports (``Server-Timing``): disjoint, so they add up.
        phases: dict[str, list[float]] = {name: [] for name in ("restore", "run", *SAVE_STAGES)}
        totals: list[float] = []
        convid: str | None = None
        done = 0
        routes = {q: account.route(user, q, None)[0] for q in FOLLOWUPS}
        try:
            while done < runs:
                if done % CONVERSATION_LENGTH == 0:
                    convid = None
                query = FOLLOWUPS[done % len(FOLLOWUPS)]
                agent = routes[query] or ""
                started = time.perf_counter()
                result = account.exec_agent(user, agent, {"query": query}, convid)
                elapsed = time.perf_counter() - started
                while result.success and result.result_code == "ask" and result.ask_input:
                    answers = {
                        i["name"]: i.get("default") or (i.get("options") or ["yes"])[0]
                        for i in result.ask_input["inputs"]
                    }
                    result = account.exec_agent(user, agent, answers, result.convid)
                if not result.success:
                    print(f"run failed: {result.result_code} {result.error}")
                    return 1
                if convid is not None:  # a follow-up: the conversation already had state
                    totals.append(elapsed)
                    for name, values in phases.items():
                        values.append(result.timings.get(name, 0.0))
                convid = result.convid
                done += 1
        finally:
            deployment.close()
        print(
            f"engine follow-ups on {config.resolved_store_url().split(':')[0]}: {len(totals)} runs"
        )
        print(f"  total     {_percentiles(totals)}")
        for name, values in phases.items():
            print(f"  {name:9} {_percentiles(values)}")
    return 0
