"""The SQLite backend: one file, the same connections and write lock for every table.

- ``store``: the conversations and idempotency records (``SqliteStore``); ``schema``: their
  tables and the migration runner that applies every table's migrations in order;
  ``connections``, ``checkpoints``: per-thread connections, the write lock, WAL checkpoints;
- ``channels``, ``workflows``, ``config``: the channel records, workflow records and
  configuration versions, each with its tables' migration beside its queries.
"""

from mock_account.stores.registry import SideStores
from mock_account.stores.sqlite.channels import SqliteChannelRecords
from mock_account.stores.sqlite.config import SqliteConfigStore
from mock_account.stores.sqlite.store import SqliteStore
from mock_account.stores.sqlite.workflows import SqliteWorkflowStore

SIDE_STORES: SideStores[SqliteStore] = SideStores(
    channel_records=SqliteChannelRecords,
    workflow_store=SqliteWorkflowStore,
    config_store=SqliteConfigStore,
)

__all__ = ["SIDE_STORES", "SqliteStore"]
