"""SQLite schema of the conversation store and its migrations.

``schema_version`` holds one row with the version applied. Each migration runs inside the caller's
``BEGIN IMMEDIATE`` transaction, so two processes opening a new file at once cannot both apply it.
Times are integer microseconds since the epoch (UTC); ``last_used`` is kept equal to
``max(last_executed, last_read)`` so the listing index can serve the recent list directly.
"""

from __future__ import annotations

import sqlite3

from mock_account.stores.errors import StoreError
from mock_account.stores.sqlite.channels import CHANNEL_MIGRATION
from mock_account.stores.sqlite.config import CONFIG_MIGRATION
from mock_account.stores.sqlite.workflows import WORKFLOW_MIGRATION

MIGRATIONS: list[tuple[int, tuple[str, ...]]] = [
    (
        1,
        (
            """CREATE TABLE entries (
                account TEXT NOT NULL,
                convid TEXT NOT NULL,
                owner TEXT NOT NULL,
                title BLOB NOT NULL,
                created INTEGER NOT NULL,
                last_executed INTEGER NOT NULL,
                last_read INTEGER NOT NULL,
                last_used INTEGER NOT NULL,
                pinned INTEGER NOT NULL CHECK (pinned IN (0, 1)),
                state_version INTEGER NOT NULL CHECK (state_version >= 0),
                PRIMARY KEY (account, convid)
            )""",
            # Serves list_recent / list_pinned / count_pinned of one user without a sort.
            """CREATE INDEX entries_by_user
                ON entries (account, owner, pinned, last_used DESC, convid DESC)""",
            # States apart from entries: listing scans stay small however big the blobs are.
            """CREATE TABLE states (
                account TEXT NOT NULL,
                convid TEXT NOT NULL,
                blob BLOB NOT NULL,
                PRIMARY KEY (account, convid)
            )""",
            """CREATE TABLE idempotency (
                key TEXT PRIMARY KEY,
                request_hash TEXT NOT NULL,
                response BLOB NOT NULL,
                created INTEGER NOT NULL
            )""",
        ),
    ),
    # The agent of the latest saved run, so routing a follow-up needs no decryption.
    (2, ("ALTER TABLE entries ADD COLUMN last_agent TEXT NOT NULL DEFAULT ''",)),
    # Idempotency records sealed by the server, with the conversation they answered (deleted with
    # it) and an expiry. The old table held answers in plaintext: it is dropped, not converted
    # (with secure_delete on, its pages are zeroed); a retry of a request answered before the
    # upgrade runs again.
    (
        3,
        (
            "DROP TABLE idempotency",
            """CREATE TABLE idempotency (
                key TEXT PRIMARY KEY,
                account TEXT NOT NULL,
                convid TEXT NOT NULL,
                record BLOB NOT NULL,
                expires INTEGER NOT NULL
            )""",
            "CREATE INDEX idempotency_by_conversation ON idempotency (account, convid)",
            "CREATE INDEX idempotency_by_expiry ON idempotency (expires)",
        ),
    ),
    WORKFLOW_MIGRATION,  # workflow progress, approved actions and their outbox (workflows.py)
    CHANNEL_MIGRATION,  # channel identities, links and turns (channels.py)
    CONFIG_MIGRATION,  # agent configuration versions and heads (config.py)
    # The state moves into its entry's row, so a save is one UPDATE whose WHERE clause is the
    # compare-and-swap, run as a transaction of its own (``SqliteConnections.write_alone``).
    # Listing scans stay small: the blob is the last column, and SQLite reads the columns before
    # it without its overflow pages. With secure_delete on, the dropped table's pages are zeroed.
    (
        7,
        (
            "ALTER TABLE entries ADD COLUMN blob BLOB",
            """UPDATE entries SET blob = (SELECT s.blob FROM states s
                WHERE s.account = entries.account AND s.convid = entries.convid)""",
            "DROP TABLE states",
        ),
    ),
]

LATEST = MIGRATIONS[-1][0]

# Queries listing (account, convid) of rows that break an invariant, with what is wrong.
CONSISTENCY_CHECKS: list[tuple[str, str]] = [
    (
        "SELECT account, convid FROM entries WHERE last_used != max(last_executed, last_read)",
        "stale last_used",
    ),
]


def migrate(conn: sqlite3.Connection, where: str) -> None:
    """Bring the schema to ``LATEST``; the caller holds a write transaction."""
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    current = row[0] or 0
    if current > LATEST:
        raise StoreError(
            f"SQLite store {where} has schema version {current}, newer than this program "
            f"understands ({LATEST}); upgrade the program"
        )
    for version, statements in MIGRATIONS:
        if version > current:
            for statement in statements:
                conn.execute(statement)
    if current < LATEST:
        conn.execute("DELETE FROM schema_version")
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (LATEST,))
