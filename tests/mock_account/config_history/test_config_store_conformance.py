"""The configuration version store contract, on every backend (memory, SQLite, PostgreSQL,
Redis)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from mock_account.config_history import ConfigVersionStore, NewVersion
from mock_account.stores import VersionConflict

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _v(section: str, revision: int, blob: bytes = b"x", origin: str = "edit") -> NewVersion:
    return NewVersion(section, revision, origin, blob)


def test_a_fresh_scope_has_nothing(config_store: ConfigVersionStore) -> None:
    assert config_store.scope_revision("s") == 0
    assert config_store.agent_revisions("s") == {}
    assert config_store.history("s", "Agent", "commands") == []
    assert config_store.latest("s") == []


def test_commit_raises_revisions_and_keeps_versions(config_store: ConfigVersionStore) -> None:
    first = config_store.commit(
        "s",
        "Agent",
        0,
        [_v("commands", 0, b"file", "file"), _v("commands", 1, b"one")],
        now=NOW,
        keep=20,
    )
    assert first == 1
    second = config_store.commit("s", "Agent", 1, [_v("asks", 2, b"two")], now=NOW, keep=20)
    assert second == 2
    assert config_store.agent_revisions("s") == {"Agent": 2}
    assert config_store.scope_revision("s") == 2
    history = config_store.history("s", "Agent", "commands")
    assert [(v.revision, v.origin, v.blob) for v in history] == [
        (1, "edit", b"one"),
        (0, "file", b"file"),
    ]
    assert history[0].created == NOW
    latest = {(v.agent, v.section): v.blob for v in config_store.latest("s")}
    assert latest == {("Agent", "commands"): b"one", ("Agent", "asks"): b"two"}


def test_a_stale_revision_is_refused_and_writes_nothing(config_store: ConfigVersionStore) -> None:
    config_store.commit("s", "Agent", 0, [_v("commands", 1)], now=NOW, keep=20)
    with pytest.raises(VersionConflict, match="no longer at revision 0"):
        config_store.commit("s", "Agent", 0, [_v("commands", 1, b"loser")], now=NOW, keep=20)
    assert [v.blob for v in config_store.history("s", "Agent", "commands")] == [b"x"]
    assert config_store.scope_revision("s") == 1


def test_only_the_most_recent_versions_are_kept(config_store: ConfigVersionStore) -> None:
    for revision in range(1, 8):
        config_store.commit(
            "s",
            "Agent",
            revision - 1,
            [_v("commands", revision, str(revision).encode())],
            now=NOW,
            keep=3,
        )
    assert [v.revision for v in config_store.history("s", "Agent", "commands")] == [7, 6, 5]
    assert config_store.latest("s")[0].blob == b"7"


def test_scopes_and_agents_are_apart(config_store: ConfigVersionStore) -> None:
    config_store.commit("s", "One", 0, [_v("commands", 1, b"one")], now=NOW, keep=20)
    config_store.commit("t", "One", 0, [_v("commands", 1, b"other scope")], now=NOW, keep=20)
    config_store.commit("s", "Two", 0, [_v("commands", 1, b"two")], now=NOW, keep=20)
    assert config_store.agent_revisions("s") == {"One": 1, "Two": 1}
    assert config_store.scope_revision("s") == 2
    assert [v.blob for v in config_store.history("t", "One", "commands")] == [b"other scope"]


def test_concurrent_commits_from_one_revision_have_one_winner(
    config_store: ConfigVersionStore,
) -> None:
    """8 threads, 5 rounds, each thread commits from the revision it read: every revision is
    won by exactly one, the losers write nothing."""
    won: list[tuple[int, str]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(8)

    def writer(name: str) -> None:
        for _ in range(5):
            barrier.wait()
            base = config_store.agent_revisions("s").get("Agent", 0)
            barrier.wait()
            try:
                done = config_store.commit(
                    "s", "Agent", base, [_v("commands", base + 1, name.encode())], now=NOW, keep=50
                )
            except VersionConflict:
                continue
            with lock:
                won.append((done, name))

    threads = [threading.Thread(target=writer, args=(f"w{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    revisions = sorted(r for r, _ in won)
    assert revisions == [1, 2, 3, 4, 5]
    kept = {v.revision: v.blob.decode() for v in config_store.history("s", "Agent", "commands")}
    assert kept == {r: name for r, name in won}
    assert config_store.scope_revision("s") == 5


def test_all_versions_and_blob_replacement(config_store: ConfigVersionStore) -> None:
    config_store.commit(
        "s", "One", 0, [_v("commands", 0, b"a0", "file"), _v("commands", 1, b"a1")], now=NOW, keep=9
    )
    config_store.commit("s", "Two", 0, [_v("asks", 1, b"b1")], now=NOW, keep=9)
    config_store.commit("t", "One", 0, [_v("asks", 1, b"elsewhere")], now=NOW, keep=9)
    found = {(v.agent, v.section, v.revision): v.blob for v in config_store.all_versions("s")}
    assert found == {
        ("One", "commands", 0): b"a0",
        ("One", "commands", 1): b"a1",
        ("Two", "asks", 1): b"b1",
    }
    assert config_store.replace_blob("s", "One", "commands", 0, b"a0", b"A0")
    # Only if the blob is still the one read: a second swap from the old bytes does nothing.
    assert not config_store.replace_blob("s", "One", "commands", 0, b"a0", b"lost")
    assert not config_store.replace_blob("s", "One", "commands", 7, b"a1", b"missing")
    blobs = [v.blob for v in config_store.history("s", "One", "commands")]
    assert blobs == [b"a1", b"A0"]


def test_a_change_stamp_moves_with_every_commit(config_store: ConfigVersionStore) -> None:
    """Equal stamps mean no commit in between; a store without stamps says None."""
    before = config_store.change_stamp("s")
    if before is None:
        return  # this backend has none: its revision is read every time
    assert config_store.change_stamp("s") == before
    config_store.commit("s", "Agent", 0, [_v("commands", 1)], now=NOW, keep=20)
    after = config_store.change_stamp("s")
    assert after != before
    config_store.commit("s", "Agent", 1, [_v("commands", 2)], now=NOW, keep=20)
    assert config_store.change_stamp("s") not in (before, after)
