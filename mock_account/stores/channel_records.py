"""The channel records contract: typed records and the abstract class every backend implements.

The records live next to the conversations of the same store (same file, schema or prefix);
``mock_account.channels`` uses them, each backend package implements them.

Three kinds of records, all opaque bytes where they hold anything a user wrote:

- **identities**: per account and keyed hash (``identity``), the channel, the encrypted sender,
  an optional encrypted contact name with its keyed hash, the conversation the identity is in
  now (``convid``, ``""`` for none), first and last seen, and the encrypted memory with a version
  (compare-and-swap).
- **links**: which channel and identity a conversation came through (one per conversation).
- **turns**: the encrypted record of each message delivered into a conversation, in order.

Links and turns belong to their conversation: deleting the conversation (by its owner or by
retention) deletes them in the same transaction or script, and a link or turn written for a
conversation that no longer exists is not kept. Identities outlive a conversation (their memory
carries over to the next one) until retention removes them (``mock_account.channels.retention``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

#: The encrypted fields of an identity.
SealedField = Literal["sender", "contact", "memory"]
SEALED_FIELDS: tuple[str, ...] = ("sender", "contact", "memory")


@dataclass(frozen=True)
class IdentityRecord:
    account: str
    identity: str
    channel: str
    sender: bytes
    created: datetime
    last_seen: datetime
    convid: str = ""
    contact: bytes | None = None
    contact_hash: str = ""
    memory: bytes | None = None
    memory_version: int = 0


@dataclass(frozen=True)
class ConversationLink:
    account: str
    convid: str
    channel: str
    identity: str
    created: datetime


@dataclass(frozen=True)
class TurnRecord:
    account: str
    convid: str
    seq: int
    at: datetime
    record: bytes


class ChannelRecords(ABC):
    """Identities, conversation links and turn records of one store (every backend)."""

    # --- identities --------------------------------------------------------------------------

    @abstractmethod
    def claim_identity(self, record: IdentityRecord) -> IdentityRecord:
        """Insert ``record`` unless its identity exists; return what is stored either way."""

    @abstractmethod
    def get_identity(self, account: str, identity: str) -> IdentityRecord | None:
        """One identity, or ``None``."""

    @abstractmethod
    def list_identities(self, account: str | None = None) -> list[IdentityRecord]:
        """The identities of one account (or of all), in no particular order."""

    @abstractmethod
    def move_identity(
        self, account: str, identity: str, *, expected_convid: str, convid: str, now: datetime
    ) -> bool:
        """Point the identity at ``convid`` if it still points at ``expected_convid`` (CAS);
        ``last_seen`` becomes ``now``. ``False`` when it moved meanwhile or is missing."""

    @abstractmethod
    def touch_identity(self, account: str, identity: str, now: datetime) -> bool:
        """Set ``last_seen`` to ``now`` (never backwards); ``False`` if missing."""

    @abstractmethod
    def set_contact(
        self, account: str, identity: str, *, contact: bytes | None, contact_hash: str
    ) -> bool:
        """Set (or clear, with ``None`` and ``""``) the contact; ``False`` if missing."""

    @abstractmethod
    def save_memory(
        self, account: str, identity: str, *, expected_version: int, memory: bytes
    ) -> int:
        """Replace the memory if its version is ``expected_version``; the new version.

        Raises ``VersionConflict`` when it changed meanwhile or the identity is missing.
        """

    @abstractmethod
    def delete_identity(
        self, account: str, identity: str, *, last_seen: datetime | None = None
    ) -> bool:
        """Remove the identity and its memory; ``False`` if there was nothing to remove.

        With ``last_seen``, only while the identity was last seen then (compare-and-swap), so
        a sender who came back meanwhile keeps it."""

    # --- conversations -----------------------------------------------------------------------

    @abstractmethod
    def link_conversation(self, link: ConversationLink) -> bool:
        """Record the channel of a conversation (kept if one is already recorded).

        ``False`` when the conversation does not exist (nothing is written).
        """

    @abstractmethod
    def get_link(self, account: str, convid: str) -> ConversationLink | None:
        """The link of one conversation, or ``None``."""

    @abstractmethod
    def links(self, account: str | None = None) -> list[ConversationLink]:
        """The links of one account's conversations (or of all)."""

    @abstractmethod
    def add_turn(self, account: str, convid: str, at: datetime, record: bytes) -> int:
        """Append a turn record; its sequence number (1, 2, ...), 0 when the conversation does
        not exist (nothing is written)."""

    @abstractmethod
    def turns(self, account: str, convid: str) -> list[TurnRecord]:
        """The turn records of a conversation, oldest first."""

    @abstractmethod
    def forget_conversation(self, account: str, convid: str) -> None:
        """Remove the link and turns of a conversation (what deleting it does by itself)."""

    def iter_links(self) -> Iterator[ConversationLink]:
        yield from self.links(None)

    # --- key rotation ------------------------------------------------------------------------

    @abstractmethod
    def reseal_identity(
        self, account: str, identity: str, field: SealedField, old: bytes, new: bytes
    ) -> bool:
        """Swap an identity's encrypted ``field`` if it still holds ``old`` (re-encryption);
        ``False`` when it changed meanwhile (the change is already under the current key)."""

    @abstractmethod
    def reseal_turn(self, account: str, convid: str, seq: int, old: bytes, new: bytes) -> bool:
        """Swap a turn record if it still holds ``old``; ``False`` otherwise."""
