"""Connections of a SQLite store: one per thread, explicit write transactions, error translation.

Connections are in autocommit mode so that transactions are explicit: ``write()`` opens them with
``BEGIN IMMEDIATE``, which takes the write lock before the first read, so a read-check-write
sequence inside is atomic against every other thread and process using the file. A write that is
one statement (a save: the compare-and-swap is its WHERE clause) runs alone instead
(``write_alone``), so the lock is held only while SQLite runs it.

Threads of one process also queue for writing on a lock of their own first. SQLite's busy
handler polls a held lock with growing sleeps (up to 100 ms between tries), so under concurrent
saves one thread takes the lock again and again while the others sleep: saves of over half a
second at the 99th percentile. A thread waiting on the process lock is woken as soon as the
previous writer is done. Other processes meet at SQLite's lock, which a write takes by polling
it itself: the first try waits for nothing (the write connection's busy timeout is 0) and
retries come after 50 µs, doubling up to 1 ms, until ``timeout``. SQLite's own busy handler
would sleep 1 ms, then 2, 5, 10... on the first conflict, while another process holds the lock
for a save of some 50 µs: with two server processes, that made the save p99 over 100 ms.

WAL checkpoints run in a thread of their own once ``checkpoint_in_background()`` is called, not
in the commit that fills the WAL (see ``checkpoints``).
"""

from __future__ import annotations

import sqlite3
import threading
import time
import weakref
from contextlib import nullcontext
from pathlib import Path
from types import TracebackType

from mock_account.stores.errors import StoreConfigError, StoreError, StoreUnavailable
from mock_account.stores.sqlite.checkpoints import WalCheckpoints

SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")
FIRST_RETRY_S = 0.00005
LONGEST_RETRY_S = 0.001


