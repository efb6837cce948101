"""Redis specifics: key layout and slots, reconnection, index repair after a dead writer."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis
from redis.crc import key_slot
from server_stores import REDIS_URL, fresh_url, open_or_skip, with_option

from mock_account.stores import ConversationStore, IdempotencyRecord, open_store

NOW = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    url, cleanup = fresh_url("redis", tmp_path)
    open_or_skip(url, "redis").close()
    try:
        yield url
    finally:
        cleanup()


@pytest.fixture
def raw() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        yield client
    finally:
        client.close()


def _prefix(url: str) -> str:
    return url.split("prefix=")[1]


def _create(store: ConversationStore, convid: str, when: int = 0) -> None:
    store.commit_run(
        account="acme",
        convid=convid,
        owner="ada@example.com",
        expected_version=0,
        blob=b"s",
        now=NOW.replace(second=when),
        title_if_new=b"t",
    )


def test_keys_stay_under_the_prefix_and_share_slots(redis_url: str, raw: redis.Redis) -> None:
    prefix = _prefix(redis_url)
    with open_store(redis_url) as store:
        _create(store, "c1")
        store.remember("req/1", IdempotencyRecord("acme", "c1", b"r", NOW + timedelta(1)), NOW)
    keys = sorted(k.decode() for k in raw.scan_iter(match=f"{prefix}:*"))
    conv = [k for k in keys if ":conv:" in k]
    user = [k for k in keys if ":user:" in k]
    assert len(conv) == 3 and len(user) == 2 and len(keys) == 6  # entry, state, idempotency set
    assert len({key_slot(k.encode()) for k in conv}) == 1
    assert len({key_slot(k.encode()) for k in user}) == 1
    assert any(k.endswith("{req%2F1}") for k in keys)


def test_store_recovers_after_its_connection_is_killed(redis_url: str, raw: redis.Redis) -> None:
    name = f"store-test-{uuid.uuid4().hex[:10]}"
    with open_store(with_option(redis_url, f"client_name={name}")) as store:
        _create(store, "c1")
        killed = 0
        for client in raw.client_list():
            if client.get("name") == name:
                killed += raw.client_kill_filter(_id=client["id"])
        assert killed >= 1
        assert store.get_entry("acme", "c1").state_version == 1
        _create(store, "c2")
        assert {e.convid for e in store.iter_entries()} == {"c1", "c2"}


def test_listing_repairs_the_index_a_dead_writer_left(redis_url: str, raw: redis.Redis) -> None:
    prefix = _prefix(redis_url)
    with open_store(redis_url) as store:
        for i, convid in enumerate(["gone", "moved", "fine"]):
            _create(store, convid, when=i)
        # A writer that died after changing the entry, before updating the index:
        raw.delete(f"{prefix}:conv:{{acme/gone}}:entry", f"{prefix}:conv:{{acme/gone}}:state")
        raw.hset(f"{prefix}:conv:{{acme/moved}}:entry", mapping={"pinned": "1", "rev": "5" * 16})
        index = f"{prefix}:user:{{acme/ada%40example.com}}:recent"
        assert store.check_integrity() == [
            "conversation 'moved' of account 'acme': missing from the pinned list",
            "conversation 'moved' of account 'acme': listed among the recent conversations",
            f"index {index} lists 'gone' without entry",
        ]

        page, _ = store.list_recent("acme", "ada@example.com", limit=10, cursor=None)

        assert [e.convid for e in page] == ["fine"]
        assert [e.convid for e in store.list_pinned("acme", "ada@example.com")] == ["moved"]
        assert store.count_pinned("acme", "ada@example.com") == 1
        assert store.check_integrity() == []


def _failing_index_sync(store: ConversationStore, monkeypatch: pytest.MonkeyPatch) -> None:
    def lost(*args: object, **kwargs: object) -> None:
        raise redis.ConnectionError("connection lost after the change")

    monkeypatch.setattr(store._index, "sync", lost)  # noqa: SLF001 - the writer's second step


def test_a_save_and_its_listing_are_one_step(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(redis_url) as store:
        _failing_index_sync(store, monkeypatch)
        _create(store, "a", when=1)
        _create(store, "b", when=2)
        store.commit_run(
            account="acme",
            convid="a",
            owner="ada@example.com",
            expected_version=1,
            blob=b"s2",
            now=NOW.replace(second=3),
            title_if_new=b"",
        )
        # Right before any listing could repair it: the saves' own scripts indexed them.
        assert store.check_integrity() == []
        listed, _ = store.list_recent("acme", "ada@example.com", limit=10, cursor=None)
        assert [e.convid for e in listed] == ["a", "b"]


def test_updated_conversation_stays_in_the_listing_that_repairs_it(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(redis_url) as store:
        _create(store, "a", when=1)
        _create(store, "b", when=2)
        _failing_index_sync(store, monkeypatch)
        assert store.update_entry("acme", "a", last_read=NOW.replace(second=3))
        monkeypatch.undo()
        assert store.check_integrity() == [
            "conversation 'a' of account 'acme': listed with a stale last_used"
        ]
        listed, _ = store.list_recent("acme", "ada@example.com", limit=10, cursor=None)
        assert [e.convid for e in listed] == ["a", "b"]
        assert store.check_integrity() == []
