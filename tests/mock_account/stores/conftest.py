"""Fixtures of the store tests: one store per backend, isolated per test, cleaned up after."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_stores import BACKENDS, fresh_url, open_or_skip

from mock_account.stores import ConversationStore, open_store


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh store, for each backend in turn."""
    url, cleanup = fresh_url(request.param, tmp_path)
    opened = False
    try:
        open_or_skip(url, request.param).close()
        opened = True
        yield url
    finally:
        if opened:
            cleanup()


@pytest.fixture
def store(store_url: str) -> Iterator[ConversationStore]:
    """A fresh store of each backend, closed after the test."""
    opened = open_store(store_url)
    try:
        yield opened
    finally:
        opened.close()
