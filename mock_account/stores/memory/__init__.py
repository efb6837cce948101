"""The memory backend of the conversation store (``MemoryStore``)."""

from mock_account.stores.memory.store import MemoryStore

__all__ = ["MemoryStore"]
