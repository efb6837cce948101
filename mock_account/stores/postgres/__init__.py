"""The PostgreSQL backend: one schema holds the conversations (``store``, ``schema``), the
channel records (``channels``) and the configuration versions (``config``), through the same
connection pool."""

from mock_account.stores.postgres.channels import PostgresChannelRecords
from mock_account.stores.postgres.config import PostgresConfigStore
from mock_account.stores.postgres.store import PostgresStore
from mock_account.stores.registry import SideStores

SIDE_STORES: SideStores[PostgresStore] = SideStores(
    channel_records=PostgresChannelRecords, config_store=PostgresConfigStore
)

__all__ = ["SIDE_STORES", "PostgresStore"]
