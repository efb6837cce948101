"""``/api/user``: the caller's conversations (Search2o API).

An unknown, expired and another user's conversation get the same answer, byte for byte: 404
with ``{"success": false, "error": {"message": "Could not get this conversation. It probably
expired.", "data": {}}}``. Pinning beyond the limit is refused with 409 (the message says the
limit and what to do). Operation ids are the endpoint names, as in the agent server.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from mock_account.api.auth import CurrentUser, DeploymentDep
from mock_account.api.docs import BAD_BODY, STORE_DOWN, UNAUTHORIZED, UNKNOWN, error_doc
from mock_account.api.inline import run_short
from mock_account.api.models import (
    ConversationRequest,
    ConversationResponse,
    PinnedRequest,
    PinnedResponse,
    SetPinnedRequest,
    SetTitleRequest,
    SuccessResponse,
    UnpinnedRequest,
    UnpinnedResponse,
)
from mock_account.api.wire import conversation_item, conversation_turn

router = APIRouter(
    prefix="/api/user", tags=["user"], responses={**UNAUTHORIZED, **BAD_BODY, **STORE_DOWN}
)

DONE = {"success": True}


@router.post(
    "/getConversation",
    response_model=ConversationResponse,
    response_model_exclude_none=True,
    responses=UNKNOWN,
    summary="One conversation",
    operation_id="getConversation",
)
async def get_conversation(
    body: ConversationRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """Every saved run of the conversation, oldest first: the query, the agent's response, how
    it ended (``success`` or ``ask``) and when (counts as a use for retention)."""
    turns = await run_short(deployment, deployment.account.turns, user, body.convid)
    return {
        "success": True,
        "convid": body.convid,
        "conversation": [conversation_turn(t) for t in turns],
    }


@router.post(
    "/getPinnedConversations",
    response_model=PinnedResponse,
    summary="Pinned conversations",
    operation_id="getPinnedConversations",
)
async def get_pinned(
    user: CurrentUser,
    deployment: DeploymentDep,
    body: Annotated[PinnedRequest | None, Body()] = None,
) -> dict[str, Any]:
    """Every pinned conversation of the caller, most recently used first. The body may be empty."""
    views = await run_short(deployment, deployment.account.list_pinned, user)
    return {"success": True, "pinnedConversations": [conversation_item(v) for v in views]}


@router.post(
    "/getUnpinnedConversations",
    response_model=UnpinnedResponse,
    summary="Recent conversations, paged",
    operation_id="getUnpinnedConversations",
)
async def get_unpinned(
    user: CurrentUser,
    deployment: DeploymentDep,
    body: Annotated[UnpinnedRequest | None, Body()] = None,
) -> dict[str, Any]:
    """One page of the caller's unpinned conversations, most recently used first."""
    page = body or UnpinnedRequest()
    views, cursor = await run_short(
        deployment, deployment.account.list_recent, user, limit=page.limit, cursor=page.next_cursor
    )
    return {
        "success": True,
        "unpinnedConversations": [conversation_item(v) for v in views],
        "nextCursor": cursor,
    }


@router.post(
    "/setConversationTitle",
    response_model=SuccessResponse,
    responses=UNKNOWN,
    summary="Rename a conversation",
    operation_id="setConversationTitle",
)
async def set_title(
    body: SetTitleRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """Replace the title (stored encrypted)."""
    await run_short(deployment, deployment.account.set_title, user, body.convid, body.title)
    return DONE


@router.post(
    "/setPinned",
    response_model=SuccessResponse,
    responses={**UNKNOWN, 409: error_doc("The pin limit is reached; unpin one first.")},
    summary="Pin or unpin a conversation",
    operation_id="setPinned",
)
async def set_pinned(
    body: SetPinnedRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """Pin (kept by retention, listed apart) or unpin a conversation."""
    await run_short(deployment, deployment.account.set_pinned, user, body.convid, body.pinned)
    return DONE


@router.post(
    "/deleteConversation",
    response_model=SuccessResponse,
    responses=UNKNOWN,
    summary="Delete a conversation",
    operation_id="deleteConversation",
)
async def delete_conversation(
    body: ConversationRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """Delete the conversation, its state and its entry, for good."""
    await run_short(deployment, deployment.account.delete, user, body.convid)
    return DONE
