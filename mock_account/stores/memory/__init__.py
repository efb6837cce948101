"""The memory backend, nothing durable (tests and demos): the conversations (``store``) and,
next to them in the same process, the channel records (``channels``) and the configuration
versions (``config``)."""

from mock_account.stores.memory import channels, config
from mock_account.stores.memory.store import MemoryStore
from mock_account.stores.registry import SideStores

SIDE_STORES: SideStores[MemoryStore] = SideStores(
    channel_records=channels.channel_records, config_store=config.config_store
)

__all__ = ["SIDE_STORES", "MemoryStore"]
