"""``/api/exec``: search the agents and run one (Search2o API, plus the harness headers)."""

from __future__ import annotations

import json
import logging
import threading
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from mock_account.api.auth import CurrentUser, DeploymentDep, UserOrRefusal
from mock_account.api.docs import BAD_BODY, UNAUTHORIZED, error_doc
from mock_account.api.errors import NotAuthenticated, StreamNotReplayable
from mock_account.api.idempotency import HEADER, REPLAYED_HEADER, IdempotencyGuard, request_hash
from mock_account.api.inline import runs_inline
from mock_account.api.models import (
    IDEMPOTENCY_KEY_PATTERN,
    ExecAgentRequest,
    ExecAgentResponse,
    SearchRequest,
    SearchResponse,
)
from mock_account.api.planned_route import PlannedRoute
from mock_account.api.streaming import MEDIA_TYPE, RunStream, run_lines, single_line
from mock_account.api.timing import server_timing
from mock_account.api.wire import exec_agent_body, refusal_body
from mock_account.conversations.account import ExecResult
from mock_account.deployment import Deployment
from mock_account.engine.runtime import PartListener
from mock_account.search.routing import DEFAULT_FOLLOWUP_BEHAVIOR
from mock_account.stores import StoreError, unavailable_message
from mock_account.users import User

log = logging.getLogger(__name__)

# The two calls of every conversation turn: their parameters are resolved by a plan made at
# start-up rather than by FastAPI's per-request dependency solving (``planned_route``).
router = APIRouter(
    prefix="/api/exec",
    tags=["exec"],
    responses={**UNAUTHORIZED, **BAD_BODY},
    route_class=PlannedRoute,
    # As the application (``app.create_app``): a body without a Content-Type is read as JSON.
    strict_content_type=False,
)


@router.post(
    "/search", response_model=SearchResponse, summary="Search the agents", operation_id="search"
)
async def search(body: SearchRequest, user: CurrentUser, deployment: DeploymentDep) -> Response:
    """The agents that match a request, best first (the harness adds a 0..1 ``score``).

    ``searchBehavior`` is the account's setting (``mock-account serve --search-behavior``).
    """
    if runs_inline(deployment):
        content = search_body(deployment, body)
    else:
        content = await run_in_threadpool(search_body, deployment, body)
    return Response(content=content, media_type="application/json")


def search_body(deployment: Deployment, body: SearchRequest) -> bytes:
    """The encoded answer of ``search``."""
    hits = deployment.account.search(body.query, tag=body.tag)
    # Encoded here, as execAgent's answer is: the body has the model's shape by construction,
    # and validating it again through the response model cost more than the search.
    body_out = {
        "success": True,
        "searchResults": [
            {"agentName": h.agent_name, "agentTitle": h.agent_title, "score": round(h.score, 4)}
            for h in hits
        ],
        "searchBehavior": deployment.config.search_behavior,
        "followupBehavior": DEFAULT_FOLLOWUP_BEHAVIOR,
    }
    return _encode(body_out)


def _encode(body: dict[str, Any]) -> bytes:
    try:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate cannot be UTF-8; as a \u escape it is still valid JSON.
        return json.dumps(body, separators=(",", ":")).encode("ascii")


def _run(
    deployment: Deployment,
    user: User,
    body: ExecAgentRequest,
    stop: threading.Event | None = None,
    on_part: PartListener | None = None,
) -> ExecResult:
    try:
        return deployment.account.exec_agent(
            user, body.agent_name, body.inputs, body.convid, stop, on_part=on_part
        )
    except Exception:  # execAgent answers 200 whatever happens; the log keeps the details
        log.exception("execAgent failed unexpectedly")
        return ExecResult(
            False,
            "unexpected",
            None,
            body.agent_name,
            error="The server failed unexpectedly; nothing was saved.",
        )


