"""The memory backend: conversations (``store``) and, next to them in the same process, the
channel records (``channels``). Nothing is durable: tests and demos."""

from mock_account.stores.memory import channels
from mock_account.stores.memory.store import MemoryStore
from mock_account.stores.registry import SideStores

SIDE_STORES: SideStores[MemoryStore] = SideStores(channel_records=channels.channel_records)

__all__ = ["SIDE_STORES", "MemoryStore"]
