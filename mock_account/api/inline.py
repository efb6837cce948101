"""Where a handler's work runs: in the event loop when it is short, else in the thread pool.

A sync FastAPI endpoint (or dependency) hops to the thread pool and back on every request; for a
few hundred microseconds of work that hop, and the GIL hand-overs between the loop and the
worker threads, cost more than the work. So the short endpoints (search, the conversation list
and its edits) are ``async`` and run the account's call right in the loop, unless it may wait
on something outside this process for long: the enterprise hooks (the customer's code: state,
keys) still go to the thread pool. ``execAgent`` stays a sync endpoint: a run is longer, and a
loop blocked on it answered nothing else meanwhile (measured: half the throughput).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from starlette.concurrency import run_in_threadpool

from mock_account.deployment import Deployment

P = ParamSpec("P")
T = TypeVar("T")


def runs_inline(deployment: Deployment) -> bool:
    """Whether a call of the account may run in the event loop (no hooks to wait on)."""
    return not deployment.config.hooks


async def run_short(
    deployment: Deployment,
    fn: Callable[P, T],
    *args: P.args,
    **kwargs: P.kwargs,
) -> T:
    """``fn(*args, **kwargs)``, in the loop when ``runs_inline``, else in the thread pool."""
    if runs_inline(deployment):
        return fn(*args, **kwargs)
    return await run_in_threadpool(fn, *args, **kwargs)
