"""Harness extras (not part of the Search2o API): the owner's view of a conversation's state."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from mock_account.api.auth import CurrentUser, DeploymentDep
from mock_account.api.docs import BAD_BODY, STORE_DOWN, UNAUTHORIZED, UNKNOWN
from mock_account.api.models import ConversationRequest, StateViewResponse

router = APIRouter(
    prefix="/api/harness",
    tags=["harness"],
    responses={**UNAUTHORIZED, **BAD_BODY, **UNKNOWN, **STORE_DOWN},
)


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
