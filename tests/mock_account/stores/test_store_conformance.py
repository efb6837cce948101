"""The conversation store contract, checked against every backend (memory, SQLite, PostgreSQL,
Redis) through the ``store`` fixture of conftest.py."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from mock_account.stores import (
    Committed,
    ConversationEntry,
    ConversationStore,
    IdempotencyRecord,
    InvalidCursor,
    StoreConfigError,
    StoreError,
    StoreUnavailable,
    VersionConflict,
    open_store,
)

T0 = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)
ACCOUNT = "acme"
OWNER = "ada@example.com"


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def create(
    store: ConversationStore,
    convid: str,
    *,
    when: float = 0,
    owner: str = OWNER,
    account: str = ACCOUNT,
    blob: bytes | None = b"state-1",
) -> Committed:
    return store.commit_run(
        account=account,
        convid=convid,
        owner=owner,
        expected_version=0,
        blob=blob,
        now=at(when),
        title_if_new=f"title of {convid}".encode(),
    )


def advance(
    store: ConversationStore, convid: str, version: int, *, when: float, blob: bytes | None = b"x"
) -> Committed:
    return store.commit_run(
        account=ACCOUNT,
        convid=convid,
        owner=OWNER,
        expected_version=version,
        blob=blob,
        now=at(when),
        title_if_new=b"ignored",
    )


# -- saving and loading --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "blob",
    [b"", bytes(range(256)) * 3, os.urandom(1024 * 1024)],
    ids=["empty", "all-bytes", "1MB"],
)
def test_created_conversation_loads_back_exactly(store: ConversationStore, blob: bytes) -> None:
    assert create(store, "c1", when=5, blob=blob) == Committed("c1", 1, at(5))
    entry = store.get_entry(ACCOUNT, "c1")

    assert entry == ConversationEntry(
        account=ACCOUNT,
        convid="c1",
        owner=OWNER,
        title=b"title of c1",
        created=at(5),
        last_executed=at(5),
        last_read=at(5),
        pinned=False,
        state_version=1,
    )
    loaded = store.load(ACCOUNT, "c1")
    assert loaded is not None
    assert loaded.blob == blob
    assert loaded.entry == entry
    assert entry.created.utcoffset() == timedelta(0)


def test_missing_conversation_is_absent_everywhere(store: ConversationStore) -> None:
    create(store, "c1")
    assert store.load(ACCOUNT, "nope") is None
    assert store.load("other-account", "c1") is None
    assert store.get_entry(ACCOUNT, "nope") is None
    assert store.update_entry(ACCOUNT, "nope", pinned=True) is False
    assert store.delete(ACCOUNT, "nope") is False


def test_state_can_live_elsewhere(store: ConversationStore) -> None:
    create(store, "c1", blob=None)
    loaded = store.load(ACCOUNT, "c1")
    assert loaded is not None and loaded.blob is None and loaded.entry.state_version == 1

    advance(store, "c1", 1, when=1, blob=b"now in the cloud")
    assert store.load(ACCOUNT, "c1").blob == b"now in the cloud"
    advance(store, "c1", 2, when=2, blob=None)
    loaded = store.load(ACCOUNT, "c1")
    assert loaded.blob is None and loaded.entry.state_version == 3


def test_commit_advances_version_and_run_time_only(store: ConversationStore) -> None:
    create(store, "c1", when=0)
    store.update_entry(ACCOUNT, "c1", title=b"renamed", pinned=True, last_read=at(3))

    assert advance(store, "c1", 1, when=10, blob=b"second") == Committed("c1", 2, at(10))

    entry = store.get_entry(ACCOUNT, "c1")
    assert entry.state_version == 2
    assert entry.last_executed == at(10)
    assert (entry.title, entry.pinned, entry.created, entry.last_read) == (
        b"renamed",
        True,
        at(0),
        at(3),
    )
    assert store.load(ACCOUNT, "c1").blob == b"second"


def test_the_entry_keeps_the_agent_of_the_latest_save(store: ConversationStore) -> None:
    assert create(store, "c1").last_agent == ""
    for version, agent in ((1, "BookTrip"), (2, "FileExpenses")):
        saved = store.commit_run(
            account=ACCOUNT,
            convid="c1",
            owner=OWNER,
            expected_version=version,
            blob=b"x",
            now=at(version),
            title_if_new=b"",
            agent=agent,
        )
        assert saved.last_agent == agent
    assert store.get_entry(ACCOUNT, "c1").last_agent == "FileExpenses"
    assert store.load(ACCOUNT, "c1").entry.last_agent == "FileExpenses"
    assert [e.last_agent for e in store.iter_entries(ACCOUNT)] == ["FileExpenses"]


# -- compare-and-swap ----------------------------------------------------------------------------


def test_creating_an_existing_conversation_conflicts(store: ConversationStore) -> None:
    create(store, "c1", blob=b"first")
    first = store.get_entry(ACCOUNT, "c1")
    with pytest.raises(VersionConflict):
        create(store, "c1", blob=b"second", when=9)
    assert store.load(ACCOUNT, "c1").blob == b"first"
    assert store.get_entry(ACCOUNT, "c1") == first


@pytest.mark.parametrize("expected", [1, 2, 4, 99], ids=["older", "previous", "next", "far"])
def test_commit_with_wrong_version_conflicts_and_changes_nothing(
    store: ConversationStore, expected: int
) -> None:
    create(store, "c1")
    advance(store, "c1", 1, when=1, blob=b"v2")
    advance(store, "c1", 2, when=2, blob=b"v3")
    before = store.load(ACCOUNT, "c1")
    assert before.entry.state_version == 3
    with pytest.raises(VersionConflict):
        advance(store, "c1", expected, when=50, blob=b"lost")
    assert store.load(ACCOUNT, "c1") == before


def test_commit_to_missing_conversation_conflicts(store: ConversationStore) -> None:
    with pytest.raises(VersionConflict):
        advance(store, "c1", 1, when=1)
    assert store.get_entry(ACCOUNT, "c1") is None


def test_commit_by_another_owner_conflicts(store: ConversationStore) -> None:
    create(store, "c1", blob=b"mine")
    with pytest.raises(VersionConflict):
        store.commit_run(
            account=ACCOUNT,
            convid="c1",
            owner="mallory@example.com",
            expected_version=1,
            blob=b"theirs",
            now=at(1),
            title_if_new=b"t",
        )
    loaded = store.load(ACCOUNT, "c1")
    assert (loaded.blob, loaded.entry.state_version, loaded.entry.owner) == (b"mine", 1, OWNER)


def test_same_convid_in_two_accounts_are_two_conversations(store: ConversationStore) -> None:
    create(store, "c1", blob=b"acme")
    create(store, "c1", account="globex", blob=b"globex")
    assert store.load(ACCOUNT, "c1").blob == b"acme"
    assert store.load("globex", "c1").blob == b"globex"
    assert store.delete("globex", "c1") is True
    assert store.load(ACCOUNT, "c1").blob == b"acme"


def test_naive_times_are_refused(store: ConversationStore) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        store.commit_run(
            account=ACCOUNT,
            convid="c1",
            owner=OWNER,
            expected_version=0,
            blob=b"",
            now=datetime(2026, 1, 1),
            title_if_new=b"",
        )
    assert store.get_entry(ACCOUNT, "c1") is None


# -- entry updates, blob replacement, deletion ---------------------------------------------------


def test_update_entry_changes_only_the_given_fields(store: ConversationStore) -> None:
    create(store, "c1", when=0, blob=b"state")
    original = store.get_entry(ACCOUNT, "c1")

    assert store.update_entry(ACCOUNT, "c1", title=b"new title") is True
    assert store.get_entry(ACCOUNT, "c1") == dataclasses.replace(original, title=b"new title")
    assert store.update_entry(ACCOUNT, "c1", pinned=True) is True
    assert store.update_entry(ACCOUNT, "c1", last_read=at(7)) is True
    assert store.update_entry(ACCOUNT, "c1", title=b"") is True
    assert store.update_entry(ACCOUNT, "c1") is True

    entry = store.get_entry(ACCOUNT, "c1")
    assert (entry.title, entry.pinned, entry.last_read) == (b"", True, at(7))
    assert (entry.created, entry.last_executed, entry.state_version) == (at(0), at(0), 1)
    assert store.load(ACCOUNT, "c1").blob == b"state"
    store.update_entry(ACCOUNT, "c1", pinned=False)
    assert store.get_entry(ACCOUNT, "c1").pinned is False


def test_replace_blob_is_compare_and_swap_and_keeps_run_time(store: ConversationStore) -> None:
    create(store, "c1", when=0, blob=b"old key")
    advance(store, "c1", 1, when=4, blob=b"old key 2")

    store.replace_blob(ACCOUNT, "c1", expected_version=2, blob=b"new key")

    loaded = store.load(ACCOUNT, "c1")
    assert (loaded.blob, loaded.entry.state_version, loaded.entry.last_executed) == (
        b"new key",
        3,
        at(4),
    )
    with pytest.raises(VersionConflict):
        store.replace_blob(ACCOUNT, "c1", expected_version=2, blob=b"lost")
    with pytest.raises(VersionConflict):
        store.replace_blob(ACCOUNT, "missing", expected_version=1, blob=b"lost")
    assert store.load(ACCOUNT, "c1").blob == b"new key"


def test_delete_removes_entry_and_state(store: ConversationStore) -> None:
    create(store, "c1", blob=b"state")
    create(store, "c2", blob=b"kept")
    store.update_entry(ACCOUNT, "c1", pinned=True)

    assert store.delete(ACCOUNT, "c1") is True
    assert store.delete(ACCOUNT, "c1") is False
    assert store.load(ACCOUNT, "c1") is None
    assert store.get_entry(ACCOUNT, "c1") is None
    assert store.list_pinned(ACCOUNT, OWNER) == []
    assert store.count_pinned(ACCOUNT, OWNER) == 0
    assert [e.convid for e in store.list_recent(ACCOUNT, OWNER, limit=10, cursor=None)[0]] == ["c2"]
    # The id can be used again, from scratch.
    assert create(store, "c1", blob=b"again").state_version == 1
    assert store.load(ACCOUNT, "c1").blob == b"again"
    assert store.check_integrity() == []


# -- listing -------------------------------------------------------------------------------------


def test_last_used_is_the_later_of_run_and_read(store: ConversationStore) -> None:
    create(store, "c1", when=10)
    store.update_entry(ACCOUNT, "c1", last_read=at(20))
    assert store.get_entry(ACCOUNT, "c1").last_used == at(20)
    advance(store, "c1", 1, when=30)
    assert store.get_entry(ACCOUNT, "c1").last_used == at(30)
    store.update_entry(ACCOUNT, "c1", last_read=at(25))
    assert store.get_entry(ACCOUNT, "c1").last_used == at(30)


def _all_pages(store: ConversationStore, limit: int) -> list[list[str]]:
    pages: list[list[str]] = []
    cursor: str | None = None
    while True:
        page, cursor = store.list_recent(ACCOUNT, OWNER, limit=limit, cursor=cursor)
        pages.append([e.convid for e in page])
        if cursor is None:
            return pages
        assert len(pages) < 20, "paging does not end"


def test_recent_list_pages_in_last_used_order(store: ConversationStore) -> None:
    # Times chosen so that reads and runs interleave, with a tie broken by convid (descending).
    for i, when in enumerate([1, 9, 3, 7, 5, 5, 2, 8]):
        create(store, f"conv{i}", when=when)
    store.update_entry(ACCOUNT, "conv0", last_read=at(10))  # read last: now first
    advance(store, "conv6", 1, when=9.5)  # run again: second
    create(store, "other", owner="bob@example.com", when=50)
    create(store, "foreign", account="globex", when=60)

    pages = _all_pages(store, limit=3)

    expected = ["conv0", "conv6", "conv1", "conv7", "conv3", "conv5", "conv4", "conv2"]
    assert pages == [expected[0:3], expected[3:6], expected[6:8]]
    assert _all_pages(store, limit=8) == [expected]
    assert _all_pages(store, limit=100) == [expected]


def test_pinned_are_listed_apart_and_counted(store: ConversationStore) -> None:
    for i in range(5):
        create(store, f"c{i}", when=i)
    create(store, "bobs", owner="bob@example.com", when=9)
    store.update_entry(ACCOUNT, "bobs", pinned=True)
    for convid in ("c1", "c3"):
        store.update_entry(ACCOUNT, convid, pinned=True)
    store.update_entry(ACCOUNT, "c1", last_read=at(30))

    assert [e.convid for e in store.list_pinned(ACCOUNT, OWNER)] == ["c1", "c3"]
    assert store.count_pinned(ACCOUNT, OWNER) == 2
    recent, cursor = store.list_recent(ACCOUNT, OWNER, limit=10, cursor=None)
    assert [e.convid for e in recent] == ["c4", "c2", "c0"] and cursor is None
    assert [e.convid for e in store.list_pinned(ACCOUNT, "bob@example.com")] == ["bobs"]
    assert store.list_recent(ACCOUNT, "bob@example.com", limit=5, cursor=None) == ([], None)
    assert store.list_pinned("globex", OWNER) == [] and store.count_pinned("globex", OWNER) == 0

    store.update_entry(ACCOUNT, "c3", pinned=False)
    assert [e.convid for e in store.list_recent(ACCOUNT, OWNER, limit=10, cursor=None)[0]] == [
        "c4",
        "c3",
        "c2",
        "c0",
    ]


@pytest.mark.parametrize(
    "cursor",
    ["", "not base64 !", "bm90IGEgY3Vyc29y", "MTp4eXo6YWJj", "Mjo1OmFiYw", "MTo1Og"],
    ids=["empty", "garbage", "no-fields", "bad-number", "wrong-version", "no-convid"],
)
def test_malformed_cursor_is_refused(store: ConversationStore, cursor: str) -> None:
    create(store, "c1")
    with pytest.raises(InvalidCursor, match="cursor"):
        store.list_recent(ACCOUNT, OWNER, limit=5, cursor=cursor)


def test_limit_must_be_positive(store: ConversationStore) -> None:
    with pytest.raises(ValueError, match="limit"):
        store.list_recent(ACCOUNT, OWNER, limit=0, cursor=None)


def test_iter_entries_covers_all_or_one_account(store: ConversationStore) -> None:
    for i in range(3):
        create(store, f"a{i}")
    create(store, "g0", account="globex")
    assert sorted(e.convid for e in store.iter_entries()) == ["a0", "a1", "a2", "g0"]
    assert sorted(e.convid for e in store.iter_entries("globex")) == ["g0"]
    assert list(store.iter_entries("nobody")) == []


# -- idempotency, health -------------------------------------------------------------------------


def record(convid: str = "", body: bytes = b"sealed", *, expires: float = 60) -> IdempotencyRecord:
    return IdempotencyRecord(ACCOUNT, convid, body, at(expires))


def test_remember_keeps_the_first_record(store: ConversationStore) -> None:
    assert store.recall("req-1", at(0)) is None
    first = record("c1", b'{"ok": 1}')
    assert store.remember("req-1", first, at(0)) is None
    assert store.remember("req-1", record("c2", b"other"), at(1)) == first
    assert store.recall("req-1", at(1)) == first
    assert store.remember("req-2", record(body=b""), at(2)) is None
    assert store.recall("req-2", at(2)) == record(body=b"")


def test_an_expired_record_is_absent_and_can_be_taken_over(store: ConversationStore) -> None:
    assert store.remember("claim", record(expires=10), at(0)) is None
    assert store.recall("claim", at(9.9)) is not None
    assert store.recall("claim", at(10)) is None  # expiry is exclusive: at 10 s it is gone
    taker = record(body=b"taker", expires=40)
    assert store.remember("claim", taker, at(10)) is None
    assert store.remember("claim", record(body=b"late", expires=50), at(11)) == taker


def test_records_are_forgotten_purged_and_deleted_with_their_conversation(
    store: ConversationStore,
) -> None:
    create(store, "c1")
    create(store, "c2")
    store.remember("a1", record("c1"), at(0))
    store.remember("a2", record("c1", expires=600), at(0))
    store.remember("b1", record("c2"), at(0))
    store.remember("short", record(expires=5), at(0))
    store.remember("gone", record(), at(0))
    assert store.forget("gone") and not store.forget("gone")
    assert store.purge_expired(at(5)) == 1 and store.recall("a1", at(5)) is not None
    assert store.delete(ACCOUNT, "c1")
    assert store.recall("a1", at(6)) is None and store.recall("a2", at(6)) is None
    assert store.recall("b1", at(6)) == record("c2")
    # A record naming a conversation that is gone (or never saved) still goes with a delete.
    store.remember("orphan", record("never"), at(7))
    assert not store.delete(ACCOUNT, "never")
    assert store.recall("orphan", at(8)) is None
    assert store.purge_expired(at(60)) == 1 and store.recall("b1", at(59)) is None


def test_a_record_must_expire_after_now(store: ConversationStore) -> None:
    with pytest.raises(ValueError, match="expire after"):
        store.remember("k", record(expires=0), at(0))


def test_healthy_store_has_no_integrity_problems(store: ConversationStore) -> None:
    assert store.check_integrity() == []
    for i in range(4):
        create(store, f"c{i}", when=i, blob=None if i == 2 else b"s")
    store.update_entry(ACCOUNT, "c1", pinned=True, last_read=at(9))
    advance(store, "c3", 1, when=12)
    store.delete(ACCOUNT, "c0")
    assert store.check_integrity() == []


# -- concurrency ---------------------------------------------------------------------------------


def test_concurrent_read_modify_write_loses_no_update(store: ConversationStore) -> None:
    create(store, "busy", blob=b"[]")
    threads, commits_each = 16, 4

    def worker(worker_id: int) -> None:
        done = 0
        while done < commits_each:
            loaded = store.load(ACCOUNT, "busy")
            items = json.loads(loaded.blob) + [f"{worker_id}-{done}"]
            time.sleep(0.001)  # widen the read-to-write window so that the threads interleave
            try:
                advance(
                    store,
                    "busy",
                    loaded.entry.state_version,
                    when=worker_id,
                    blob=json.dumps(items).encode(),
                )
            except VersionConflict:
                continue  # someone saved first: read again and redo the change
            done += 1

    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(worker, range(threads)))  # re-raises any worker failure

    final = store.load(ACCOUNT, "busy")
    items = json.loads(final.blob)
    assert final.entry.state_version == 1 + threads * commits_each
    assert sorted(items) == sorted(f"{w}-{i}" for w in range(threads) for i in range(commits_each))
    assert store.check_integrity() == []


def _race(calls: list[Callable[[], ConversationEntry]]) -> list[bool]:
    """Run the calls at the same moment; which of them won (did not get VersionConflict)."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], ConversationEntry]) -> bool:
        barrier.wait()
        try:
            call()
        except VersionConflict:
            return False
        return True

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.mark.parametrize("round_", range(3))
def test_competing_commits_have_exactly_one_winner(store: ConversationStore, round_: int) -> None:
    blobs = [b"left", b"right"]
    won = _race([lambda b=b: create(store, "c1", blob=b) for b in blobs])
    assert won.count(True) == 1
    assert store.load(ACCOUNT, "c1").blob == blobs[won.index(True)]

    won = _race([lambda b=b: advance(store, "c1", 1, when=1, blob=b) for b in blobs])
    assert won.count(True) == 1
    loaded = store.load(ACCOUNT, "c1")
    assert (loaded.blob, loaded.entry.state_version) == (blobs[won.index(True)], 2)


