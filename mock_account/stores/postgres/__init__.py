"""The PostgreSQL backend: one schema, the same connection pool for every table.

- ``store``: the conversations and idempotency records (``PostgresStore``); ``schema``: their
  tables and the migration runner that applies every table's migrations in order;
- ``channels``, ``workflows``, ``config``: the channel records, workflow records and
  configuration versions, each with its tables' migration beside its queries.
"""

from mock_account.stores.postgres.channels import PostgresChannelRecords
from mock_account.stores.postgres.config import PostgresConfigStore
from mock_account.stores.postgres.store import PostgresStore
from mock_account.stores.postgres.workflows import PostgresWorkflowStore
from mock_account.stores.registry import SideStores

SIDE_STORES: SideStores[PostgresStore] = SideStores(
    channel_records=PostgresChannelRecords,
    workflow_store=PostgresWorkflowStore,
    config_store=PostgresConfigStore,
)

__all__ = ["SIDE_STORES", "PostgresStore"]
