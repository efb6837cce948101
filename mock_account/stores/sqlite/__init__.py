"""The SQLite backend: one file holds the conversations (``store``, ``schema``), the channel
records (``channels``) and the configuration versions (``config``), on the same connections and
write lock."""

from mock_account.stores.registry import SideStores
from mock_account.stores.sqlite.channels import SqliteChannelRecords
from mock_account.stores.sqlite.config import SqliteConfigStore
from mock_account.stores.sqlite.store import SqliteStore

SIDE_STORES: SideStores[SqliteStore] = SideStores(
    channel_records=SqliteChannelRecords, config_store=SqliteConfigStore
)

__all__ = ["SIDE_STORES", "SqliteStore"]
