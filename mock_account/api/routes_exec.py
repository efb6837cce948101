"""``/api/exec``: search the agents and run one (Search2o API, plus the harness headers)."""

from __future__ import annotations

import json
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response

from mock_account.api.auth import CurrentUser, DeploymentDep
from mock_account.api.docs import BAD_BODY, UNAUTHORIZED, error_doc
from mock_account.api.idempotency import HEADER, REPLAYED_HEADER, IdempotencyGuard, request_hash
from mock_account.api.inline import run_short
from mock_account.api.models import (
    IDEMPOTENCY_KEY_PATTERN,
    ExecAgentRequest,
    ExecAgentResponse,
    SearchRequest,
    SearchResponse,
)
from mock_account.api.timing import server_timing
from mock_account.api.wire import exec_agent_body, refusal_body
from mock_account.conversations.account import ExecResult
from mock_account.deployment import Deployment
from mock_account.search.routing import DEFAULT_FOLLOWUP_BEHAVIOR
from mock_account.stores import StoreError, unavailable_message
from mock_account.users import User

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/exec", tags=["exec"], responses={**UNAUTHORIZED, **BAD_BODY})


@router.post("/search", response_model=SearchResponse, summary="Search the agents")
async def search(body: SearchRequest, user: CurrentUser, deployment: DeploymentDep) -> Response:
    """The agents that match a request, best first (the harness adds a 0..1 ``score``).

    ``searchBehavior`` is the account's setting (``mock-account serve --search-behavior``).
    """
    hits = await run_short(deployment, deployment.account.search, body.query, tag=body.tag)
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
    return Response(content=_encode(body_out), media_type="application/json")


def _encode(body: dict[str, Any]) -> bytes:
    try:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate cannot be UTF-8; as a \u escape it is still valid JSON.
        return json.dumps(body, separators=(",", ":")).encode("ascii")


def _run(deployment: Deployment, user: User, body: ExecAgentRequest) -> ExecResult:
    try:
        return deployment.account.exec_agent(
            user, body.agent_name, body.inputs.as_dict(), body.convid
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


@router.post(
    "/execAgent",
    response_model=ExecAgentResponse,
    summary="Run an agent",
    responses={
        200: {
            "description": "Always 200: `resultCode` says what happened. Harness extras: the "
            "`Server-Timing` header (restore, run, serialize, encrypt, write and total, in ms) "
            "and, on a replay, `Idempotent-Replayed: true`.",
        },
        409: error_doc("The first request with this Idempotency-Key has not answered yet."),
    },
)
def exec_agent(
    body: ExecAgentRequest,
    request: Request,
    user: CurrentUser,
    deployment: DeploymentDep,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias=HEADER,
            pattern=IDEMPOTENCY_KEY_PATTERN,
            description="Harness extra: retrying with the same key and body returns the first "
            "answer without running the agent again.",
        ),
    ] = None,
) -> Response:
    """Start a conversation (no ``convid``), follow up in one, or answer its pending ask."""
    # A sync endpoint: the run goes to the thread pool. Run in the event loop instead, it
    # halved the throughput of two server processes (measured: a loop blocked on a run, or on
    # the other process's SQLite write lock, answers nothing else meanwhile).
    timings: dict[str, float] = {}

    def compute() -> bytes:
        result = _run(deployment, user, body)
        timings.update(result.timings)
        return _encode(exec_agent_body(result))

    headers: dict[str, str] = {}
    if idempotency_key is None:
        content = compute()
    else:
        guard: IdempotencyGuard = request.app.state.idempotency
        name = guard.record_key(user.account, user.email, idempotency_key)
        wanted = request_hash(request.url.path, body.model_dump(mode="json", by_alias=True))
        try:
            content, replayed = guard.run(name, wanted, compute)
        except StoreError as exc:
            message = unavailable_message(exc)
            content = _encode(refusal_body(body.agent_name, "callFailed", message))
            replayed = False
        if replayed:
            headers[REPLAYED_HEADER] = "true"
    if timings:
        headers["Server-Timing"] = server_timing(timings)
    return Response(content=content, media_type="application/json", headers=headers)
