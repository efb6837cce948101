"""The Redis backend: one key prefix holds the conversations (``store``, ``layout``,
``scripts``, ``index``), the channel records (``channels``) and the configuration versions
(``config``), through the same client."""

from mock_account.stores.redis.channels import RedisChannelRecords
from mock_account.stores.redis.config import RedisConfigStore
from mock_account.stores.redis.store import RedisStore
from mock_account.stores.registry import SideStores

SIDE_STORES: SideStores[RedisStore] = SideStores(
    channel_records=RedisChannelRecords, config_store=RedisConfigStore
)

__all__ = ["SIDE_STORES", "RedisStore"]
