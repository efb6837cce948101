"""The redis backend of the conversation store (``RedisStore``)."""

from mock_account.stores.redis.store import RedisStore

__all__ = ["RedisStore"]
