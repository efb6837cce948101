"""The server freezes what its warm-up built, so the collector's full passes skip it."""

from __future__ import annotations

import gc

from fastapi import FastAPI
from fastapi.testclient import TestClient


def test_startup_freezes_the_warm_heap_and_shutdown_thaws_it(app: FastAPI) -> None:
    assert gc.get_freeze_count() == 0
    with TestClient(app) as client:
        assert client.get("/health").status_code == 200
        # The agents, the search index and the rest of the warm-up: a large permanent heap.
        assert gc.get_freeze_count() > 10_000
    assert gc.get_freeze_count() == 0
