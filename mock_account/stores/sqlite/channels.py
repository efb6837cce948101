"""Channel records in the SQLite file of a ``SqliteStore``: their tables (schema migration 5)
and their queries.

Same connections and write lock as the conversations: a write of one statement runs alone
(``write_alone``), a write of several in one ``BEGIN IMMEDIATE`` transaction. Triggers delete a
conversation's link and turns with its entry and ignore a link or turn written for a
conversation that does not exist.
"""

from __future__ import annotations

from datetime import datetime

from mock_account.stores.channel_records import ConversationLink
from mock_account.stores.codec import to_micros
from mock_account.stores.sql.channels import SqlChannelRecords
from mock_account.stores.sqlite.seam import SqliteSeam

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


class SqliteChannelRecords(SqliteSeam, SqlChannelRecords):
    """The tables of migration 5 in the conversation store's SQLite file, on its connections."""

    def link_conversation(self, link: ConversationLink) -> bool:
        # The trigger ignores a link to a missing conversation: whether one is there tells.
        with self._tx() as tx:
            tx(
                "INSERT INTO channel_links (account, convid, channel, identity, created) "
                "VALUES (?,?,?,?,?) ON CONFLICT (account, convid) DO NOTHING",
                (link.account, link.convid, link.channel, link.identity, to_micros(link.created)),
            )
            rows = tx(
                "SELECT 1 FROM channel_links WHERE account = ? AND convid = ?",
                (link.account, link.convid),
            )
        return bool(rows)

    def add_turn(self, account: str, convid: str, at: datetime, record: bytes) -> int:
        with self._tx() as tx:
            (seq,) = tx(
                "SELECT coalesce(max(seq), 0) + 1 FROM channel_turns "
                "WHERE account = ? AND convid = ?",
                (account, convid),
            )[0]
            written = tx(
                "INSERT INTO channel_turns (account, convid, seq, at, record) "
                "VALUES (?,?,?,?,?) RETURNING seq",
                (account, convid, seq, to_micros(at), record),
            )
        return seq if written else 0
