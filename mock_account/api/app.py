"""The FastAPI application of the agent server, built around one deployment."""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from fastapi import FastAPI
from fastapi.routing import APIRoute

from mock_account.api import (
    routes_channels,
    routes_config,
    routes_exec,
    routes_harness,
    routes_user,
    routes_workflows,
)
from mock_account.api.body_limit import DEFAULT_MAX_BODY_BYTES, BodySizeLimit
from mock_account.api.docs import DESCRIPTION, TAGS, TITLE
from mock_account.api.handlers import install_handlers
from mock_account.api.idempotency import IdempotencyGuard
from mock_account.api.models import HealthResponse
from mock_account.api.streaming import DEFAULT_HEARTBEAT_S
from mock_account.deployment import Deployment

#: How long a duplicate waits for the first request with its Idempotency-Key, beyond the
#: agents' time limit, before it is refused with 409.
IDEMPOTENCY_GRACE_S = 10.0

#: How long a thread may hold the GIL before handing it over while the server runs (Python's
#: default is 5 ms). A request thread needs the GIL back after every SQLite statement; while it
#: holds the store's write lock, each busy request thread can delay it by a whole interval, and
#: every save queued behind it waits for all of that. Under a saturating load test this took
#: the p50 of a save from 153 ms to 17 ms at the same throughput.
GIL_SWITCH_INTERVAL_S = 0.0005


def store_kind(deployment: Deployment) -> str:
    return deployment.config.resolved_store_url().split(":", 1)[0].split("+", 1)[0]


def _operation_id(route: APIRoute) -> str:
    return route.path.rstrip("/").rsplit("/", 1)[-1]


def create_app(
    deployment: Deployment,
    *,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    close_on_shutdown: bool = False,
    heartbeat_s: float = DEFAULT_HEARTBEAT_S,
) -> FastAPI:
    """The HTTP API over ``deployment``; it closes the deployment on shutdown if told to.

    While the app runs (its lifespan), the deployment's retention sweeper runs in the background
    unless its configuration turns it off. ``heartbeat_s``: how long a streamed run may stay
    quiet before a ``noop`` line goes out.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        previous = sys.getswitchinterval()
        sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
        # What the warm-up built (agents, search index, gazetteer: some 250,000 objects) lives
        # as long as the server. Frozen, the collector's full passes skip it: they took tens
        # of milliseconds each, a stall of every request in flight (the runs' p99).
        gc.collect()
        gc.freeze()
        stop = threading.Event()
        sweeper = app.state.sweeper = deployment.start_sweeper(stop)
        try:
            yield
        finally:
            stop.set()
            if sweeper is not None:
                sweeper.join(5)
            gc.unfreeze()
            sys.setswitchinterval(previous)
            if close_on_shutdown:
                deployment.close()

    app = FastAPI(
        title=TITLE,
        description=DESCRIPTION,
        version="1.0.0",
        openapi_tags=TAGS,
        lifespan=lifespan,
        # A body without a Content-Type is read as JSON, as the agent server does; a call with
        # the session cookie must still declare JSON (``auth.current_user``), so a cross-site
        # form cannot act for the user.
        strict_content_type=False,
        # Operation ids as the agent server names them: the last segment of the path
        # ("/api/user/setPinned" -> "setPinned"), for every route, harness extras included.
        generate_unique_id_function=_operation_id,
        # The server exports no OpenTelemetry (its timings go out as Server-Timing): left on,
        # FastAPI's native instrumentation asks the global providers on every request, 2% of a
        # saturated worker's time.
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    deployment.account.warm_up()
    app.state.deployment = deployment
    app.state.heartbeat_s = heartbeat_s
    app.state.idempotency = IdempotencyGuard(
        deployment.idempotency,
        deployment.account.vault.cipher,
        deployment.account.clock,
        wait_s=deployment.config.time_limit_s + IDEMPOTENCY_GRACE_S,
        ttl=timedelta(hours=deployment.config.idempotency_hours),
    )
    app.state.sweeper = None
    agents = len(deployment.account.agents)
    kind = store_kind(deployment)

    # The two calls of every conversation turn come first in the application's own route list:
    # an included router is matched through a second, nested pass over its routes. So does
    # the ping of the HTTP ceiling, which must be reached as they are.
    app.router.routes.extend(routes_exec.router.routes)
    app.router.routes.extend(routes_harness.ping_router.routes)

    @app.get(
        "/health",
        response_model=HealthResponse,
        tags=["service"],
        summary="Liveness",
        operation_id="health",
    )
    def health() -> HealthResponse:
        """Whether the server answers, how many agents it has and which store it uses."""
        return HealthResponse(status="ok", agents=agents, store=kind)

    app.include_router(routes_user.router)
    app.include_router(routes_harness.router)
    app.include_router(routes_workflows.router)
    app.include_router(routes_channels.router)
    app.include_router(routes_config.router)
    install_handlers(app)
    app.add_middleware(BodySizeLimit, max_bytes=max_body_bytes)
    return app
