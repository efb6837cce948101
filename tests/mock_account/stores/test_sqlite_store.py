"""SQLite specifics: file layout, pragmas, migrations, locking across processes, error messages."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from mock_account.stores import ConversationEntry, StoreError, StoreUnavailable, open_store
from mock_account.stores.sqlite import SqliteStore
from mock_account.stores.sqlite.schema import LATEST, MIGRATIONS

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _create(store: SqliteStore, convid: str, blob: bytes = b"s") -> None:
    store.commit_run(
        account="acme",
        convid=convid,
        owner="ada@example.com",
        expected_version=0,
        blob=blob,
        now=NOW,
        title_if_new=b"t",
    )


def _advance(
    store: SqliteStore, convid: str, *, owner: str, version: int, blob: bytes, now: datetime = NOW
) -> ConversationEntry:
    """Save over ``version`` as ``BookTrip``."""
    return store.commit_run(
        account="acme",
        convid=convid,
        owner=owner,
        expected_version=version,
        blob=blob,
        now=now,
        title_if_new=b"",
        agent="BookTrip",
    )


def test_relative_path_creates_folders_and_uses_wal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with open_store("sqlite:///data/deeper/store.db") as store:
        _create(store, "c1")
    path = tmp_path / "data" / "deeper" / "store.db"
    with open_store("sqlite:///my%20data/store.db"):
        assert (tmp_path / "my data" / "store.db").is_file()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(LATEST,)]


def test_a_first_version_file_is_migrated_and_keeps_its_conversations(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    with sqlite3.connect(path) as conn:  # the file as the first schema left it
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for statement in MIGRATIONS[0][1]:
            conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (1)")
        conn.execute("INSERT INTO entries VALUES ('acme', 'c1', 'ada', x'', 1, 1, 1, 1, 0, 1)")
        conn.execute("INSERT INTO states VALUES ('acme', 'c1', x'0102')")
    with open_store(f"sqlite:///{path}") as store:
        old = store.load("acme", "c1")
        assert old.blob == b"\x01\x02" and old.entry.last_agent == ""
        saved = _advance(
            store, "c1", owner="ada", version=1, blob=b"x", now=datetime(2026, 1, 1, tzinfo=UTC)
        )
        assert saved.last_agent == store.get_entry("acme", "c1").last_agent == "BookTrip"
        assert store.load("acme", "c1").blob == b"x"
        assert store.check_integrity() == []
        tables = {r[0] for r in store._db.conn().execute("SELECT name FROM sqlite_master")}
        assert "states" not in tables  # the states moved into their entries' rows


def test_a_save_is_one_statement_without_an_explicit_transaction(tmp_path: Path) -> None:
    # SQLite then holds the write lock only while it runs the statement, never while the
    # thread waits for the GIL between statements; nothing is read back after it.
    with SqliteStore(tmp_path / "store.db") as store:
        _create(store, "c1")
        store.update_entry("acme", "c1", title=b"renamed", pinned=True)
        writer = store._db._thread_conn("writer", 0.0)
        statements: list[str] = []
        writer.set_trace_callback(statements.append)
        saved = _advance(store, "c1", owner="ada@example.com", version=1, blob=b"second")
        writer.set_trace_callback(None)
        assert len(statements) == 1 and statements[0].startswith("UPDATE entries")
        entry = store.get_entry("acme", "c1")
        assert (saved.state_version, saved.last_executed) == (2, entry.last_executed)
        assert (entry.title, entry.pinned, entry.state_version) == (b"renamed", True, 2)


def test_plaintext_idempotency_records_of_version_two_are_dropped_and_zeroed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.db"
    marker = b"I booked flight to Berlin-Marker-0042"
    with sqlite3.connect(path) as conn:  # the file as the second schema left it
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for _, statements in MIGRATIONS[:2]:
            for statement in statements:
                conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (2)")
        conn.executemany(
            "INSERT INTO idempotency VALUES (?, 'h', ?, 1)",
            [(f"execAgent/{i}/answer", marker * 40) for i in range(50)],
        )
    assert marker in path.read_bytes()
    with open_store(f"sqlite:///{path}") as store:
        columns = [r[1] for r in store._db.conn().execute("PRAGMA table_info(idempotency)")]
        assert columns == ["key", "account", "convid", "record", "expires"]
        assert store._db.conn().execute("SELECT count(*) FROM idempotency").fetchone() == (0,)
        assert store._db.conn().execute("PRAGMA secure_delete").fetchone() == (1,)
    # Closing checkpoints the WAL into the file: the dropped pages were zeroed, not just freed.
    assert marker not in path.read_bytes()


def test_absolute_path_and_data_survive_reopening(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    assert url.startswith("sqlite:////")
    with open_store(url) as store:
        _create(store, "c1", blob=b"durable")
    with open_store(url) as store:
        assert store.load("acme", "c1").blob == b"durable"
        assert store.check_integrity() == []


@pytest.mark.parametrize(
    ("option", "level"), [("", 1), ("?synchronous=FULL", 2), ("?synchronous=off", 0)]
)
def test_synchronous_option_is_applied(tmp_path: Path, option: str, level: int) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}{option}")
    assert isinstance(store, SqliteStore)
    try:
        assert store._db.conn().execute("PRAGMA synchronous").fetchone()[0] == level
    finally:
        store.close()


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError, match="schema version 99, newer"):
        SqliteStore(path)


def test_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"just some notes, not a database" * 100)
    with pytest.raises(StoreError, match="notes.db") as caught:
        open_store(f"sqlite:///{path}")
    assert "not a database" in str(caught.value)
    assert path.read_bytes() == b"just some notes, not a database" * 100


def test_integrity_check_reports_broken_rows(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    with SqliteStore(path) as store:
        _create(store, "c1")
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE entries SET last_used = 0")
        problems = store.check_integrity()
    assert problems == ["conversation 'c1' of account 'acme': stale last_used"]


def test_writer_blocked_too_long_gets_store_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    with SqliteStore(path, timeout=0.05) as store:
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StoreUnavailable, match="is busy"):
                _create(store, "c1")
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        _create(store, "c1")
        assert store.get_entry("acme", "c1") is not None


def test_writer_waits_for_another_process_lock_then_commits(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    with SqliteStore(path, timeout=5.0) as store:
        blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        blocker.execute("BEGIN IMMEDIATE")
        release = threading.Timer(0.05, lambda: blocker.execute("ROLLBACK"))
        release.start()
        try:
            _create(store, "c1")  # polls the lock until the blocker lets go
        finally:
            release.join()
            blocker.close()
        assert store.get_entry("acme", "c1") is not None


def test_closed_store_refuses_work(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "store.db")
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.get_entry("acme", "c1")


_WORKER = textwrap.dedent(
    """
    import sys
    from datetime import UTC, datetime
    from mock_account.stores import VersionConflict, open_store

    url, name, commits = sys.argv[1], sys.argv[2], int(sys.argv[3])
    store = open_store(url)
    done = 0
    while done < commits:
        loaded = store.load("acme", "shared")
        try:
            store.commit_run(
                account="acme", convid="shared", owner="ada@example.com",
                expected_version=loaded.entry.state_version,
                blob=loaded.blob + f"{name}-{done};".encode(),
                now=datetime.now(UTC), title_if_new=b"",
            )
        except VersionConflict:
            continue
        done += 1
    store.close()
    """
)


def test_compare_and_swap_holds_across_processes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    with open_store(url) as store:
        _create(store, "shared", blob=b"")
    processes, commits = 3, 15
    workers = [
        subprocess.Popen([sys.executable, "-c", _WORKER, url, f"p{i}", str(commits)])
        for i in range(processes)
    ]
    assert [w.wait(timeout=120) for w in workers] == [0] * processes
    with open_store(url) as store:
        final = store.load("acme", "shared")
    parts = final.blob.decode().rstrip(";").split(";")
    assert final.entry.state_version == 1 + processes * commits
    assert sorted(parts) == sorted(f"p{i}-{n}" for i in range(processes) for n in range(commits))


def test_a_deletion_right_after_opening_leaves_nothing_in_the_wal(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    with SqliteStore(path) as store:
        _create(store, "c1", blob=b"deleted-secret" * 100)
        assert store.delete("acme", "c1")
        assert b"deleted-secret" not in Path(f"{path}-wal").read_bytes()
