"""Channel records in the PostgreSQL schema of a ``PostgresStore``: their tables (schema
migration 5) and their queries.

Same connection pool as the conversations. Links and turns reference the conversation's entry
(``ON DELETE CASCADE``): deleting a conversation deletes them in the same transaction, and one
written for a conversation that does not exist is refused by the database itself.
"""

from __future__ import annotations

from datetime import datetime

import psycopg

from mock_account.stores.channel_records import ConversationLink
from mock_account.stores.codec import utc
from mock_account.stores.errors import StoreError
from mock_account.stores.postgres.seam import PostgresSeam
from mock_account.stores.sql.channels import SqlChannelRecords

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


def _missing_conversation(exc: StoreError) -> bool:
    return isinstance(exc.__cause__, psycopg.errors.ForeignKeyViolation)


class PostgresChannelRecords(PostgresSeam, SqlChannelRecords):
    """The tables of migration 5 in the conversation store's PostgreSQL schema, on its pool."""

    def link_conversation(self, link: ConversationLink) -> bool:
        try:
            self._count(
                self._sql(
                    "INSERT INTO {links} (account, convid, channel, identity, created) "
                    "VALUES (?,?,?,?,?) ON CONFLICT (account, convid) DO NOTHING"
                ),
                (link.account, link.convid, link.channel, link.identity, utc(link.created)),
            )
        except StoreError as exc:
            if _missing_conversation(exc):
                return False
            raise
        return True

    def add_turn(self, account: str, convid: str, at: datetime, record: bytes) -> int:
        with self._tx() as tx:
            # Locking the entry orders the turns of a conversation and keeps it from going
            # away before the turn is written.
            if not tx(
                self._store.qualify(
                    "SELECT 1 FROM {s}.entries WHERE account = %s AND convid = %s FOR UPDATE"
                ),
                (account, convid),
            ):
                return 0
            ((seq,),) = tx(
                self._sql(
                    "INSERT INTO {turns} (account, convid, seq, at, record) "
                    "SELECT ?, ?, coalesce(max(seq), 0) + 1, ?, ? FROM {turns} "
                    "WHERE account = ? AND convid = ? RETURNING seq"
                ),
                (account, convid, utc(at), record, account, convid),
            )
        return seq
