"""The Redis backend: one key prefix holds the conversations (``store``, ``layout``, ``scripts``,
``index``) and the channel records (``channels``), through the same client."""

from mock_account.stores.redis.channels import RedisChannelRecords
from mock_account.stores.redis.store import RedisStore
from mock_account.stores.registry import SideStores

SIDE_STORES: SideStores[RedisStore] = SideStores(channel_records=RedisChannelRecords)

__all__ = ["SIDE_STORES", "RedisStore"]
