"""Harness extras for channels (SPEC §9): deliver a message as a sender, and the owner's Inbox.

Writing as another sender, or on a channel other than ``web``, and everything of the Inbox are
the account administrator's (the first user of each account in ``mock-account users``): any
other caller gets 403. Bad channels, senders, contacts and cursors are refused with 422 saying
why; an unknown conversation or identity is 404.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from agents_catalog.agent_format import NAME_PATTERN
from mock_account.api.auth import CurrentUser, DeploymentDep
from mock_account.api.docs import UNKNOWN
from mock_account.api.harness_router import harness_router
from mock_account.api.models import (
    CONVID_PATTERN,
    CURSOR_MAX,
    IDENTITY_PATTERN,
    QUERY_MAX,
    QUERY_MIN,
    Convid,
    RequestModel,
)
from mock_account.api.wire import exec_agent_body
from mock_account.channels.model import CONTACT_MAX, SENDER_MAX, ChannelName
from mock_account.channels.views import INBOX_PAGE_MAX

router = harness_router(UNKNOWN, admin_only=True)


class DeliverRequest(RequestModel):
    """A message from a sender on a channel (what an email gateway or an IM bot would send)."""

    channel: ChannelName = Field(description="Where the message comes from.")
    sender: str | None = Field(
        default=None,
        min_length=1,
        max_length=SENDER_MAX,
        description="Who sent it on that channel: an email address on email and web, the "
        "sender id elsewhere. Omitted on web: the caller.",
        examples=["ada@example.com", "slack:U024BE7LH"],
    )
    query: str | None = Field(
        default=None, min_length=QUERY_MIN, max_length=QUERY_MAX, description="The message."
    )
    inputs: dict[str, Any] | None = Field(
        default=None, description="Answers to a pending ask (with agentName), or extra inputs."
    )
    agent_name: str | None = Field(
        default=None,
        min_length=2,
        max_length=32,
        pattern=NAME_PATTERN,
        description="Run this agent instead of searching (e.g. to answer its ask).",
    )
    convid: str | None = Field(
        default=None,
        pattern=CONVID_PATTERN,
        description="web and api only: the chat to continue (else a new one starts).",
    )
    contact: str | None = Field(
        default=None,
        max_length=CONTACT_MAX,
        description="The contact to group a new identity under (for viewing only).",
    )


class InboxRequest(RequestModel):
    """One page of the account's conversations, newest first."""

    channel: ChannelName | None = Field(default=None, description="Only this channel.")
    contact: str | None = Field(
        default=None, max_length=CONTACT_MAX, description="Only this contact's identities."
    )
    identity: str | None = Field(
        default=None, pattern=IDENTITY_PATTERN, description="Only this identity."
    )
    limit: int = Field(
        default=25, ge=1, le=INBOX_PAGE_MAX, description=f"Page size, 1 to {INBOX_PAGE_MAX}."
    )
    next_cursor: str | None = Field(
        default=None,
        min_length=1,
        max_length=CURSOR_MAX,
        description="The nextCursor of the previous page; omitted or null for the first page.",
    )


class InboxConversationRequest(RequestModel):
    """Names one conversation of the account."""

    convid: str = Convid


class ContactsRequest(RequestModel):
    """No fields: every identity of the account, grouped by contact."""


class IdentityRequest(RequestModel):
    """Names one identity of the account."""

    identity: str = Field(pattern=IDENTITY_PATTERN, description="An identity id (keyed hash).")


class SetContactRequest(RequestModel):
    """Group an identity under a contact, or take it out."""

    identity: str = Field(pattern=IDENTITY_PATTERN, description="An identity id (keyed hash).")
    contact: str | None = Field(
        max_length=CONTACT_MAX, description="The contact's name; null takes the identity out."
    )


@router.post("/deliverMessage", summary="Harness extra: a message from a sender on a channel")
def deliver_message(
    body: DeliverRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """Search and run in the sender's conversation: the same sender returning on a resuming
    channel (email, im, widget, a2a, schedule, webhook) continues it; web and api start a new
    chat unless ``convid`` is given. While the sender's conversation waits on a form, the
    message is the reply to it: its answers are read from the text (``answered``). Answers like
    ``execAgent`` (HTTP 200 with a ``resultCode``), plus the channel, the identity, whether it
    resumed, the matches, and ``reply``: the answer as the message to send back (a form's
    questions one per line)."""
    delivery = deployment.channels.deliver(
        user,
        channel=body.channel,
        sender=body.sender,
        query=body.query,
        inputs=body.inputs,
        agent_name=body.agent_name,
        convid=body.convid,
        contact=body.contact,
    )
    extra = {"warnings": delivery.warnings} if delivery.warnings else {}
    return {
        **exec_agent_body(delivery.result),
        **extra,
        "channel": delivery.channel,
        "identity": delivery.identity,
        "resumed": delivery.resumed,
        "reply": delivery.reply,
        "answered": delivery.answered,
        "searchResults": [
            {"agentName": h.agent_name, "agentTitle": h.agent_title, "score": round(h.score, 4)}
            for h in delivery.hits[:5]
        ],
    }


@router.post("/getInbox", summary="Harness extra: every conversation of the account")
def get_inbox(body: InboxRequest, user: CurrentUser, deployment: DeploymentDep) -> dict[str, Any]:
    """The owner's Inbox: conversations from every channel, newest first, filtered by channel,
    contact or identity, paged with ``nextCursor``."""
    items, cursor = deployment.channels.inbox(
        user,
        channel=body.channel,
        contact=body.contact,
        identity=body.identity,
        limit=body.limit,
        cursor=body.next_cursor,
    )
    return {"success": True, "conversations": items, "nextCursor": cursor}


@router.post("/getInboxConversation", summary="Harness extra: a transcript and its turn records")
def get_inbox_conversation(
    body: InboxConversationRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """One conversation of the account: its full transcript and a record of every turn (the
    agent that ran, the variables and memory facts it read and wrote, result, timings)."""
    return {"success": True, "conversation": deployment.channels.conversation(user, body.convid)}


@router.post("/getContacts", summary="Harness extra: identities grouped by contact")
def get_contacts(
    body: ContactsRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """Every identity of the account, grouped by contact (viewing only: nothing is merged)."""
    return {"success": True, "contacts": deployment.channels.contacts(user)}


@router.post("/getIdentity", summary="Harness extra: one identity and its memory")
def get_identity(
    body: IdentityRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """An identity: channel, sender, contact, current conversation and memory (``user.x``)."""
    return {"success": True, "identity": deployment.channels.identity(user, body.identity)}


@router.post("/setIdentityContact", summary="Harness extra: group an identity under a contact")
def set_identity_contact(
    body: SetContactRequest, user: CurrentUser, deployment: DeploymentDep
) -> dict[str, Any]:
    """Group an identity under a contact for viewing, or take it out with ``null``."""
    deployment.channels.set_contact(user, body.identity, body.contact)
    return {"success": True}
