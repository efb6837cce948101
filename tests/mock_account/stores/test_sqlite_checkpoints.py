"""WAL checkpoints of the SQLite store run by a background thread, not inside the commits."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from mock_account.stores import open_store
from mock_account.stores.sqlite import SqliteStore
from mock_account.stores.sqlite.checkpoints import FALLBACK_FACTOR, WalCheckpoints

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _save(store: SqliteStore, convid: str, version: int, blob: bytes) -> int:
    return store.commit_run(
        account="acme",
        convid=convid,
        owner="ada@example.com",
        expected_version=version,
        blob=blob,
        now=NOW,
        title_if_new=b"t",
    ).state_version


def _wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _threads(path: Path) -> list[str]:
    return [t.name for t in threading.enumerate() if t.name == f"sqlite-checkpoints {path.name}"]


def _raw_file(
    path: Path, threshold: int, **options: float
) -> tuple[sqlite3.Connection, WalCheckpoints]:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=0)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE blobs (key TEXT PRIMARY KEY, blob BLOB)")
    checkpoints = WalCheckpoints.start(path, synchronous="NORMAL", threshold=threshold, **options)
    assert checkpoints is not None
    checkpoints.prepare(conn)
    return conn, checkpoints


def _upsert(conn: sqlite3.Connection, checkpoints: WalCheckpoints, key: str, blob: bytes) -> None:
    conn.execute(
        "INSERT INTO blobs VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET blob = excluded.blob",
        (key, blob),
    )
    checkpoints.committed(conn)


def test_the_thread_copies_the_wal_while_the_writers_commit_without_checkpoints(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.db"
    store = SqliteStore(path)
    checkpoints = store._db._checkpoints
    assert checkpoints is not None and _threads(path)
    version = 0
    for _ in range(60):  # some 25 pages a save: the WAL passes the 1000 pages of the threshold
        version = _save(store, "c1", version, os.urandom(100_000))
    with store._db.write() as conn:  # the writers' connections never checkpoint themselves
        assert conn.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    assert store._db.conn().execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    assert _wait_for(lambda: checkpoints._frames()[1] > 0)  # pages copied into the file
    frames, _ = checkpoints._frames()
    assert frames < FALLBACK_FACTOR * 1000
    store.close()
    assert _threads(path) == []
    assert not Path(f"{path}-wal").exists()  # the last connection checkpointed and removed it
    with open_store(f"sqlite:///{path}") as reopened:
        assert reopened.load("acme", "c1").entry.state_version == version
        assert reopened.check_integrity() == []


def test_a_store_dropped_without_close_stops_its_thread(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    store = SqliteStore(path)
    _save(store, "c1", 0, b"s")
    assert _threads(path)
    del store
    assert _wait_for(lambda: not _threads(path), timeout=5.0)


def test_the_writer_checkpoints_itself_when_the_thread_falls_far_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(WalCheckpoints, "_run", lambda self: None)  # a thread that never runs
    path = tmp_path / "raw.db"
    conn, checkpoints = _raw_file(path, threshold=20)
    longest = 0
    for i in range(400):  # three pages a commit
        _upsert(conn, checkpoints, f"k{i % 7}", os.urandom(8000))
        longest = max(longest, checkpoints._frames()[0])
    assert FALLBACK_FACTOR * 20 <= longest < FALLBACK_FACTOR * 20 + 10
    assert conn.execute("SELECT count(*) FROM blobs").fetchone() == (7,)
    checkpoints.stop()
    conn.close()


def test_a_quiet_file_is_copied_and_a_grown_wal_truncated(tmp_path: Path) -> None:
    path = tmp_path / "raw.db"
    conn, checkpoints = _raw_file(path, threshold=1000, idle_s=0.05)
    for i in range(10):  # below the threshold: only the idle pass copies them
        _upsert(conn, checkpoints, f"k{i}", os.urandom(8000))
    assert _wait_for(lambda: checkpoints._frames()[1] == checkpoints._frames()[0] > 0)
    assert Path(f"{path}-wal").stat().st_size > 0  # a small WAL file is kept for reuse
    checkpoints.stop()

    conn2, grown = _raw_file(tmp_path / "grown.db", threshold=10, idle_s=0.05)
    for i in range(30):
        _upsert(conn2, grown, f"k{i}", os.urandom(8000))
    assert _wait_for(lambda: Path(f"{tmp_path / 'grown.db'}-wal").stat().st_size == 0)
    assert conn2.execute("SELECT count(*) FROM blobs").fetchone() == (30,)
    grown.stop()
    conn.close()
    conn2.close()


def test_the_wal_is_emptied_after_a_deletion_even_during_a_background_pass(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.db"
    with SqliteStore(path) as store:
        _save(store, "c1", 0, b"secret" * 1000)
        checkpoints = store._db._checkpoints
        assert checkpoints is not None
        checkpoints.lock.acquire()  # a pass of the thread in progress
        threading.Timer(0.2, checkpoints.lock.release).start()
        started = time.monotonic()
        assert store.delete("acme", "c1")
        assert time.monotonic() - started >= 0.15  # it waited for its turn
        assert Path(f"{path}-wal").stat().st_size == 0  # nothing of the deleted state in it


_WORKER = textwrap.dedent(
    """
    import os, sys
    from datetime import UTC, datetime
    from mock_account.stores import open_store

    url, name = sys.argv[1], sys.argv[2]
    store = open_store(url)
    common = dict(account="acme", owner="ada@example.com", now=datetime.now(UTC), title_if_new=b"")
    for k in range(4):
        store.commit_run(convid=f"{name}-{k}", expected_version=0, blob=b"", **common)
    for i in range(4, 80):  # some 15 pages a save: both processes pass the threshold
        convid = f"{name}-{i % 4}"
        version = store.load("acme", convid).entry.state_version
        blob = os.urandom(60_000) + f"{name}-{i}".encode()
        store.commit_run(convid=convid, expected_version=version, blob=blob, **common)
    store.close()
    """
)


def test_processes_sharing_a_file_checkpoint_it_together(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    with open_store(url):
        pass
    workers = [subprocess.Popen([sys.executable, "-c", _WORKER, url, f"p{i}"]) for i in range(2)]
    assert [w.wait(timeout=120) for w in workers] == [0, 0]
    with open_store(url) as store:
        assert store.check_integrity() == []
        for name in ("p0", "p1"):
            for k in range(4):
                state = store.load("acme", f"{name}-{k}")
                assert state.entry.state_version == 20  # 1 create + 19 saves, none lost
                assert state.blob.endswith(f"{name}-{76 + k}".encode())
