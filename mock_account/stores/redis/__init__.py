"""The Redis backend: one key prefix, the same client for every record.

- ``store``: the conversations and idempotency records (``RedisStore``), with their key
  ``layout``, Lua ``scripts`` and per-user ``index``;
- ``channels``, ``workflows``, ``config``: the channel records, workflow records and
  configuration versions, each with its key layout and scripts.
"""

from mock_account.stores.redis.channels import RedisChannelRecords
from mock_account.stores.redis.config import RedisConfigStore
from mock_account.stores.redis.store import RedisStore
from mock_account.stores.redis.workflows import RedisWorkflowStore
from mock_account.stores.registry import SideStores

SIDE_STORES: SideStores[RedisStore] = SideStores(
    channel_records=RedisChannelRecords,
    workflow_store=RedisWorkflowStore,
    config_store=RedisConfigStore,
)

__all__ = ["SIDE_STORES", "RedisStore"]
