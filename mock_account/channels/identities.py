"""A sender's identity on a channel: found or claimed, its contact, its memory.

An identity's id is a keyed hash of account, channel and sender; its sender, contact and
memory are kept sealed (``sealing``), so everything here opens or seals on the way.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from mock_account.channels.sealing import ChannelSealer
from mock_account.conversations.account import ExecResult
from mock_account.crypto import InvalidRecord
from mock_account.stores import VersionConflict
from mock_account.stores.channel_records import ChannelRecords, IdentityRecord

#: How often a compare-and-swap on an identity (its memory, its conversation) is tried again
#: when a concurrent change saved first.
MEMORY_RETRIES = 8
UNREADABLE = "(cannot be read)"


def conversation_owner(channel: str, sender: str, identity: str) -> str:
    """Whose conversation it is: a web user's own, else the identity's (no address)."""
    return sender if channel == "web" else f"{channel}:{identity}"


class Identities:
    """The identities of a deployment, sealed and opened with its keys."""

    def __init__(self, records: ChannelRecords, sealer: ChannelSealer):
        # Every part of the service reads the records from here: swapped here, swapped for all.
        self.records = records
        self.sealer = sealer

    def find_or_claim(
        self, account: str, channel: str, sender: str, contact: str | None, now: datetime
    ) -> IdentityRecord:
        identity = self.sealer.identity_id(account, channel, sender)
        found = self.records.get_identity(account, identity)
        if found is None:
            found = self.records.claim_identity(
                IdentityRecord(
                    account=account,
                    identity=identity,
                    channel=channel,
                    sender=self.sealer.seal_text(
                        sender, account=account, identity=identity, purpose="identity"
                    ),
                    created=now,
                    last_seen=now,
                )
            )
        if contact is not None and found.contact is None:
            self.set_contact(account, identity, contact)
        return found

    def set_contact(self, account: str, identity: str, contact: str | None) -> bool:
        sealed = None
        if contact is not None:
            sealed = self.sealer.seal_text(
                contact, account=account, identity=identity, purpose="contact"
            )
        digest = self.sealer.contact_hash(account, contact) if contact else ""
        return self.records.set_contact(account, identity, contact=sealed, contact_hash=digest)

    def open_text(self, record: IdentityRecord, blob: bytes | None, purpose: str) -> str | None:
        if blob is None:
            return None
        try:
            return self.sealer.open_text(
                blob, account=record.account, identity=record.identity, purpose=purpose
            )
        except (InvalidRecord, UnicodeDecodeError):
            return UNREADABLE

    def memory(self, record: IdentityRecord) -> dict[str, Any]:
        if record.memory is None:
            return {}
        return self.sealer.open_memory(
            record.memory, account=record.account, identity=record.identity
        )

    def latest_memory(self, record: IdentityRecord) -> dict[str, Any]:
        latest = self.records.get_identity(record.account, record.identity)
        return self.memory(latest or record)

    def save_memory(self, record: IdentityRecord, result: ExecResult) -> bool:
        """Keep the facts the run wrote; a concurrent change to other facts is kept too."""
        written = {name: (result.memory or {}).get(name) for name in result.memory_writes}
        current = record
        for _ in range(MEMORY_RETRIES):
            merged = {**self.memory(current), **written}
            plain = json.dumps(merged, ensure_ascii=False, separators=(",", ":")).encode()
            sealed = self.sealer.seal_memory(
                plain, account=current.account, identity=current.identity
            )
            try:
                self.records.save_memory(
                    current.account,
                    current.identity,
                    expected_version=current.memory_version,
                    memory=sealed,
                )
                return True
            except VersionConflict:
                latest = self.records.get_identity(current.account, current.identity)
                if latest is None:
                    return False
                current = latest
        return False
