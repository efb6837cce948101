"""The postgres backend of the conversation store (``PostgresStore``)."""

from mock_account.stores.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