# -- opening -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://example.com/store", "unknown scheme 'ftp'"),
        ("just-a-path.db", "unknown scheme"),
        ("sqlite://", "no file path"),
        ("sqlite:///store.db?synchronous=SOMETIMES", "synchronous must be one of"),
        ("sqlite:///store.db?timeout=soon", "timeout must be a number"),
        ("sqlite:///store.db?colour=blue", "unknown option(s) colour"),
        ("memory://?x=1", "unknown option(s) x"),
        ("postgresql://u:pw@127.0.0.1:1/db?schema=bad-name", "schema name 'bad-name' is invalid"),
        ("redis://127.0.0.1:1/0?prefix=bad prefix", "prefix 'bad prefix' is invalid"),
        ("postgresql://u:pw@127.0.0.1:port/db", "Port could not be cast"),
        ("postgresql://u:pw@127.0.0.1:1/db?colour=blue", 'invalid URI query parameter: "colour"'),
        ("redis://127.0.0.1:1/zero", "the Redis database must be a number"),
        ("redis://127.0.0.1:1/0?colour=blue", "unsupported URL option"),
    ],
)
def test_bad_store_url_is_a_clear_config_error(
    url: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreConfigError) as caught:
        open_store(url)
    assert message in str(caught.value)
    assert ":pw@" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []  # nothing created for a refused URL


@pytest.mark.parametrize(
    ("url", "where"),
    [
        ("postgresql://postgres:s3cret@127.0.0.1:1/test?connect_timeout=2", "PostgreSQL at"),
        ("postgres://postgres:s3cret@127.0.0.1:1/test?connect_timeout=2", "PostgreSQL at"),
        ("redis://:s3cret@127.0.0.1:1/0?socket_connect_timeout=2", "Redis at"),
    ],
    ids=["postgresql", "postgres", "redis"],
)
def test_unreachable_server_is_store_unavailable(url: str, where: str) -> None:
    with pytest.raises(StoreUnavailable) as caught:
        open_store(url)
    assert f"{where} 127.0.0.1:1" in str(caught.value)
    assert "s3cret" not in str(caught.value)
    assert isinstance(caught.value, StoreError)
