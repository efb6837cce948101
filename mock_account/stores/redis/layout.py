"""Key layout and record decoding of the Redis conversation store.

Components are percent-encoded, so account, convid, owner and key text can hold any character
without colliding with one another, breaking a hash tag or acting as a ``SCAN`` glob.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from mock_account.stores.base import ConversationEntry
from mock_account.stores.codec import from_micros

Fields = dict[bytes, bytes]


def q(text: str) -> str:
    """``text`` percent-encoded (no ``/``, braces or glob characters left)."""
    return quote(text, safe="")


def conv_keys(prefix: str, account: str, convid: str) -> list[str]:
    """``[entry, state]`` keys of a conversation; the hash tag puts both in one slot."""
    tag = f"{prefix}:conv:{{{q(account)}/{q(convid)}}}"
    return [f"{tag}:entry", f"{tag}:state"]


def conv_idempotency_key(prefix: str, account: str, convid: str) -> str:
    """The set of idempotency keys naming a conversation (in the conversation's slot)."""
    return f"{prefix}:conv:{{{q(account)}/{q(convid)}}}:idem"


def user_keys(prefix: str, account: str, owner: str) -> list[str]:
    """``[recent, pinned, revs]`` index keys of one user, in one slot."""
    tag = f"{prefix}:user:{{{q(account)}/{q(owner)}}}"
    return [f"{tag}:recent", f"{tag}:pinned", f"{tag}:revs"]


def user_of_key(key: bytes) -> tuple[str, str]:
    """``(account, owner)`` of a user index key."""
    tag = key.decode().split("{", 1)[1].split("}", 1)[0]
    account, owner = tag.split("/", 1)
    return unquote(account), unquote(owner)


def idempotency_key(prefix: str, key: str) -> str:
    """The key holding one remembered response."""
    return f"{prefix}:idem:{{{q(key)}}}"


def as_fields(reply: list[bytes] | Fields | None) -> Fields:
    """An HGETALL reply (a dict, or the flat list a script returns) as a dict."""
    if not reply:
        return {}
    if isinstance(reply, dict):
        return reply
    return dict(zip(reply[::2], reply[1::2], strict=True))


def entry_of(fields: Fields) -> ConversationEntry | None:
    """The entry an entry hash holds; ``None`` for a missing (empty) hash."""
    if not fields:
        return None
    return ConversationEntry(
        account=fields[b"account"].decode(),
        convid=fields[b"convid"].decode(),
        owner=fields[b"owner"].decode(),
        title=fields[b"title"],
        created=from_micros(int(fields[b"created"])),
        last_executed=from_micros(int(fields[b"last_executed"])),
        last_read=from_micros(int(fields[b"last_read"])),
        pinned=fields[b"pinned"] == b"1",
        state_version=int(fields[b"version"]),
        last_agent=fields.get(b"agent", b"").decode(),
    )