class SqliteConnections:
    """Per-thread connections to one database file (its folder is created if missing)."""

    def __init__(self, path: Path, *, synchronous: str, timeout: float) -> None:
        self.path = path
        self._synchronous = synchronous.upper()
        if self._synchronous not in SYNCHRONOUS_MODES:
            raise StoreConfigError(
                f"SQLite synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}, "
                f"got {synchronous!r}"
            )
        self._timeout = timeout
        self._local = threading.local()
        # Reentrant, so a nested write() fails in SQLite (a transaction is already open) as it
        # did before, rather than deadlocking.
        self._writer = threading.RLock()
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        self._checkpoints: WalCheckpoints | None = None
        self._closed = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(f"SQLite store {path}: cannot create its folder: {exc}") from exc

    def conn(self) -> sqlite3.Connection:
        """This thread's connection for reads, opened on first use."""
        return self._thread_conn("conn", self._timeout)

    def _thread_conn(self, name: str, timeout: float) -> sqlite3.Connection:
        if self._closed:
            raise StoreError(f"SQLite store {self.path} is closed")
        conn: sqlite3.Connection | None = getattr(self._local, name, None)
        if conn is None:
            conn = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
            conn.execute(f"PRAGMA synchronous={self._synchronous}")
            # Deleted rows are overwritten with zeros, not left in free space of the file.
            conn.execute("PRAGMA secure_delete=ON")
            setattr(self._local, name, conn)
            with self._all_lock:
                self._all.append(conn)
                checkpoints = self._checkpoints
            if checkpoints is not None:
                checkpoints.prepare(conn)
        return conn

    def checkpoint_in_background(self) -> None:
        """Checkpoint the WAL in a thread from now on, not in the commits (the file must be in
        WAL mode); if its WAL-index cannot be read, SQLite's automatic checkpoint stays."""
        self.conn()  # a connection of this process has the WAL-index open while it runs
        checkpoints = WalCheckpoints.start(self.path, synchronous=self._synchronous)
        if checkpoints is None:
            return
        with self._all_lock:
            self._checkpoints = checkpoints
            connections = list(self._all)
        for conn in connections:
            checkpoints.prepare(conn)
        # A store dropped without close() stops its thread too (which holds no reference to it).
        weakref.finalize(self, checkpoints.stop)

    def _until_free(self, conn: sqlite3.Connection, sql: str, params: tuple = ()) -> sqlite3.Cursor:
        """Execute ``sql``, retried with short sleeps while another process writes (or, for a
        read, recovers the WAL). Only for statements that do nothing when refused as busy."""
        deadline = time.monotonic() + self._timeout
        pause = FIRST_RETRY_S
        while True:
            try:
                return conn.execute(sql, params)
            except sqlite3.OperationalError as exc:
                text = str(exc)
                if ("locked" not in text and "busy" not in text) or time.monotonic() >= deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, LONGEST_RETRY_S)

    def _take_process_lock(self) -> None:
        if not self._writer.acquire(timeout=self._timeout):
            # Worded like SQLite's own error, which ``errors()`` translates.
            raise sqlite3.OperationalError("database is locked by another writer of this process")

    def write_alone(self, sql: str, params: tuple) -> int:
        """Run one writing statement as a transaction of its own; its row count.

        SQLite then holds the write lock only inside the statement's step, where the GIL is
        released. In an explicit transaction it also held it while the thread waited for the GIL
        back after each statement, with every save of both server processes queued behind: the
        write p50 of a save was 9 ms under a saturating load test. The statement must not return
        rows: with RETURNING, the transaction stays open until they are fetched.
        """
        conn = self._thread_conn("writer", 0.0)
        self._take_process_lock()
        try:
            rowcount = self._until_free(conn, sql, params).rowcount
            checkpoints = self._checkpoints
            if checkpoints is not None:  # under the process lock: no writer appends
                checkpoints.committed(conn)
            return rowcount
        finally:
            self._writer.release()

    def read_one(self, sql: str, params: tuple) -> tuple | None:
        """The first row of a query, read on this thread's writing connection.

        A save changes pages that every other connection must then read again (from the WAL):
        restoring the conversation for its next run costs half as much on the connection that
        wrote it, whose cache is current. That connection has no busy timeout, so
        the rare busy read (another process recovering the WAL) is retried as writes are.
        """
        conn = self._thread_conn("writer", 0.0)
        return self._until_free(conn, sql, params).fetchone()

    def checkpoint_truncate(self, busy_ms: int = 200) -> None:
        """Copy the WAL into the file and empty it, waiting at most ``busy_ms`` for readers and
        writers in the way (then it stops short: SQLite reports that as a result, not an error).
        """
        conn = self.conn()
        checkpoints = self._checkpoints
        # A pass of the background thread in progress would make this one fail at once.
        turn = nullcontext() if checkpoints is None else checkpoints.lock
        with turn:
            conn.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
            try:
                # Read first: on a connection that has not read since it opened the WAL, SQLite
                # opens it inside the checkpoint's statement with a read that lasts as long as
                # that statement, so the truncation waited for itself, gave up and left the
                # deleted rows in the WAL (the first deletion after the store opened, say).
                conn.execute("PRAGMA schema_version").fetchall()
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            finally:
                conn.execute(f"PRAGMA busy_timeout={int(self._timeout * 1000)}")

    def write(self) -> _WriteTransaction:
        """A write transaction holding the database's write lock from its start:
        ``with db.write() as conn:`` commits when the block ends, rolls back if it raises."""
        return _WriteTransaction(self)

    def errors(self) -> _TranslatedErrors:
        """Translate sqlite3 errors into store errors naming the file (``with db.errors():``)."""
        return _TranslatedErrors(self)

    def translate(self, exc: sqlite3.Error) -> StoreError:
        """The store error for a sqlite3 error."""
        if isinstance(exc, sqlite3.OperationalError):
            text = str(exc)
            if "locked" in text or "busy" in text:
                return StoreUnavailable(
                    f"SQLite store {self.path} is busy: another writer held it for more than "
                    f"{self._timeout:g}s"
                )
            return StoreUnavailable(f"SQLite store {self.path}: {text}")
        return StoreError(f"SQLite store {self.path}: {exc}")

    def close(self) -> None:
        """Close every thread's connection; later use raises ``StoreError``."""
        self._closed = True
        if self._checkpoints is not None:
            # Before the connections: the last one to close checkpoints the WAL into the file.
            self._checkpoints.stop()
        with self._all_lock:
            connections, self._all = self._all, []
        for conn in connections:
            conn.close()


# Context managers as classes, not generators: a save enters two of them, and a generator's
# frame and its ``next`` calls cost more than the rest of the Python around the SQL.


class _WriteTransaction:
    __slots__ = ("_db", "_conn")

    def __init__(self, db: SqliteConnections) -> None:
        self._db = db
        self._conn: sqlite3.Connection | None = None

    def __enter__(self) -> sqlite3.Connection:
        db = self._db
        # Its own connection per thread, without a busy timeout: ``_until_free`` waits instead.
        conn = db._thread_conn("writer", 0.0)
        db._take_process_lock()
        try:
            db._until_free(conn, "BEGIN IMMEDIATE")
        except BaseException:
            db._writer.release()
            raise
        self._conn = conn
        return conn

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        conn, self._conn = self._conn, None
        assert conn is not None
        try:
            if exc_type is None:
                try:
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:  # COMMIT itself failed
                        conn.execute("ROLLBACK")
                    raise
                checkpoints = self._db._checkpoints
                if checkpoints is not None:  # under the process lock: no writer appends
                    checkpoints.committed(conn)
            elif conn.in_transaction:
                conn.execute("ROLLBACK")
        finally:
            self._db._writer.release()


class _TranslatedErrors:
    __slots__ = ("_db",)

    def __init__(self, db: SqliteConnections) -> None:
        self._db = db

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if isinstance(exc, sqlite3.Error):
            raise self._db.translate(exc) from exc
