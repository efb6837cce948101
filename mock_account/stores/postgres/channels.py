"""Channel records in the PostgreSQL schema of a ``PostgresStore``: their tables (schema
migration 5) and their queries.

Same connection pool as the conversations. Links and turns reference the conversation's entry
(``ON DELETE CASCADE``): deleting a conversation deletes them in the same transaction, and one
written for a conversation that does not exist is refused by the database itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

import psycopg

from mock_account.stores.channel_records import (
    SEALED_FIELDS,
    ChannelRecords,
    ConversationLink,
    IdentityRecord,
    SealedField,
    TurnRecord,
)
from mock_account.stores.codec import utc
from mock_account.stores.errors import StoreError, VersionConflict

if TYPE_CHECKING:  # the store's module runs this one's migration: no import back at run time
    from mock_account.stores.postgres.store import PostgresStore

# Channels (``mock_account.channels``): identities by keyed hash, with their encrypted
# sender, contact and memory; each conversation's channel link and encrypted turn records,
# which go with their conversation (and cannot be written without it).
# The statements' text is kept byte for byte as first applied (indentation included).
CHANNEL_MIGRATION: tuple[int, tuple[str, ...]] = (
    5,
    (
        """CREATE TABLE {s}.channel_identities (
                account text COLLATE "C" NOT NULL,
                identity text COLLATE "C" NOT NULL,
                channel text NOT NULL,
                sender bytea NOT NULL,
                contact bytea,
                contact_hash text NOT NULL DEFAULT '',
                convid text COLLATE "C" NOT NULL DEFAULT '',
                created timestamptz NOT NULL,
                last_seen timestamptz NOT NULL,
                memory bytea,
                memory_version bigint NOT NULL DEFAULT 0 CHECK (memory_version >= 0),
                PRIMARY KEY (account, identity)
            )""",
        """CREATE TABLE {s}.channel_links (
                account text COLLATE "C" NOT NULL,
                convid text COLLATE "C" NOT NULL,
                channel text NOT NULL,
                identity text COLLATE "C" NOT NULL,
                created timestamptz NOT NULL,
                PRIMARY KEY (account, convid),
                FOREIGN KEY (account, convid) REFERENCES {s}.entries ON DELETE CASCADE
            )""",
        """CREATE TABLE {s}.channel_turns (
                account text COLLATE "C" NOT NULL,
                convid text COLLATE "C" NOT NULL,
                seq integer NOT NULL,
                at timestamptz NOT NULL,
                record bytea NOT NULL,
                PRIMARY KEY (account, convid, seq),
                FOREIGN KEY (account, convid) REFERENCES {s}.entries ON DELETE CASCADE
            )""",
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
        created=row[4],
        last_seen=row[5],
        convid=row[6],
        contact=bytes(row[7]) if row[7] is not None else None,
        contact_hash=row[8],
        memory=bytes(row[9]) if row[9] is not None else None,
        memory_version=row[10],
    )


def _link(row: tuple) -> ConversationLink:
    return ConversationLink(row[0], row[1], row[2], row[3], row[4])


def _missing_conversation(exc: StoreError) -> bool:
    return isinstance(exc.__cause__, psycopg.errors.ForeignKeyViolation)


class PostgresChannelRecords(ChannelRecords):
    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    def _q(self, text: str) -> str:
        return self._store.qualify(text)

    @contextmanager
    def _cursor(self, transaction: bool = False) -> Iterator[psycopg.Cursor]:
        with self._store.transaction() if transaction else self._store.cursor() as cur:
            yield cur

    def _rows(self, text: str, params: tuple) -> list[tuple]:
        with self._cursor() as cur:
            return cur.execute(self._q(text), params).fetchall()

    def _count(self, text: str, params: tuple) -> int:
        with self._cursor() as cur:
            return cur.execute(self._q(text), params).rowcount

    # --- identities --------------------------------------------------------------------------

    def claim_identity(self, record: IdentityRecord) -> IdentityRecord:
        r = record
        with self._cursor(transaction=True) as cur:
            cur.execute(
                self._q(
                    f"INSERT INTO {{s}}.channel_identities ({_IDENTITY}) "
                    "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) "
                    "ON CONFLICT (account, identity) DO NOTHING"
                ),
                (
                    r.account,
                    r.identity,
                    r.channel,
                    r.sender,
                    utc(r.created),
                    utc(r.last_seen),
                    r.convid,
                    r.contact,
                    r.contact_hash,
                    r.memory,
                    r.memory_version,
                ),
            )
            row = cur.execute(
                self._q(
                    f"SELECT {_IDENTITY} FROM {{s}}.channel_identities "
                    "WHERE account = %s AND identity = %s"
                ),
                (r.account, r.identity),
            ).fetchone()
        return _identity(row)

    def get_identity(self, account: str, identity: str) -> IdentityRecord | None:
        rows = self._rows(
            f"SELECT {_IDENTITY} FROM {{s}}.channel_identities "
            "WHERE account = %s AND identity = %s",
            (account, identity),
        )
        return _identity(rows[0]) if rows else None

    def list_identities(self, account: str | None = None) -> list[IdentityRecord]:
        sql = f"SELECT {_IDENTITY} FROM {{s}}.channel_identities"
        if account is None:
            return [_identity(r) for r in self._rows(sql, ())]
        return [_identity(r) for r in self._rows(sql + " WHERE account = %s", (account,))]

    def move_identity(
        self, account: str, identity: str, *, expected_convid: str, convid: str, now: datetime
    ) -> bool:
        return (
            self._count(
                "UPDATE {s}.channel_identities SET convid = %s, "
                "last_seen = greatest(last_seen, %s) "
                "WHERE account = %s AND identity = %s AND convid = %s",
                (convid, utc(now), account, identity, expected_convid),
            )
            == 1
        )

    def touch_identity(self, account: str, identity: str, now: datetime) -> bool:
        return (
            self._count(
                "UPDATE {s}.channel_identities SET last_seen = greatest(last_seen, %s) "
                "WHERE account = %s AND identity = %s",
                (utc(now), account, identity),
            )
            == 1
        )

    def set_contact(
        self, account: str, identity: str, *, contact: bytes | None, contact_hash: str
    ) -> bool:
        return (
            self._count(
                "UPDATE {s}.channel_identities SET contact = %s, contact_hash = %s "
                "WHERE account = %s AND identity = %s",
                (contact, contact_hash, account, identity),
            )
            == 1
        )

    def save_memory(
        self, account: str, identity: str, *, expected_version: int, memory: bytes
    ) -> int:
        changed = self._count(
            "UPDATE {s}.channel_identities SET memory = %s, memory_version = memory_version + 1 "
            "WHERE account = %s AND identity = %s AND memory_version = %s",
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
        sql = "DELETE FROM {s}.channel_identities WHERE account = %s AND identity = %s"
        params: tuple = (account, identity)
        if last_seen is not None:
            sql, params = sql + " AND last_seen = %s", (*params, utc(last_seen))
        return self._count(sql, params) == 1

    # --- conversations -----------------------------------------------------------------------

    def link_conversation(self, link: ConversationLink) -> bool:
        try:
            with self._cursor() as cur:
                cur.execute(
                    self._q(
                        "INSERT INTO {s}.channel_links (account, convid, channel, identity, "
                        "created) VALUES (%s,%s,%s,%s,%s) ON CONFLICT (account, convid) DO NOTHING"
                    ),
                    (link.account, link.convid, link.channel, link.identity, utc(link.created)),
                )
        except StoreError as exc:
            if _missing_conversation(exc):
                return False
            raise
        return True

    def get_link(self, account: str, convid: str) -> ConversationLink | None:
        rows = self._rows(
            "SELECT account, convid, channel, identity, created FROM {s}.channel_links "
            "WHERE account = %s AND convid = %s",
            (account, convid),
        )
        return _link(rows[0]) if rows else None

    def links(self, account: str | None = None) -> list[ConversationLink]:
        sql = "SELECT account, convid, channel, identity, created FROM {s}.channel_links"
        if account is None:
            return [_link(r) for r in self._rows(sql, ())]
        return [_link(r) for r in self._rows(sql + " WHERE account = %s", (account,))]

    def add_turn(self, account: str, convid: str, at: datetime, record: bytes) -> int:
        with self._cursor(transaction=True) as cur:
            # Locking the entry orders the turns of a conversation and keeps it from going
            # away before the turn is written.
            if (
                cur.execute(
                    self._q(
                        "SELECT 1 FROM {s}.entries WHERE account = %s AND convid = %s FOR UPDATE"
                    ),
                    (account, convid),
                ).fetchone()
                is None
            ):
                return 0
            (seq,) = cur.execute(
                self._q(
                    "INSERT INTO {s}.channel_turns (account, convid, seq, at, record) "
                    "SELECT %s, %s, coalesce(max(seq), 0) + 1, %s, %s FROM {s}.channel_turns "
                    "WHERE account = %s AND convid = %s RETURNING seq"
                ),
                (account, convid, utc(at), record, account, convid),
            ).fetchone()
        return seq

    def turns(self, account: str, convid: str) -> list[TurnRecord]:
        rows = self._rows(
            "SELECT seq, at, record FROM {s}.channel_turns WHERE account = %s AND convid = %s "
            "ORDER BY seq",
            (account, convid),
        )
        return [TurnRecord(account, convid, r[0], r[1], bytes(r[2])) for r in rows]

    def forget_conversation(self, account: str, convid: str) -> None:
        with self._cursor(transaction=True) as cur:
            cur.execute(
                self._q("DELETE FROM {s}.channel_links WHERE account = %s AND convid = %s"),
                (account, convid),
            )
            cur.execute(
                self._q("DELETE FROM {s}.channel_turns WHERE account = %s AND convid = %s"),
                (account, convid),
            )

    # --- key rotation ------------------------------------------------------------------------

    def reseal_identity(
        self, account: str, identity: str, field: SealedField, old: bytes, new: bytes
    ) -> bool:
        if field not in SEALED_FIELDS:
            raise ValueError(f"not an encrypted field: {field!r}")
        return (
            self._count(
                f"UPDATE {{s}}.channel_identities SET {field} = %s "
                f"WHERE account = %s AND identity = %s AND {field} = %s",
                (new, account, identity, old),
            )
            == 1
        )

    def reseal_turn(self, account: str, convid: str, seq: int, old: bytes, new: bytes) -> bool:
        return (
            self._count(
                "UPDATE {s}.channel_turns SET record = %s "
                "WHERE account = %s AND convid = %s AND seq = %s AND record = %s",
                (new, account, convid, seq, old),
            )
            == 1
        )
