"""What the account's administrator reads: identities, contacts, the Inbox, a conversation.

The Inbox is the account administrator's (the first user of each account, as
``mock-account users`` lists them): every conversation of the account from every channel.
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime
from typing import Any

from mock_account.channels.access import require_admin
from mock_account.channels.identities import UNREADABLE, Identities, conversation_owner
from mock_account.channels.model import (
    DEFAULT_CHANNEL,
    ChannelError,
    UnknownIdentity,
    channel_policy,
    normalize_contact,
)
from mock_account.conversations.account import MockAccount
from mock_account.crypto import InvalidRecord
from mock_account.errors import UnknownConversation
from mock_account.stores import ConversationEntry
from mock_account.stores.channel_records import (
    ChannelRecords,
    ConversationLink,
    IdentityRecord,
)
from mock_account.users import User, UserDirectory

INBOX_PAGE_MAX = 100


def epoch_ms(value: datetime) -> int:
    return int(value.timestamp() * 1000)


class ChannelViews:
    """The administrator's views of an account's senders and their conversations."""

    def __init__(self, account: MockAccount, users: UserDirectory, identities: Identities):
        self.account = account
        self.users = users
        self.identities = identities

    @property
    def records(self) -> ChannelRecords:
        return self.identities.records

    # --- identities and contacts -------------------------------------------------------------

    def identity_view(self, record: IdentityRecord, *, memory: bool = False) -> dict[str, Any]:
        view: dict[str, Any] = {
            "identity": record.identity,
            "channel": record.channel,
            "sender": self.identities.open_text(record, record.sender, "identity"),
            "contact": self.identities.open_text(record, record.contact, "contact"),
            "convid": record.convid or None,
            "created": epoch_ms(record.created),
            "lastSeen": epoch_ms(record.last_seen),
        }
        if memory:
            view["memory"] = self.identities.memory(record)
        return view

    def identity(self, caller: User, identity: str) -> dict[str, Any]:
        """One identity with its memory (the administrator's view)."""
        require_admin(self.users, caller)
        record = self.records.get_identity(caller.account, identity)
        if record is None:
            raise UnknownIdentity(UnknownIdentity.MESSAGE)
        return self.identity_view(record, memory=True)

    def identity_owner(self, caller: User, identity: str) -> str:
        """Whom an identity's runs file workflow progress and actions under, so the
        administrator can follow them and approve for a sender who has no dashboard."""
        require_admin(self.users, caller)
        record = self.records.get_identity(caller.account, identity)
        if record is None:
            raise UnknownIdentity(UnknownIdentity.MESSAGE)
        if record.channel != "web":
            return conversation_owner(record.channel, "", record.identity)
        sender = self.identities.open_text(record, record.sender, "identity")
        if sender is None or sender == UNREADABLE:
            # Without its sender a web identity names nobody's records.
            raise UnknownIdentity(UnknownIdentity.MESSAGE)
        return sender

    def contacts(self, caller: User) -> list[dict[str, Any]]:
        """Identities grouped by contact; an identity without one is a contact of its own."""
        require_admin(self.users, caller)
        groups: dict[str, dict[str, Any]] = {}
        for record in self.records.list_identities(caller.account):
            view = self.identity_view(record)
            name = view["contact"] or view["sender"] or record.identity
            group = groups.setdefault(name.casefold(), {"contact": name, "identities": []})
            group["identities"].append(view)
        for group in groups.values():
            group["identities"].sort(key=lambda v: -v["lastSeen"])
        return sorted(groups.values(), key=lambda g: -max(v["lastSeen"] for v in g["identities"]))

    # --- the Inbox ---------------------------------------------------------------------------

    def inbox(
        self,
        caller: User,
        *,
        channel: str | None = None,
        contact: str | None = None,
        identity: str | None = None,
        limit: int = 25,
        cursor: str | None = None,
    ) -> tuple[list[dict[str, Any]], str | None]:
        """Every conversation of the account, newest first, one page (keyset cursor)."""
        require_admin(self.users, caller)
        if channel is not None:
            channel_policy(channel)
        if not 1 <= limit <= INBOX_PAGE_MAX:
            raise ChannelError(f"limit must be between 1 and {INBOX_PAGE_MAX}")
        after = _parse_cursor(cursor) if cursor else None
        wanted_contact = normalize_contact(contact)
        account = caller.account
        links = {link.convid: link for link in self.records.links(account)}
        identities = {r.identity: r for r in self.records.list_identities(account)}
        views: dict[str, dict[str, Any]] = {}
        items: list[tuple[int, str, dict[str, Any]]] = []
        for entry in self.account.store.iter_entries(account):
            item = self._item(entry, links.get(entry.convid), identities, views)
            if channel is not None and item["channel"] != channel:
                continue
            if identity is not None and item["identity"] != identity:
                continue
            if wanted_contact is not None and (
                (item["contact"] or "").casefold() != wanted_contact.casefold()
            ):
                continue
            items.append((int(entry.last_used.timestamp() * 1_000_000), entry.convid, item))
        items.sort(key=lambda t: (t[0], t[1]), reverse=True)
        if after is not None:
            items = [t for t in items if (t[0], t[1]) < after]
        page = items[:limit]
        next_cursor = _make_cursor(page[-1][0], page[-1][1]) if len(items) > limit else None
        return [t[2] for t in page], next_cursor

    def _item(
        self,
        entry: ConversationEntry,
        link: ConversationLink | None,
        identities: dict[str, IdentityRecord],
        views: dict[str, dict[str, Any]],
    ) -> dict[str, Any]:
        record = identities.get(link.identity) if link is not None else None
        if record is not None and record.identity not in views:
            views[record.identity] = self.identity_view(record)
        view = views.get(record.identity) if record is not None else None
        if view is not None:
            sender, contact = view["sender"], view["contact"] or view["sender"]
        else:
            # A dashboard chat (execAgent): its user is the sender and the contact.
            sender = contact = entry.owner if "@" in entry.owner else None
        return {
            "convid": entry.convid,
            "channel": link.channel if link is not None else DEFAULT_CHANNEL,
            "identity": link.identity if link is not None else None,
            "sender": sender,
            "contact": contact,
            "title": self.account.vault.title(entry),
            "lastAgent": entry.last_agent or None,
            "created": epoch_ms(entry.created),
            "lastUsed": epoch_ms(entry.last_used),
        }

    # --- one conversation --------------------------------------------------------------------

    def conversation(self, caller: User, convid: str) -> dict[str, Any]:
        """One conversation of the account: its item, transcript and turn-by-turn record."""
        require_admin(self.users, caller)
        account = caller.account
        entry = self.account.store.get_entry(account, convid)
        if entry is None:
            raise UnknownConversation(convid)
        link = self.records.get_link(account, convid)
        identities: dict[str, IdentityRecord] = {}
        if link is not None:
            record = self.records.get_identity(account, link.identity)
            if record is not None:
                identities[record.identity] = record
        item = self._item(entry, link, identities, {})
        restored = self.account.vault.restore(account, entry.owner, convid)
        runs = restored.state.get("runs") or []
        item["transcript"] = [
            {
                "query": run["inputs"].get("query", ""),
                "answers": run["inputs"].get("answers"),
                "response": run["output"],
                "resultCode": run["resultCode"],
                "respondedAt": run["ranAt"],
            }
            for run in runs
        ]
        item["turns"] = self._turns(account, convid, entry.owner, item["channel"], runs)
        return item

    def _turns(
        self, account: str, convid: str, owner: str, channel: str, runs: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """The turn-by-turn record: the sealed turns, or what the saved runs say."""
        turns = []
        for stored in self.records.turns(account, convid):
            try:
                turn = self.identities.sealer.open_turn(stored.record, convid=convid, owner=owner)
            except InvalidRecord:
                turn = {"at": stored.at.isoformat(), "error": UNREADABLE}
            turns.append({"seq": stored.seq, **turn})
        if turns:
            return turns
        # A conversation from execAgent: its saved runs say who ran and what they touched.
        return [
            {
                "seq": index,
                "at": run["ranAt"],
                "channel": channel,
                "query": run["inputs"].get("query", ""),
                "agentName": run["agent"],
                "resultCode": run["resultCode"],
                "reads": [f"conv.{n}" for n in run.get("reads") or []],
                "writes": [f"conv.{n}" for n in run.get("writes") or []],
            }
            for index, run in enumerate(runs, start=1)
        ]


def _make_cursor(micros: int, convid: str) -> str:
    return base64.urlsafe_b64encode(f"{micros}:{convid}".encode()).decode().rstrip("=")


def _parse_cursor(cursor: str) -> tuple[int, str]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        micros, convid = base64.urlsafe_b64decode(padded.encode()).decode().split(":", 1)
        return int(micros), convid
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise ChannelError("nextCursor: not a cursor this server handed out") from None
