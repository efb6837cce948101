"""Harness extras (not part of the Search2o API): the owner's view of a conversation's state."""

from __future__ import annotations

from typing import Any

from mock_account.api.auth import CurrentUser, DeploymentDep
from mock_account.api.docs import UNKNOWN
from mock_account.api.harness_router import harness_router
from mock_account.api.models import ConversationRequest, StateViewResponse

router = harness_router(UNKNOWN)


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
