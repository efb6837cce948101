"""The sqlite backend of the conversation store (``SqliteStore``)."""

from mock_account.stores.sqlite.store import SqliteStore

__all__ = ["SqliteStore"]
