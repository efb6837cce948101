"""Save / restore stage by stage, and the raw baselines, on real stores."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from server_stores import unreachable

from loadtests.baselines import open_raw_table, raw_aesgcm
from loadtests.pipeline import RESTORE_STAGES, SAVE_STAGES, StatePipeline, new_convid
from loadtests.states import build_state
from mock_account.errors import UnknownConversation
from mock_account.stores import StoreUnavailable, VersionConflict, open_store

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _url(backend: str, tmp_path: Path) -> str:
    return {
        "memory": "memory://",
        "sqlite": f"sqlite:///{tmp_path / 'store.db'}",
        "postgres": f"{POSTGRES_URL}?schema=loadtests_{os.getpid()}&connect_timeout=3",
        "redis": f"{REDIS_URL}?prefix=loadtests-test-{os.getpid()}",
    }[backend]


def _cleanup(backend: str) -> None:
    """Drop what the store test created on a shared server."""
    if backend == "postgres":
        import psycopg

        with psycopg.connect(f"{POSTGRES_URL}?connect_timeout=3", autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS loadtests_{os.getpid()} CASCADE")
    elif backend == "redis":
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=f"loadtests-test-{os.getpid()}:*"))
        if keys:
            client.delete(*keys)
        client.close()


def _open(url: str, backend: str):  # noqa: ANN202
    try:
        return open_store(url)
    except StoreUnavailable as exc:
        unreachable(backend, exc)
        raise


@pytest.mark.parametrize("backend", ["memory", "sqlite", "postgres", "redis"])
def test_save_and_restore_round_trip_with_timed_stages(backend: str, tmp_path: Path) -> None:
    url = _url(backend, tmp_path)
    store = _open(url, backend)
    try:
        pipeline = StatePipeline(store)
        state, convid = build_state(4096), new_convid()
        saved = pipeline.save(convid, state, 0)
        assert set(saved.stages) == set(SAVE_STAGES) and saved.plain_bytes == 4096
        assert saved.stored_bytes > 4096  # header, nonce and tag
        pipeline.save(convid, state, 1)
        with pytest.raises(VersionConflict):
            pipeline.save(convid, state, 1)
        restored, times = pipeline.restore(convid)
        assert restored == state and set(times.stages) == set(RESTORE_STAGES)
        assert pipeline.version(convid) == 2
        raw = open_raw_table(url, store)
        try:
            aes = raw_aesgcm()
            raw.upsert("k", aes.encrypt(b"plain"))
            raw.upsert("k", aes.encrypt(b"other"))
            assert aes.decrypt(raw.read("k")) == b"other"
        finally:
            raw.close()
        pipeline.delete(convid)
        with pytest.raises(UnknownConversation):
            pipeline.restore(convid)
    finally:
        store.close()
        _cleanup(backend)


def test_sqlite_baseline_lives_next_to_the_store_and_is_removed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}?synchronous=FULL"
    with open_store(url) as store:
        raw = open_raw_table(url, store)
        assert raw.path.parent == tmp_path and "synchronous=FULL" in raw.description
        raw.upsert("k", b"x")
        raw.close()
    assert not (tmp_path / "raw_baseline.db").exists()
