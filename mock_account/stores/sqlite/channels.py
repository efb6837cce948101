"""Channel records in the SQLite file of a ``SqliteStore``: their tables (schema migration 5)
and their queries.

Same connections and write lock as the conversations: a write of one statement runs alone
(``write_alone``), a write of several in one ``BEGIN IMMEDIATE`` transaction. Triggers delete a
conversation's link and turns with its entry and ignore a link or turn written for a
conversation that does not exist.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from mock_account.stores.channel_records import (
    SEALED_FIELDS,
    ChannelRecords,
    ConversationLink,
    IdentityRecord,
    SealedField,
    TurnRecord,
)
from mock_account.stores.codec import from_micros, to_micros
from mock_account.stores.errors import VersionConflict

if TYPE_CHECKING:  # the store's module runs this one's migration: no import back at run time
    from mock_account.stores.sqlite.store import SqliteStore

# Channels (``mock_account.channels``): identities by keyed hash, with their encrypted
# sender, contact and memory; each conversation's channel link and encrypted turn records.
# Links and turns go with their conversation (triggers) and are never written without it.
# The statements' text is kept byte for byte as first applied (indentation included).
CHANNEL_MIGRATION: tuple[int, tuple[str, ...]] = (
    5,
    (
        """CREATE TABLE channel_identities (
                account TEXT NOT NULL,
                identity TEXT NOT NULL,
                channel TEXT NOT NULL,
                sender BLOB NOT NULL,
                contact BLOB,
                contact_hash TEXT NOT NULL DEFAULT '',
                convid TEXT NOT NULL DEFAULT '',
                created INTEGER NOT NULL,
                last_seen INTEGER NOT NULL,
                memory BLOB,
                memory_version INTEGER NOT NULL DEFAULT 0 CHECK (memory_version >= 0),
                PRIMARY KEY (account, identity)
            )""",
        """CREATE TABLE channel_links (
                account TEXT NOT NULL,
                convid TEXT NOT NULL,
                channel TEXT NOT NULL,
                identity TEXT NOT NULL,
                created INTEGER NOT NULL,
                PRIMARY KEY (account, convid)
            )""",
        """CREATE TABLE channel_turns (
                account TEXT NOT NULL,
                convid TEXT NOT NULL,
                seq INTEGER NOT NULL,
                at INTEGER NOT NULL,
                record BLOB NOT NULL,
                PRIMARY KEY (account, convid, seq)
            )""",
        """CREATE TRIGGER channel_records_go_with_entries AFTER DELETE ON entries BEGIN
                DELETE FROM channel_links WHERE account = old.account AND convid = old.convid;
                DELETE FROM channel_turns WHERE account = old.account AND convid = old.convid;
            END""",
        """CREATE TRIGGER channel_links_need_entry BEFORE INSERT ON channel_links
            WHEN NOT EXISTS (SELECT 1 FROM entries
                             WHERE account = new.account AND convid = new.convid)
            BEGIN SELECT RAISE(IGNORE); END""",
        """CREATE TRIGGER channel_turns_need_entry BEFORE INSERT ON channel_turns
            WHEN NOT EXISTS (SELECT 1 FROM entries
                             WHERE account = new.account AND convid = new.convid)
            BEGIN SELECT RAISE(IGNORE); END""",
    ),
)

_IDENTITY = (
    "account, identity, channel, sender, created, last_seen, convid, contact, contact_hash, "
    "memory, memory_version"
)


def _identity(row: tuple) -> IdentityRecord:
    return IdentityRecord(
        account=row[0],
        identity=row[1],
        channel=row[2],
        sender=bytes(row[3]),
        created=from_micros(row[4]),
        last_seen=from_micros(row[5]),
        convid=row[6],
        contact=bytes(row[7]) if row[7] is not None else None,
        contact_hash=row[8],
        memory=bytes(row[9]) if row[9] is not None else None,
        memory_version=row[10],
    )


def _link(row: tuple) -> ConversationLink:
    return ConversationLink(row[0], row[1], row[2], row[3], from_micros(row[4]))


class SqliteChannelRecords(ChannelRecords):
    def __init__(self, store: SqliteStore) -> None:
        self._store = store

    def _read(self, sql: str, params: tuple) -> list[tuple]:
        return self._store.read(sql, params)

    def _write(self, sql: str, params: tuple) -> int:
        """One statement, as a transaction of its own (the write lock only while it runs)."""
        return self._store.write_alone(sql, params)

    # --- identities --------------------------------------------------------------------------

    def claim_identity(self, record: IdentityRecord) -> IdentityRecord:
        r = record
        with self._store.transaction() as conn:
            conn.execute(
                f"INSERT INTO channel_identities ({_IDENTITY}) VALUES (?,?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT (account, identity) DO NOTHING",
                (
                    r.account,
                    r.identity,
                    r.channel,
                    r.sender,
                    to_micros(r.created),
                    to_micros(r.last_seen),
                    r.convid,
                    r.contact,
                    r.contact_hash,
                    r.memory,
                    r.memory_version,
                ),
            )
            row = conn.execute(
                f"SELECT {_IDENTITY} FROM channel_identities WHERE account = ? AND identity = ?",
                (r.account, r.identity),
            ).fetchone()
        return _identity(row)

    def get_identity(self, account: str, identity: str) -> IdentityRecord | None:
        rows = self._read(
            f"SELECT {_IDENTITY} FROM channel_identities WHERE account = ? AND identity = ?",
            (account, identity),
        )
        return _identity(rows[0]) if rows else None

    def list_identities(self, account: str | None = None) -> list[IdentityRecord]:
        if account is None:
            return [
                _identity(r) for r in self._read(f"SELECT {_IDENTITY} FROM channel_identities", ())
            ]
        rows = self._read(
            f"SELECT {_IDENTITY} FROM channel_identities WHERE account = ?", (account,)
        )
        return [_identity(r) for r in rows]

    def move_identity(
        self, account: str, identity: str, *, expected_convid: str, convid: str, now: datetime
    ) -> bool:
        return (
            self._write(
                "UPDATE channel_identities SET convid = ?, last_seen = max(last_seen, ?) "
                "WHERE account = ? AND identity = ? AND convid = ?",
                (convid, to_micros(now), account, identity, expected_convid),
            )
            == 1
        )

    def touch_identity(self, account: str, identity: str, now: datetime) -> bool:
        return (
            self._write(
                "UPDATE channel_identities SET last_seen = max(last_seen, ?) "
                "WHERE account = ? AND identity = ?",
                (to_micros(now), account, identity),
            )
            == 1
        )

    def set_contact(
        self, account: str, identity: str, *, contact: bytes | None, contact_hash: str
    ) -> bool:
        return (
            self._write(
                "UPDATE channel_identities SET contact = ?, contact_hash = ? "
                "WHERE account = ? AND identity = ?",
                (contact, contact_hash, account, identity),
            )
            == 1
        )

    def save_memory(
        self, account: str, identity: str, *, expected_version: int, memory: bytes
    ) -> int:
        changed = self._write(
            "UPDATE channel_identities SET memory = ?, memory_version = memory_version + 1 "
            "WHERE account = ? AND identity = ? AND memory_version = ?",
            (memory, account, identity, expected_version),
        )
        if changed != 1:
            raise VersionConflict(
                f"the memory of identity {identity} is no longer at version {expected_version}"
            )
        return expected_version + 1

    def delete_identity(
        self, account: str, identity: str, *, last_seen: datetime | None = None
    ) -> bool:
        if last_seen is None:
            sql, params = (
                "DELETE FROM channel_identities WHERE account = ? AND identity = ?",
                (account, identity),
            )
        else:
            sql, params = (
                "DELETE FROM channel_identities "
                "WHERE account = ? AND identity = ? AND last_seen = ?",
                (account, identity, to_micros(last_seen)),
            )
        return self._write(sql, params) == 1

    # --- conversations -----------------------------------------------------------------------

    def link_conversation(self, link: ConversationLink) -> bool:
        with self._store.transaction() as conn:
            conn.execute(
                "INSERT INTO channel_links (account, convid, channel, identity, created) "
                "VALUES (?,?,?,?,?) ON CONFLICT (account, convid) DO NOTHING",
                (link.account, link.convid, link.channel, link.identity, to_micros(link.created)),
            )
            row = conn.execute(
                "SELECT 1 FROM channel_links WHERE account = ? AND convid = ?",
                (link.account, link.convid),
            ).fetchone()
        return row is not None

    def get_link(self, account: str, convid: str) -> ConversationLink | None:
        rows = self._read(
            "SELECT account, convid, channel, identity, created FROM channel_links "
            "WHERE account = ? AND convid = ?",
            (account, convid),
        )
        return _link(rows[0]) if rows else None

    def links(self, account: str | None = None) -> list[ConversationLink]:
        sql = "SELECT account, convid, channel, identity, created FROM channel_links"
        if account is None:
            return [_link(r) for r in self._read(sql, ())]
        return [_link(r) for r in self._read(sql + " WHERE account = ?", (account,))]

    def add_turn(self, account: str, convid: str, at: datetime, record: bytes) -> int:
        with self._store.transaction() as conn:
            (seq,) = conn.execute(
                "SELECT coalesce(max(seq), 0) + 1 FROM channel_turns "
                "WHERE account = ? AND convid = ?",
                (account, convid),
            ).fetchone()
            cur = conn.execute(
                "INSERT INTO channel_turns (account, convid, seq, at, record) VALUES (?,?,?,?,?)",
                (account, convid, seq, to_micros(at), record),
            )
            return seq if cur.rowcount == 1 else 0

    def turns(self, account: str, convid: str) -> list[TurnRecord]:
        rows = self._read(
            "SELECT seq, at, record FROM channel_turns WHERE account = ? AND convid = ? "
            "ORDER BY seq",
            (account, convid),
        )
        return [TurnRecord(account, convid, r[0], from_micros(r[1]), bytes(r[2])) for r in rows]

    def forget_conversation(self, account: str, convid: str) -> None:
        with self._store.transaction() as conn:
            conn.execute(
                "DELETE FROM channel_links WHERE account = ? AND convid = ?", (account, convid)
            )
            conn.execute(
                "DELETE FROM channel_turns WHERE account = ? AND convid = ?", (account, convid)
            )

    # --- key rotation ------------------------------------------------------------------------

    def reseal_identity(
        self, account: str, identity: str, field: SealedField, old: bytes, new: bytes
    ) -> bool:
        if field not in SEALED_FIELDS:
            raise ValueError(f"not an encrypted field: {field!r}")
        return (
            self._write(
                f"UPDATE channel_identities SET {field} = ? "
                f"WHERE account = ? AND identity = ? AND {field} = ?",
                (new, account, identity, old),
            )
            == 1
        )

    def reseal_turn(self, account: str, convid: str, seq: int, old: bytes, new: bytes) -> bool:
        return (
            self._write(
                "UPDATE channel_turns SET record = ? "
                "WHERE account = ? AND convid = ? AND seq = ? AND record = ?",
                (new, account, convid, seq, old),
            )
            == 1
        )
