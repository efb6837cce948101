"""WAL checkpoints of a SQLite file run by a background thread instead of inside a commit.

SQLite's automatic checkpoint runs in the ``COMMIT`` that takes the WAL to 1000 pages: that one
save copies the WAL into the database file and syncs both, some 4 ms where a commit takes about
0.1 ms, and a save writes a table and two indexes, so it reaches the mark more often than a
one-table upsert (the save p99 at ``synchronous=NORMAL`` was about 5x a raw upsert's). Here the
connections commit with the automatic checkpoint off and a thread per file checkpoints instead:

- After each commit, the writer reads two numbers of the WAL-index header in the ``-shm`` file
  (one ``pread``, about a microsecond; the header is SQLite's documented file format, written in
  the machine's byte order): the WAL's length and how much of it is already in the database file.
  With 1000 pages or more not yet copied, it wakes the thread.
- The thread runs ``PRAGMA wal_checkpoint(PASSIVE)``: it copies what no reader still needs and
  never takes the write lock, so saves go on meanwhile, in this process and in the others. A pass
  that finds nothing appended behind it lets the next writer start the WAL over from its start,
  as after SQLite's own checkpoint. The thread's connection has the store's ``synchronous``:
  SQLite syncs the WAL before a checkpoint and the file after it as that setting says.
- No ``RESTART`` or ``TRUNCATE`` while saves come: both take the write lock and hold saves up
  while they copy and sync, which is what this moves out of the saves; truncating also makes the
  next writes grow the file again (slower syncs at ``synchronous=FULL``). Once the file has been
  quiet for a second, the thread copies the rest, so a burst of writes does not stay in the WAL
  only, and truncates a WAL file grown past twice the threshold (its connection waits for
  nobody: with a writer or reader in the way it copies what it can and leaves the file). The
  store also empties the WAL after deletions (``SqliteConnections.checkpoint_truncate``, which
  waits for a pass of the thread to end: two checkpoints of one file cannot run at once).
- The WAL restarts only when a writer begins with all of it copied. Under a stream of saves
  that never leaves a pass of the thread alone, that moment may not come, so the WAL would grow
  without end: at 10x the threshold the writer, after its commit, checkpoints itself with
  ``RESTART`` (waiting for nobody: the store's writers have no busy timeout), which holds the write
  lock, so it copies everything and the next writer restarts the WAL. If a reader in the way
  stops it short, the writer tries again 1000 pages later, not on every commit.

Durability is SQLite's: a checkpoint only copies committed pages into the database file, after
syncing the WAL, and a process killed in the middle of one leaves a WAL that the next opener
replays. Every process using the file runs its own thread; their passes take turns on SQLite's
checkpoint lock (the one that finds it taken skips that pass).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import struct
import threading
from pathlib import Path

log = logging.getLogger(__name__)

#: Pages of WAL not yet copied into the file that start a pass (SQLite's own default).
THRESHOLD_PAGES = 1000
#: A WAL this many times the threshold long is checkpointed by the writer itself.
FALLBACK_FACTOR = 10
#: Quiet time after which the thread copies what is left below the threshold.
IDLE_S = 1.0

# The WAL-index header (https://www.sqlite.org/walformat.html): its version at offset 0, the page
# size at 14, mxFrame (WAL length in pages) at 16; nBackfill (pages copied) at 96, in WalCkptInfo.
_HEADER_BYTES = 100
_WAL_INDEX_VERSION = 3007000
_VERSION = struct.Struct("=I")
_PAGE = struct.Struct("=H")
_FRAMES = struct.Struct("=I")


class WalCheckpoints:
    """The background checkpoints of one SQLite file in WAL mode, for this process."""

    def __init__(
        self, path: Path, shm: int, *, synchronous: str, threshold: int, idle_s: float
    ) -> None:
        self.path = path
        self._shm = shm
        self._synchronous = synchronous
        self._threshold = threshold
        self._fallback_at = self._limit = threshold * FALLBACK_FACTOR
        self._idle_s = idle_s
        #: Held for each checkpoint this process runs on the file, so they never meet.
        self.lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(
            target=self._run, name=f"sqlite-checkpoints {path.name}", daemon=True
        )

    @classmethod
    def start(
        cls,
        path: Path,
        *,
        synchronous: str,
        threshold: int = THRESHOLD_PAGES,
        idle_s: float = IDLE_S,
    ) -> WalCheckpoints | None:
        """The checkpoints of ``path``, whose WAL a connection of this process has open; None
        when its WAL-index cannot be read, and SQLite's automatic checkpoint should stay on."""
        if not hasattr(os, "pread"):  # not on Windows
            return None
        try:
            shm = os.open(f"{path}-shm", os.O_RDONLY)
        except OSError:
            return None
        try:
            head = os.pread(shm, _HEADER_BYTES, 0)
        except OSError:
            head = b""
        if len(head) < _HEADER_BYTES or _VERSION.unpack_from(head, 0)[0] != _WAL_INDEX_VERSION:
            os.close(shm)
            return None
        checkpoints = cls(path, shm, synchronous=synchronous, threshold=threshold, idle_s=idle_s)
        checkpoints._thread.start()
        return checkpoints

    @staticmethod
    def prepare(conn: sqlite3.Connection) -> None:
        """Turn off the automatic checkpoint of a connection to the file."""
        conn.execute("PRAGMA wal_autocheckpoint=0")

    def _frames(self) -> tuple[int, int]:
        """The WAL's length and the part of it copied into the file, in pages."""
        head = os.pread(self._shm, _HEADER_BYTES, 0)
        return _FRAMES.unpack_from(head, 16)[0], _FRAMES.unpack_from(head, 96)[0]

    def _idle_mode(self) -> str:
        """The checkpoint for a quiet file: TRUNCATE when its WAL file grew past twice the
        threshold (as under a stream of saves that kept it from restarting)."""
        try:
            size = os.path.getsize(f"{self.path}-wal")
            page = _PAGE.unpack_from(os.pread(self._shm, _HEADER_BYTES, 0), 14)[0]
        except (OSError, struct.error):
            return "PASSIVE"
        page = 65536 if page == 1 else page  # how the header writes 64 KB
        return "TRUNCATE" if size > 2 * self._threshold * page else "PASSIVE"

    def committed(self, conn: sqlite3.Connection) -> None:
        """After a commit on ``conn``: wake the thread, or checkpoint here if it fell far behind.

        Call it while no other thread of this process can write (so a fallback copies all).
        """
        try:
            frames, copied = self._frames()
        except (OSError, struct.error):  # closed meanwhile: nothing to do
            return
        if frames - copied >= self._threshold and not self._wake.is_set():
            self._wake.set()
        if frames < self._limit:
            self._fallback_at = self._limit
        elif frames >= self._fallback_at and self.lock.acquire(blocking=False):
            try:
                self._fallback_at = frames + self._threshold
                conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()
            except sqlite3.Error as exc:
                log.warning("SQLite file %s: WAL checkpoint by a writer failed: %s", self.path, exc)
            finally:
                self.lock.release()

    def _run(self) -> None:
        conn: sqlite3.Connection | None = None
        quiet_since = -1  # the WAL length at the last idle look
        try:
            while not self._stopping:
                woken = self._wake.wait(self._idle_s)
                if self._stopping:
                    return
                try:
                    mode = "PASSIVE"
                    if not woken:
                        frames, copied = self._frames()
                        # Under a steady stream the woken passes suffice; copy the rest only
                        # once the writes stopped.
                        idle, quiet_since = frames == quiet_since, frames
                        if not idle:
                            continue
                        mode = self._idle_mode()
                        if frames <= copied and mode == "PASSIVE":
                            continue
                    with self.lock:
                        if self._stopping:
                            return
                        if conn is None:
                            conn = sqlite3.connect(
                                self.path, timeout=0, isolation_level=None, check_same_thread=False
                            )
                            conn.execute(f"PRAGMA synchronous={self._synchronous}")
                            self.prepare(conn)
                        conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchall()
                except (sqlite3.Error, OSError, struct.error) as exc:
                    if self._stopping:  # the WAL-index was released meanwhile
                        return
                    log.warning(
                        "SQLite file %s: background WAL checkpoint failed: %s", self.path, exc
                    )
                    self._wake.clear()
                    self._wake.wait(self._idle_s)  # no busy loop on a lasting failure
                # Cleared after the pass: commits during it still see its pages as not copied.
                self._wake.clear()
        finally:
            if conn is not None:
                conn.close()

    def stop(self, timeout: float = 10.0) -> None:
        """End the thread (after the pass it is in, if any) and release the WAL-index."""
        self._stopping = True
        self._wake.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        if self._shm >= 0:
            shm, self._shm = self._shm, -1
            os.close(shm)
