"""Fixtures of the configuration history tests: a fresh store of every backend.

PostgreSQL and Redis are the real servers; an unreachable one skips its tests, except with
CI=true, where that is a failure (see ``server_stores``).
"""

from __future__ import annotations

import pytest
from server_stores import PLAIN_BACKENDS, store_fixture

from mock_account.config_history import ConfigVersionStore, open_config_store
from mock_account.stores import ConversationStore

# A fresh conversation store of each backend in turn, closed and removed after.
conversation_store = store_fixture(PLAIN_BACKENDS, "confighist", "conversation_store")


@pytest.fixture
def config_store(conversation_store: ConversationStore) -> ConfigVersionStore:
    return open_config_store(conversation_store)
