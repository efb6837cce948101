"""Fixtures of the configuration history tests: a fresh store of every backend.

PostgreSQL and Redis are the real servers; an unreachable one skips its tests, except with
CI=true, where that is a failure (see ``server_stores``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_stores import opened_store

from mock_account.config_history import ConfigVersionStore, open_config_store
from mock_account.stores import ConversationStore

BACKENDS = ["memory", "sqlite", "postgres", "redis"]


@pytest.fixture(params=BACKENDS)
def conversation_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[ConversationStore]:
    """A fresh conversation store of each backend in turn, closed and removed after."""
    with opened_store(request.param, tmp_path, "confighist") as store:
        yield store


@pytest.fixture
def config_store(conversation_store: ConversationStore) -> ConfigVersionStore:
    return open_config_store(conversation_store)
