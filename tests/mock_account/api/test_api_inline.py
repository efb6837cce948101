"""Where the endpoints' work runs: in the event loop, unless hooks or idempotency may wait."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any, cast

from mock_account.api.inline import run_short, runs_inline
from mock_account.deployment import Deployment


def _deployment(hooks: str | None) -> Deployment:
    return cast(Deployment, SimpleNamespace(config=SimpleNamespace(hooks=hooks)))


def _threads(deployment: Deployment) -> tuple[int, int]:
    async def main() -> tuple[int, int]:
        return await run_short(deployment, threading.get_ident), threading.get_ident()

    return asyncio.run(main())


def test_short_work_runs_in_the_event_loop_thread() -> None:
    ran_in, loop_thread = _threads(_deployment(None))
    assert ran_in == loop_thread


def test_work_that_calls_hooks_goes_to_the_thread_pool() -> None:
    ran_in, loop_thread = _threads(_deployment("acme_hooks"))
    assert ran_in != loop_thread


def test_only_deployments_without_hooks_run_inline() -> None:
    assert runs_inline(_deployment(None))
    assert not runs_inline(_deployment("acme_hooks"))


def test_arguments_and_result_pass_through() -> None:
    def add(a: int, *, b: int) -> dict[str, Any]:
        return {"sum": a + b}

    for hooks in (None, "acme_hooks"):
        result = asyncio.run(run_short(_deployment(hooks), add, 2, b=3))
        assert result == {"sum": 5}
