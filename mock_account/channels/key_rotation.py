"""Re-encrypt channel records under the current key (after ``mock-account keys rotate``).

Every sender, contact, memory and turn record not under the current key is opened and sealed
again, then swapped only if it still holds the bytes that were read (a record written meanwhile
is already under the current key). A record that cannot be opened is reported and left as it
is. Running it again resumes where it stopped. Identity ids (keyed hashes) do not change.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mock_account.channels.sealing import identity_scope
from mock_account.crypto import InvalidRecord, Purpose, StateCipher, record_key_id
from mock_account.crypto.reencryption import ReencryptCounts, report_lines
from mock_account.stores import ConversationStore
from mock_account.stores.channel_records import ChannelRecords

_PURPOSES: dict[str, Purpose] = {"sender": "identity", "contact": "contact", "memory": "memory"}


@dataclass
class ChannelReencryptReport(ReencryptCounts):
    reencrypted: int = 0
    changed_meanwhile: int = 0

    def lines(self) -> list[str]:
        counts = {
            "channel records re-encrypted": self.reencrypted,
            "channel records already on the current key": self.current,
            "channel records changed meanwhile (already current)": self.changed_meanwhile,
        }
        return report_lines(counts, self.unreadable, unreadable_label="unreadable channel record")


def reencrypt_channels(
    records: ChannelRecords, store: ConversationStore, cipher: StateCipher
) -> ChannelReencryptReport:
    report = ChannelReencryptReport()

    def count(swapped: bool) -> None:
        if swapped:
            report.reencrypted += 1
        else:
            report.changed_meanwhile += 1

    for record in records.list_identities():
        for name, purpose in _PURPOSES.items():
            blob = getattr(record, name)
            if blob is None:
                continue
            label = f"{record.account}/identity {record.identity} {name}"
            scope = identity_scope(record.identity)
            new = report.resealed(
                cipher, blob, label, convid=scope, owner=record.account, purpose=purpose
            )
            if new is not None:
                count(
                    records.reseal_identity(record.account, record.identity, name, blob, new)  # type: ignore[arg-type]
                )
    for link in records.iter_links():
        entry = store.get_entry(link.account, link.convid)
        if entry is None:
            continue
        for turn in records.turns(link.account, link.convid):
            label = f"{link.account}/{link.convid} turn {turn.seq}"
            new = report.resealed(
                cipher, turn.record, label, convid=link.convid, owner=entry.owner, purpose="turn"
            )
            if new is not None:
                count(records.reseal_turn(link.account, link.convid, turn.seq, turn.record, new))
    return report


def channel_key_status(records: ChannelRecords) -> Counter[str]:
    """How many channel records (senders, contacts, memory, turns) use each key id."""
    counts: Counter[str] = Counter()

    def add(blob: bytes | None) -> None:
        if blob is None:
            return
        try:
            counts[record_key_id(blob)] += 1
        except InvalidRecord:
            counts["(unreadable)"] += 1

    for record in records.list_identities():
        for name in _PURPOSES:
            add(getattr(record, name))
    for link in records.iter_links():
        for turn in records.turns(link.account, link.convid):
            add(turn.record)
    return counts
