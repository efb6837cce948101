"""The channel records' SQL, shared by SQLite and PostgreSQL (each backend's ``SqlSeam`` gives
the placeholder, the time conversions, the table names and its connections).

Left to each backend: linking a conversation and adding a turn, where the two differ in how a
record for a conversation that does not exist is refused (SQLite's triggers ignore it,
PostgreSQL's foreign keys reject it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from mock_account.stores import channel_records as contract
from mock_account.stores.errors import VersionConflict
from mock_account.stores.sql.seam import SqlSeam

_IDENTITY = (
    "account, identity, channel, sender, created, last_seen, convid, contact, contact_hash, "
    "memory, memory_version"
)
_LINK = "account, convid, channel, identity, created"


def _blob(value: Any) -> bytes | None:
    return None if value is None else bytes(value)


class SqlChannelRecords(SqlSeam, contract.ChannelRecords):
    """The SQL of SQLite and PostgreSQL; a backend's seam gives the dialect and connections."""

    TABLES: ClassVar[dict[str, str]] = {
        "identities": "channel_identities",
        "links": "channel_links",
        "turns": "channel_turns",
    }

    def _identity(self, row: tuple) -> contract.IdentityRecord:
        return contract.IdentityRecord(
            account=row[0],
            identity=row[1],
            channel=row[2],
            sender=bytes(row[3]),
            created=self._from_time(row[4]),
            last_seen=self._from_time(row[5]),
            convid=row[6],
            contact=_blob(row[7]),
            contact_hash=row[8],
            memory=_blob(row[9]),
            memory_version=row[10],
        )

    def _link(self, row: tuple) -> contract.ConversationLink:
        return contract.ConversationLink(row[0], row[1], row[2], row[3], self._from_time(row[4]))

    def _of_account(self, sql: str, account: str | None) -> list[tuple]:
        """The rows of ``sql`` of one account, or of all (``None``)."""
        if account is None:
            return self._rows(sql, ())
        return self._rows(sql + " WHERE account = ?", (account,))

    # --- identities --------------------------------------------------------------------------

    def claim_identity(self, record: contract.IdentityRecord) -> contract.IdentityRecord:
        r = record
        with self._tx() as tx:
            tx(
                self._sql(
                    f"INSERT INTO {{identities}} ({_IDENTITY}) VALUES (?,?,?,?,?,?,?,?,?,?,?) "
                    "ON CONFLICT (account, identity) DO NOTHING"
                ),
                (
                    r.account,
                    r.identity,
                    r.channel,
                    r.sender,
                    self._time(r.created),
                    self._time(r.last_seen),
                    r.convid,
                    r.contact,
                    r.contact_hash,
                    r.memory,
                    r.memory_version,
                ),
            )
            rows = tx(
                self._sql(
                    f"SELECT {_IDENTITY} FROM {{identities}} WHERE account = ? AND identity = ?"
                ),
                (r.account, r.identity),
            )
        return self._identity(rows[0])

    def get_identity(self, account: str, identity: str) -> contract.IdentityRecord | None:
        rows = self._rows(
            f"SELECT {_IDENTITY} FROM {{identities}} WHERE account = ? AND identity = ?",
            (account, identity),
        )
        return self._identity(rows[0]) if rows else None

    def list_identities(self, account: str | None = None) -> list[contract.IdentityRecord]:
        rows = self._of_account(f"SELECT {_IDENTITY} FROM {{identities}}", account)
        return [self._identity(r) for r in rows]

    def move_identity(
        self, account: str, identity: str, *, expected_convid: str, convid: str, now: datetime
    ) -> bool:
        return self._changed(
            "UPDATE {identities} SET convid = ?, last_seen = {greatest}(last_seen, ?) "
            "WHERE account = ? AND identity = ? AND convid = ?",
            (convid, self._time(now), account, identity, expected_convid),
        )

    def touch_identity(self, account: str, identity: str, now: datetime) -> bool:
        return self._changed(
            "UPDATE {identities} SET last_seen = {greatest}(last_seen, ?) "
            "WHERE account = ? AND identity = ?",
            (self._time(now), account, identity),
        )

    def set_contact(
        self, account: str, identity: str, *, contact: bytes | None, contact_hash: str
    ) -> bool:
        return self._changed(
            "UPDATE {identities} SET contact = ?, contact_hash = ? "
            "WHERE account = ? AND identity = ?",
            (contact, contact_hash, account, identity),
        )

    def save_memory(
        self, account: str, identity: str, *, expected_version: int, memory: bytes
    ) -> int:
        if not self._changed(
            "UPDATE {identities} SET memory = ?, memory_version = memory_version + 1 "
            "WHERE account = ? AND identity = ? AND memory_version = ?",
            (memory, account, identity, expected_version),
        ):
            raise VersionConflict(
                f"the memory of identity {identity} is no longer at version {expected_version}"
            )
        return expected_version + 1

    def delete_identity(
        self, account: str, identity: str, *, last_seen: datetime | None = None
    ) -> bool:
        sql = "DELETE FROM {identities} WHERE account = ? AND identity = ?"
        if last_seen is None:
            return self._changed(sql, (account, identity))
        return self._changed(sql + " AND last_seen = ?", (account, identity, self._time(last_seen)))

    # --- conversations -----------------------------------------------------------------------

    def get_link(self, account: str, convid: str) -> contract.ConversationLink | None:
        rows = self._rows(
            f"SELECT {_LINK} FROM {{links}} WHERE account = ? AND convid = ?", (account, convid)
        )
        return self._link(rows[0]) if rows else None

    def links(self, account: str | None = None) -> list[contract.ConversationLink]:
        return [self._link(r) for r in self._of_account(f"SELECT {_LINK} FROM {{links}}", account)]

    def turns(self, account: str, convid: str) -> list[contract.TurnRecord]:
        rows = self._rows(
            "SELECT seq, at, record FROM {turns} WHERE account = ? AND convid = ? ORDER BY seq",
            (account, convid),
        )
        return [
            contract.TurnRecord(account, convid, r[0], self._from_time(r[1]), bytes(r[2]))
            for r in rows
        ]

    def forget_conversation(self, account: str, convid: str) -> None:
        with self._tx() as tx:
            for table in ("links", "turns"):
                tx(
                    self._sql(f"DELETE FROM {{{table}}} WHERE account = ? AND convid = ?"),
                    (account, convid),
                )

    # --- key rotation ------------------------------------------------------------------------

    def reseal_identity(
        self, account: str, identity: str, field: contract.SealedField, old: bytes, new: bytes
    ) -> bool:
        if field not in contract.SEALED_FIELDS:
            raise ValueError(f"not an encrypted field: {field!r}")
        return self._changed(
            f"UPDATE {{identities}} SET {field} = ? "
            f"WHERE account = ? AND identity = ? AND {field} = ?",
            (new, account, identity, old),
        )

    def reseal_turn(self, account: str, convid: str, seq: int, old: bytes, new: bytes) -> bool:
        return self._changed(
            "UPDATE {turns} SET record = ? "
            "WHERE account = ? AND convid = ? AND seq = ? AND record = ?",
            (new, account, convid, seq, old),
        )
