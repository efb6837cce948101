"""Fixtures of the request-understanding tests."""

from __future__ import annotations

import datetime as dt

import pytest
from understanding_data import NAMES, TODAY


@pytest.fixture
def today() -> dt.date:
    return TODAY


@pytest.fixture
def names() -> dict[str, list[str]]:
    # The same object every time, so the extractor's index cache is exercised as in a server.
    return NAMES
