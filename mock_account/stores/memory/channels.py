"""Channel records in memory, next to a ``MemoryStore`` (tests and demos; nothing durable).

The records share the conversation store's lock, so each operation is atomic against the
conversations too. ``MemoryStore.delete`` knows nothing of them: links and turns of a
conversation that is gone are dropped the next time they are read, so nothing of a deleted
conversation can be seen (the SQL and Redis backends delete them with the conversation).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from mock_account.stores import channel_records as contract
from mock_account.stores.errors import VersionConflict
from mock_account.stores.memory.store import MemoryStore, replace_record


class MemoryChannelRecords(contract.ChannelRecords):
    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._lock = store.lock
        self._identities: dict[tuple[str, str], contract.IdentityRecord] = {}
        self._links: dict[tuple[str, str], contract.ConversationLink] = {}
        self._turns: dict[tuple[str, str], list[contract.TurnRecord]] = {}

    def _exists(self, account: str, convid: str) -> bool:
        return self._store.has_entry(account, convid)  # the caller holds the lock

    def _purge(self) -> None:
        for key in [k for k in self._links if not self._exists(*k)]:
            self._links.pop(key, None)
        for key in [k for k in self._turns if not self._exists(*k)]:
            self._turns.pop(key, None)

    # --- identities --------------------------------------------------------------------------

    def claim_identity(self, record: contract.IdentityRecord) -> contract.IdentityRecord:
        with self._lock:
            return self._identities.setdefault((record.account, record.identity), record)

    def get_identity(self, account: str, identity: str) -> contract.IdentityRecord | None:
        with self._lock:
            return self._identities.get((account, identity))

    def list_identities(self, account: str | None = None) -> list[contract.IdentityRecord]:
        with self._lock:
            return [r for r in self._identities.values() if account in (None, r.account)]

    def _change(self, account: str, identity: str, **changes: object) -> bool:
        return replace_record(self._identities, (account, identity), **changes)

    def move_identity(
        self, account: str, identity: str, *, expected_convid: str, convid: str, now: datetime
    ) -> bool:
        with self._lock:
            record = self._identities.get((account, identity))
            if record is None or record.convid != expected_convid:
                return False
            return self._change(
                account, identity, convid=convid, last_seen=max(record.last_seen, now)
            )

    def touch_identity(self, account: str, identity: str, now: datetime) -> bool:
        with self._lock:
            record = self._identities.get((account, identity))
            if record is None:
                return False
            return self._change(account, identity, last_seen=max(record.last_seen, now))

    def set_contact(
        self, account: str, identity: str, *, contact: bytes | None, contact_hash: str
    ) -> bool:
        with self._lock:
            return self._change(account, identity, contact=contact, contact_hash=contact_hash)

    def save_memory(
        self, account: str, identity: str, *, expected_version: int, memory: bytes
    ) -> int:
        with self._lock:
            record = self._identities.get((account, identity))
            if record is None or record.memory_version != expected_version:
                raise VersionConflict(
                    f"the memory of identity {identity} is no longer at version {expected_version}"
                )
            self._change(account, identity, memory=memory, memory_version=expected_version + 1)
            return expected_version + 1

    def delete_identity(
        self, account: str, identity: str, *, last_seen: datetime | None = None
    ) -> bool:
        with self._lock:
            record = self._identities.get((account, identity))
            if record is None or last_seen not in (None, record.last_seen):
                return False
            del self._identities[(account, identity)]
            return True

    # --- conversations -----------------------------------------------------------------------

    def link_conversation(self, link: contract.ConversationLink) -> bool:
        with self._lock:
            if not self._exists(link.account, link.convid):
                return False
            self._links.setdefault((link.account, link.convid), link)
            return True

    def get_link(self, account: str, convid: str) -> contract.ConversationLink | None:
        with self._lock:
            self._purge()
            return self._links.get((account, convid))

    def links(self, account: str | None = None) -> list[contract.ConversationLink]:
        with self._lock:
            self._purge()
            return [link for link in self._links.values() if account in (None, link.account)]

    def add_turn(self, account: str, convid: str, at: datetime, record: bytes) -> int:
        with self._lock:
            if not self._exists(account, convid):
                return 0
            turns = self._turns.setdefault((account, convid), [])
            turns.append(contract.TurnRecord(account, convid, len(turns) + 1, at, record))
            return len(turns)

    def turns(self, account: str, convid: str) -> list[contract.TurnRecord]:
        with self._lock:
            self._purge()
            return list(self._turns.get((account, convid), []))

    def forget_conversation(self, account: str, convid: str) -> None:
        with self._lock:
            self._links.pop((account, convid), None)
            self._turns.pop((account, convid), None)

    # --- key rotation ------------------------------------------------------------------------

    def reseal_identity(
        self, account: str, identity: str, field: contract.SealedField, old: bytes, new: bytes
    ) -> bool:
        if field not in contract.SEALED_FIELDS:
            raise ValueError(f"not an encrypted field: {field!r}")
        with self._lock:
            record = self._identities.get((account, identity))
            if record is None or getattr(record, field) != old:
                return False
            return self._change(account, identity, **{field: new})

    def reseal_turn(self, account: str, convid: str, seq: int, old: bytes, new: bytes) -> bool:
        with self._lock:
            turns = self._turns.get((account, convid), [])
            if not 1 <= seq <= len(turns) or turns[seq - 1].record != old:
                return False
            turns[seq - 1] = dataclasses.replace(turns[seq - 1], record=new)
            return True


def channel_records(store: MemoryStore) -> contract.ChannelRecords:
    """The channel records of ``store``: one set per store, as a database holds one set of
    tables, so every caller sees the same records."""
    return store.side_table("channel_records", lambda: MemoryChannelRecords(store))
