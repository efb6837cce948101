"""Channels and senders: which channels exist, which resume, and what a sender id looks like.

Every conversation has a channel. On a *resuming* channel the same sender coming back (the same
email address, the same IM sender id, the same widget visitor...) continues their conversation;
on ``web`` and ``api`` every new chat starts fresh (a follow-up names its ``convid``). A sender
on one channel is one *identity*: the same person on two channels is two identities, with
separate conversations and separate memory; contacts group identities for viewing only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

from mock_account.errors import MockAccountError

ChannelName = Literal["web", "widget", "api", "a2a", "email", "im", "schedule", "webhook"]
CHANNEL_NAMES: tuple[str, ...] = get_args(ChannelName)
#: Conversations that did not come through a channel (``execAgent``) read as dashboard chats.
DEFAULT_CHANNEL = "web"

SENDER_MAX = 254
CONTACT_MAX = 120
_EMAIL_RE = re.compile(
    r"[^@\s<>(),;:\"\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+"
)
_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@+/=-]{0,199}")


class ChannelError(MockAccountError, ValueError):
    """A channel, sender or contact that cannot be used (answered with 422, saying why)."""


class NotAccountAdmin(MockAccountError):
    """The caller is not an administrator of the account (answered with 403)."""


class UnknownIdentity(MockAccountError):
    """No identity of this account has that id (answered with 404)."""

    MESSAGE = "There is no such identity in this account."


@dataclass(frozen=True)
class ChannelPolicy:
    """How one channel treats a returning sender."""

    name: str
    resumes: bool
    sender: str  # what the sender id is, in words (for error messages and the docs)
    email_sender: bool = False


CHANNELS: dict[str, ChannelPolicy] = {
    "web": ChannelPolicy("web", False, "a user of the account (their email)", email_sender=True),
    "api": ChannelPolicy("api", False, "the calling client's id"),
    "widget": ChannelPolicy("widget", True, "the website visitor's id"),
    "a2a": ChannelPolicy("a2a", True, "the calling agent's id"),
    "email": ChannelPolicy("email", True, "an email address", email_sender=True),
    "im": ChannelPolicy("im", True, "the IM sender id (e.g. slack:U024BE7LH)"),
    "schedule": ChannelPolicy("schedule", True, "the schedule's name"),
    "webhook": ChannelPolicy("webhook", True, "the webhook source's id"),
}


def channel_policy(channel: str) -> ChannelPolicy:
    """The policy of ``channel``; ``ChannelError`` naming the channels otherwise."""
    policy = CHANNELS.get(channel) if isinstance(channel, str) else None
    if policy is None:
        raise ChannelError(f"channel must be one of {', '.join(CHANNEL_NAMES)} (got {channel!r})")
    return policy


def normalize_sender(channel: str, sender: str) -> str:
    """The one canonical form of a sender on ``channel`` (what identifies them there).

    Email addresses (``email`` and ``web``) are compared without case; other ids are kept as
    sent, since IM and widget ids are case-sensitive. ``ChannelError`` says what is expected.
    """
    policy = channel_policy(channel)
    if not isinstance(sender, str):
        raise ChannelError(f"sender must be text: {policy.sender}")
    text = sender.strip()
    if not text:
        raise ChannelError(f"sender is empty: on {channel} it is {policy.sender}")
    if len(text) > SENDER_MAX:
        raise ChannelError(f"sender is longer than {SENDER_MAX} characters")
    if policy.email_sender:
        if not _EMAIL_RE.fullmatch(text):
            raise ChannelError(
                f"sender {text!r} is not an email address: on {channel} it is {policy.sender}"
            )
        return text.lower()
    if not _ID_RE.fullmatch(text):
        raise ChannelError(
            f"sender {text!r} is not a valid id on {channel} ({policy.sender}): use letters, "
            "digits and _ . : @ + / = -, starting with a letter or digit, at most 200"
        )
    return text


def normalize_contact(contact: str | None) -> str | None:
    """A contact's display name, with its spaces tidied; ``None`` or empty clears it."""
    if contact is None:
        return None
    if not isinstance(contact, str):
        raise ChannelError("contact must be text")
    text = " ".join(contact.split())
    if len(text) > CONTACT_MAX:
        raise ChannelError(f"contact is longer than {CONTACT_MAX} characters")
    return text or None
