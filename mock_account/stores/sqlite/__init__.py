"""The SQLite backend: one file holds the conversations (``store``, ``schema``) and the channel
records (``channels``), on the same connections and write lock."""

from mock_account.stores.registry import SideStores
from mock_account.stores.sqlite.channels import SqliteChannelRecords
from mock_account.stores.sqlite.store import SqliteStore

SIDE_STORES: SideStores[SqliteStore] = SideStores(channel_records=SqliteChannelRecords)

__all__ = ["SIDE_STORES", "SqliteStore"]