def _streamed(
    request: Request, user: User | NotAuthenticated, body: ExecAgentRequest
) -> StreamingResponse:
    stop = threading.Event()
    if isinstance(user, NotAuthenticated):
        refused = ExecResult(False, "mustLogin", None, body.agent_name, error=str(user))
        return RunStream(single_line(refused), stop)
    deployment: Deployment = request.app.state.deployment
    heartbeat_s: float = request.app.state.heartbeat_s

    def runner(stop: threading.Event, on_part: PartListener) -> ExecResult:
        return _run(deployment, user, body, stop, on_part)

    return RunStream(run_lines(body.agent_name, runner, stop, heartbeat_s), stop)


@router.post(
    "/execAgent",
    response_model=ExecAgentResponse,
    summary="Run an agent",
    operation_id="execAgent",
    responses={
        200: {
            "description": "Always 200: `resultCode` says what happened (`mustLogin` without a "
            "valid token). With `stream: true`, `application/x-ndjson` lines: `progress`, "
            "`data` (each output part as it is produced), `noop` heartbeats, `trace` "
            "(Server-Timing phases, after the run), and last `agent` (this response with "
            "`output: null`). Harness extras: the `Server-Timing` header (restore, run, "
            "serialize, encrypt, write and total, in ms) and, on a replay, "
            "`Idempotent-Replayed: true`.",
            "content": {
                MEDIA_TYPE: {
                    "schema": {
                        "type": "object",
                        "description": "One line: {type: progress|data|trace|noop|agent, ...}",
                    }
                }
            },
        },
        409: error_doc("The first request with this Idempotency-Key has not answered yet."),
        415: error_doc("Signed in with the session cookie but not sent as application/json."),
    },
)
def exec_agent(
    body: ExecAgentRequest,
    request: Request,
    user: UserOrRefusal,
    deployment: DeploymentDep,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias=HEADER,
            pattern=IDEMPOTENCY_KEY_PATTERN,
            description="Harness extra: retrying with the same key and body returns the first "
            "answer without running the agent again (not with `stream: true`).",
        ),
    ] = None,
) -> Response:
    """Start a conversation (no ``convid``), follow up in one, or answer its pending ask."""
    # A sync endpoint: the run goes to the thread pool. Run in the event loop instead, it
    # halved the throughput of two server processes (measured: a loop blocked on a run, or on
    # the other process's SQLite write lock, answers nothing else meanwhile).
    if body.stream:
        if idempotency_key is not None:
            raise StreamNotReplayable(
                f"{HEADER} cannot be used with stream: true (a stream is not replayed); "
                "send one of them."
            )
        return _streamed(request, user, body)
    if isinstance(user, NotAuthenticated):
        content = _encode(refusal_body(body.agent_name, "mustLogin", str(user)))
        return Response(content=content, media_type="application/json")
    signed_in: User = user
    if idempotency_key is None:
        content, extra = exec_agent_content(deployment, signed_in, body)
        return Response(content=content, media_type="application/json", headers=extra)
    timings: dict[str, float] = {}

    def compute() -> bytes:
        result = _run(deployment, signed_in, body)
        timings.update(result.timings)
        return _encode(exec_agent_body(result))

    headers: dict[str, str] = {}
    guard: IdempotencyGuard = request.app.state.idempotency
    wanted = request_hash(request.url.path, body.model_dump(mode="json", by_alias=True))
    try:
        content, replayed = guard.run(
            signed_in.account, signed_in.email, idempotency_key, wanted, compute
        )
    except StoreError as exc:
        message = unavailable_message(exc)
        content = _encode(refusal_body(body.agent_name, "callFailed", message))
        replayed = False
    if replayed:
        headers[REPLAYED_HEADER] = "true"
    if timings:
        headers["Server-Timing"] = server_timing(timings)
    return Response(content=content, media_type="application/json", headers=headers)


def exec_agent_content(
    deployment: Deployment, user: User, body: ExecAgentRequest
) -> tuple[bytes, dict[str, str]]:
    """The encoded answer of a non-streamed ``execAgent`` without an ``Idempotency-Key``, and
    its headers."""
    result = _run(deployment, user, body)
    headers = {"Server-Timing": server_timing(result.timings)} if result.timings else {}
    return _encode(exec_agent_body(result)), headers
