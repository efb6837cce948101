"""Harness extras (not part of the Search2o API): the owner's view of a conversation's state, and
``ping``, the load tests' HTTP ceiling."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body
from fastapi.responses import Response

from mock_account.api.auth import CurrentUser, DeploymentDep
from mock_account.api.docs import UNKNOWN
from mock_account.api.harness_router import harness_router
from mock_account.api.models import (
    ConversationRequest,
    PingRequest,
    StateViewResponse,
    SuccessResponse,
)
from mock_account.api.planned_route import PlannedRoute

router = harness_router(UNKNOWN)

# ``ping`` measures what the stack costs a call, so it takes the route class of execAgent's
# (the same plan of the same auth dependency) and is matched as early (``app.create_app``): a
# ceiling reached by a slower route would flatter every ratio to it.
ping_router = harness_router(
    {}, uses_store=False, route_class=PlannedRoute, strict_content_type=False
)
PONG = b'{"success":true}'


@router.post(
    "/getConversationState",
    response_model=StateViewResponse,
    summary="Harness extra: the decrypted state",
    operation_id="getConversationState",
)
def get_conversation_state(
    body: ConversationRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """The conversation's state decrypted for its owner (runs, prompts, conv, agents) and what
    the store holds (size, key id, versions, the first bytes): the demo's state inspector."""
    return {"success": True, **deployment.account.state_view(user, body.convid)}


@ping_router.post(
    "/ping",
    response_model=SuccessResponse,
    summary="Harness extra: an authenticated call that does nothing",
    operation_id="ping",
)
async def ping(user: CurrentUser, body: Annotated[PingRequest | None, Body()] = None) -> Response:
    """Signed in like every call, its body read and validated, then ``{"success": true}`` and
    nothing else: the HTTP ceiling of ``loadtests run --scenario ceiling``."""
    return Response(content=PONG, media_type="application/json")
