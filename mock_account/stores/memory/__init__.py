"""The memory backend, nothing durable (tests and demos).

- ``store``: the conversations and idempotency records (``MemoryStore``), behind one lock;
- ``channels``, ``workflows``, ``config``: the channel records, workflow records and
  configuration versions, one set per store (``MemoryStore.side_table``).
"""

from mock_account.stores.memory import channels, config, workflows
from mock_account.stores.memory.store import MemoryStore
from mock_account.stores.registry import SideStores

SIDE_STORES: SideStores[MemoryStore] = SideStores(
    channel_records=channels.channel_records,
    workflow_store=workflows.workflow_store,
    config_store=config.config_store,
)

__all__ = ["SIDE_STORES", "MemoryStore"]
