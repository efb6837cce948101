"""PostgreSQL schema of the conversation store and its migrations.

Everything lives in one PostgreSQL schema (``conversation_store`` unless the URL says otherwise),
so several stores can share a database. The store creates and migrates it itself on open, under a
transaction-level advisory lock so that servers starting together do not race each other.
"""

from __future__ import annotations

import re

import psycopg
from psycopg import sql

from mock_account.stores.errors import StoreConfigError, StoreError
from mock_account.stores.postgres.channels import CHANNEL_MIGRATION
from mock_account.stores.postgres.config import CONFIG_MIGRATION
from mock_account.stores.postgres.workflows import WORKFLOW_MIGRATION

SCHEMA_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")

MIGRATIONS: list[tuple[int, tuple[str, ...]]] = [
    (
        1,
        (
            # Byte-order collation: listing tie-breaks on convid must not depend on the locale.
            """CREATE TABLE {s}.entries (
                account text COLLATE "C" NOT NULL,
                convid text COLLATE "C" NOT NULL,
                owner text NOT NULL,
                title bytea NOT NULL,
                created timestamptz NOT NULL,
                last_executed timestamptz NOT NULL,
                last_read timestamptz NOT NULL,
                last_used timestamptz NOT NULL,
                pinned boolean NOT NULL,
                state_version bigint NOT NULL CHECK (state_version >= 0),
                PRIMARY KEY (account, convid)
            )""",
            # Serves list_recent / list_pinned / count_pinned of one user without a sort.
            """CREATE INDEX entries_by_user
                ON {s}.entries (account, owner, pinned, last_used DESC, convid DESC)""",
            """CREATE TABLE {s}.states (
                account text COLLATE "C" NOT NULL,
                convid text COLLATE "C" NOT NULL,
                blob bytea NOT NULL,
                PRIMARY KEY (account, convid),
                FOREIGN KEY (account, convid) REFERENCES {s}.entries ON DELETE CASCADE
            )""",
            # Blobs are encrypted, hence incompressible: store them out of line uncompressed.
            "ALTER TABLE {s}.states ALTER COLUMN blob SET STORAGE EXTERNAL",
            """CREATE TABLE {s}.idempotency (
                key text PRIMARY KEY,
                request_hash text NOT NULL,
                response bytea NOT NULL,
                created timestamptz NOT NULL
            )""",
        ),
    ),
    # The agent of the latest saved run, so routing a follow-up needs no decryption.
    (2, ("ALTER TABLE {s}.entries ADD COLUMN last_agent text NOT NULL DEFAULT ''",)),
    # Idempotency records sealed by the server, with the conversation they answered (deleted with
    # it) and an expiry. The old table held answers in plaintext: it is dropped, not converted; a
    # retry of a request answered before the upgrade runs again.
    (
        3,
        (
            "DROP TABLE {s}.idempotency",
            """CREATE TABLE {s}.idempotency (
                key text PRIMARY KEY,
                account text COLLATE "C" NOT NULL,
                convid text COLLATE "C" NOT NULL,
                record bytea NOT NULL,
                expires timestamptz NOT NULL
            )""",
            "CREATE INDEX idempotency_by_conversation ON {s}.idempotency (account, convid)",
            "CREATE INDEX idempotency_by_expiry ON {s}.idempotency (expires)",
        ),
    ),
    WORKFLOW_MIGRATION,  # workflow progress, approved actions and their outbox (workflows.py)
    CHANNEL_MIGRATION,  # channel identities, links and turns (channels.py)
    CONFIG_MIGRATION,  # agent configuration versions and heads (config.py)
    # The listing index led by the owner: a save names the conversation by its primary key and
    # the owner in a form no index serves, so its plan is the primary key whatever the
    # statistics say (with the account first, a table analysed while small sent the UPDATE
    # down the owner's whole range: 25 ms a save at 10^5 conversations).
    (
        7,
        (
            "DROP INDEX {s}.entries_by_user",
            """CREATE INDEX entries_by_user
                ON {s}.entries (owner, account, pinned, last_used DESC, convid DESC)""",
        ),
    ),
]

LATEST = MIGRATIONS[-1][0]


def check_schema_name(schema: str) -> str:
    """``schema`` if it is a plain identifier, else ``StoreConfigError``."""
    if not SCHEMA_NAME_RE.fullmatch(schema):
        raise StoreConfigError(
            f"PostgreSQL schema name {schema!r} is invalid: use letters, digits and underscores "
            "(at most 63, not starting with a digit)"
        )
    return schema


def qualify(text: str, schema: str, conn: psycopg.Connection | None) -> str:
    """``text`` with ``{s}`` replaced by the quoted schema name."""
    return sql.SQL(text).format(s=sql.Identifier(schema)).as_string(conn)


def migrate(conn: psycopg.Connection, schema: str, where: str) -> None:
    """Create the schema and bring it to ``LATEST`` (``conn`` is in autocommit mode)."""
    with conn.transaction():
        conn.execute(
            "SELECT pg_advisory_xact_lock(hashtext(%s))", (f"conversation-store:{schema}",)
        )
        conn.execute(qualify("CREATE SCHEMA IF NOT EXISTS {s}", schema, conn))
        conn.execute(
            qualify(
                "CREATE TABLE IF NOT EXISTS {s}.schema_version (version integer NOT NULL)",
                schema,
                conn,
            )
        )
        row = conn.execute(qualify("SELECT max(version) FROM {s}.schema_version", schema, conn))
        current = row.fetchone()[0] or 0
        if current > LATEST:
            raise StoreError(
                f"{where} schema {schema!r} has version {current}, newer than this program "
                f"understands ({LATEST}); upgrade the program"
            )
        for version, statements in MIGRATIONS:
            if version > current:
                for statement in statements:
                    conn.execute(qualify(statement, schema, conn))
        if current < LATEST:
            conn.execute(qualify("DELETE FROM {s}.schema_version", schema, conn))
            conn.execute(
                qualify("INSERT INTO {s}.schema_version (version) VALUES (%s)", schema, conn),
                (LATEST,),
            )
