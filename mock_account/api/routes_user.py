"""``/api/user``: the caller's conversations (Search2o API).

An unknown, expired and another user's conversation get the same answer, byte for byte: 404
with ``{"success": false, "error": {"message": "Could not get this conversation. It probably
expired.", "data": {}}}``. Pinning beyond the limit is refused with 409 (the message says the
limit and what to do). Operation ids are the endpoint names, as in the agent server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ParamSpec, TypeVar

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
    WireModel,
)
from mock_account.api.wire import conversation_item, conversation_turn
from mock_account.deployment import Deployment

router = APIRouter(
    prefix="/api/user", tags=["user"], responses={**UNAUTHORIZED, **BAD_BODY, **STORE_DOWN}
)

DONE = {"success": True}
Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])
P = ParamSpec("P")


def _endpoint(
    operation_id: str,
    summary: str,
    response_model: type[WireModel] = SuccessResponse,
    **options: Any,
) -> Callable[[Endpoint], Endpoint]:
    """A route whose path and operation id are the endpoint's name, as in the agent server."""
    return router.post(
        f"/{operation_id}",
        response_model=response_model,
        summary=summary,
        operation_id=operation_id,
        **options,
    )


async def _change(
    deployment: Deployment, change: Callable[P, object], *args: P.args, **kwargs: P.kwargs
) -> dict[str, Any]:
    """Make a change of the caller's conversations; every change answers the same."""
    await run_short(deployment, change, *args, **kwargs)
    return DONE


@_endpoint(
    "getConversation",
    "One conversation",
    ConversationResponse,
    response_model_exclude_none=True,
    responses=UNKNOWN,
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


@_endpoint("getPinnedConversations", "Pinned conversations", PinnedResponse)
async def get_pinned(
    user: CurrentUser,
    deployment: DeploymentDep,
    body: Annotated[PinnedRequest | None, Body()] = None,
) -> dict[str, Any]:
    """Every pinned conversation of the caller, most recently used first. The body may be empty."""
    views = await run_short(deployment, deployment.account.list_pinned, user)
    return {"success": True, "pinnedConversations": [conversation_item(v) for v in views]}


@_endpoint("getUnpinnedConversations", "Recent conversations, paged", UnpinnedResponse)
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


@_endpoint("setConversationTitle", "Rename a conversation", responses=UNKNOWN)
async def set_title(
    body: SetTitleRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """Replace the title (stored encrypted)."""
    return await _change(deployment, deployment.account.set_title, user, body.convid, body.title)


@_endpoint(
    "setPinned",
    "Pin or unpin a conversation",
    responses={**UNKNOWN, 409: error_doc("The pin limit is reached; unpin one first.")},
)
async def set_pinned(
    body: SetPinnedRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """Pin (kept by retention, listed apart) or unpin a conversation."""
    return await _change(deployment, deployment.account.set_pinned, user, body.convid, body.pinned)


@_endpoint("deleteConversation", "Delete a conversation", responses=UNKNOWN)
async def delete_conversation(
    body: ConversationRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """Delete the conversation, its state and its entry, for good."""
    return await _change(deployment, deployment.account.delete, user, body.convid)
