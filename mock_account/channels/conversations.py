"""Which conversation a sender's message goes into.

On a resuming channel the identity's conversation continues; a new one starts when it has
none, or it was deleted or expired. On ``web`` and ``api`` a new chat starts unless a
``convid`` of that identity is given.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from mock_account.channels.identities import MEMORY_RETRIES, Identities
from mock_account.conversations.account import MockAccount
from mock_account.conversations.vault import new_convid
from mock_account.errors import UnknownConversation
from mock_account.stores import ConversationEntry, VersionConflict
from mock_account.stores.channel_records import ChannelRecords, IdentityRecord

#: A conversation an identity points at that does not exist yet, if the identity moved to it
#: this recently, is being started by another message of the same sender: this one joins it.
STARTING_WINDOW = timedelta(seconds=30)


class IdentityGone(Exception):
    """The identity was deleted by the retention sweep while a message was being routed."""


class SenderConversations:
    """The conversations of senders: the one to continue, or the one to start."""

    def __init__(self, account: MockAccount, identities: Identities):
        self.account = account
        self.identities = identities

    @property
    def records(self) -> ChannelRecords:
        return self.identities.records

    def live(self, account: str, convid: str, owner: str) -> ConversationEntry | None:
        entry = self.account.store.get_entry(account, convid) if convid else None
        return entry if entry is not None and entry.owner == owner else None

    def pick(
        self, record: IdentityRecord, owner: str, convid: str | None, resumes: bool, now: datetime
    ) -> tuple[str | None, str | None]:
        """``(convid to continue, None)`` or ``(None, convid to start)``."""
        if convid:
            link = self.records.get_link(record.account, convid)
            if self.live(record.account, convid, owner) is None or (
                link is not None and link.identity != record.identity
            ):
                raise UnknownConversation(convid)
            return convid, None
        if resumes:
            return self.resume_or_start(record, owner, now)
        return None, new_convid()

    def resume_or_start(
        self, record: IdentityRecord, owner: str, now: datetime
    ) -> tuple[str | None, str | None]:
        """``(convid to continue, None)`` or ``(None, convid to start)`` for a returning
        sender; two first messages at once agree on one conversation."""
        current = record
        for _ in range(MEMORY_RETRIES):
            if self.live(current.account, current.convid, owner) is not None:
                return current.convid, None
            if current.convid and now - current.last_seen < STARTING_WINDOW:
                # Another message of this sender is starting it right now: start it with them.
                return None, current.convid
            fresh = new_convid()
            if self.records.move_identity(
                current.account,
                current.identity,
                expected_convid=current.convid,
                convid=fresh,
                now=now,
            ):
                return None, fresh
            again = self.records.get_identity(current.account, current.identity)
            if again is None:
                raise IdentityGone
            current = again
        raise VersionConflict("the sender's conversation kept changing; please try again")
