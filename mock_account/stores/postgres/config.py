"""Configuration versions in the PostgreSQL schema of a ``PostgresStore``: their tables (schema
migration 6); the queries are SQL shared with SQLite (``mock_account.stores.sql.config``).

A commit is one transaction on a connection of the conversation store's pool: the agent's
revision row is locked (``FOR UPDATE``), checked, raised, and the versions written and pruned
before ``COMMIT``.
"""

from __future__ import annotations

from mock_account.stores.postgres.seam import PostgresSeam
from mock_account.stores.sql.config import SqlConfigStore

# Agent configuration history (mock_account.config_history): encrypted versions per
# section, and the revision of each agent and of the scope ("*").
# The statements' text is kept byte for byte as first applied (indentation included).
CONFIG_MIGRATION: tuple[int, tuple[str, ...]] = (
    6,
    (
        """CREATE TABLE {s}.config_versions (
                scope text COLLATE "C" NOT NULL,
                agent text COLLATE "C" NOT NULL,
                section text COLLATE "C" NOT NULL,
                revision bigint NOT NULL CHECK (revision >= 0),
                created timestamptz NOT NULL,
                origin text NOT NULL,
                blob bytea NOT NULL,
                PRIMARY KEY (scope, agent, section, revision)
            )""",
        """CREATE TABLE {s}.config_heads (
                scope text COLLATE "C" NOT NULL,
                agent text COLLATE "C" NOT NULL,
                revision bigint NOT NULL CHECK (revision >= 0),
                PRIMARY KEY (scope, agent)
            )""",
    ),
)


class PostgresConfigStore(PostgresSeam, SqlConfigStore):
    """Versions in the conversation store's PostgreSQL schema, through its pool."""
