"""Private Redis and PostgreSQL servers on free loopback ports, to stop and restart at will.

The machine's shared servers are never touched: each instance lives in its own temporary
folder and is shut down and removed afterwards. PostgreSQL refuses to run as root, so its
folder belongs to the ``postgres`` user and its commands run as that user (``runuser``).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from loadtests.server import free_port

LOOPBACK = "127.0.0.1"
START_S = 60.0


class CannotStart(RuntimeError):
    """A private server cannot be started on this machine (the reason is the message)."""


def _run(command: list[str], timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


class PrivateRedis:
    """``redis-server`` without persistence settings; ``stop`` still saves, ``start`` reloads."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{LOOPBACK}:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise CannotStart("redis-server is not on PATH")
        command = [
            binary,
            "--port",
            str(self.port),
            "--bind",
            LOOPBACK,
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.folder),
            "--dbfilename",
            "dump.rdb",
        ]
        log = (self.folder / "redis.log").open("ab")
        self._process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise CannotStart(f"redis-server exited with code {self._process.returncode}")
            try:
                with redis.Redis(host=LOOPBACK, port=self.port, socket_timeout=1) as probe:
                    if probe.ping():
                        return
            except redis.RedisError:
                time.sleep(0.05)
        raise CannotStart(f"redis-server did not answer within {START_S:g} s")

    def stop(self) -> None:
        """Shut down, saving the data first (as a restarted production server would have it)."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            with redis.Redis(host=LOOPBACK, port=self.port, socket_timeout=10) as client:
                client.shutdown(save=True)
        except redis.RedisError:
            pass  # it went away while answering, which is what shutting down is
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)

    def kill(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise CannotStart("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
    return Path(found[-1]).parent


class PrivatePostgres:
    """A throwaway cluster (``initdb``, trust auth, fsync off) run by ``pg_ctl``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self._bin = _postgres_bin()
        self._running = False

    @property
    def url(self) -> str:
        return f"postgresql://postgres@{LOOPBACK}:{self.port}/postgres"

    def _as_postgres(self, *command: str) -> subprocess.CompletedProcess[str]:
        if os.geteuid() == 0:
            return _run(["runuser", "-u", "postgres", "--", *command])
        return _run(list(command))

    def init(self) -> None:
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                raise CannotStart("running as root and runuser is missing")
            shutil.chown(self.folder, "postgres", "postgres")
        done = self._as_postgres(
            str(self._bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )
        if done.returncode != 0:
            raise CannotStart(f"initdb failed: {(done.stderr or done.stdout).strip()[-400:]}")

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses={LOOPBACK} "
            f"-c unix_socket_directories={self.folder} -c fsync=off "
            "-c full_page_writes=off -c synchronous_commit=off"
        )
        done = self._as_postgres(
            str(self._bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "postgres.log"),
            "-w",
            "-t",
            str(int(START_S)),
            "start",
        )
        if done.returncode != 0:
            raise CannotStart(f"pg_ctl start failed: {(done.stderr or done.stdout).strip()}")
        self._running = True

    def stop(self, mode: str = "fast") -> None:
        if not self._running:
            return
        self._running = False
        self._as_postgres(str(self._bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")


@contextmanager
def private_folder(prefix: str) -> Iterator[Path]:
    """A folder outside pytest's (root-only) temporary tree, so another user may own it."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    with private_folder("rel-redis-") as folder:
        server = PrivateRedis(folder)
        try:
            server.start()
            yield server
        finally:
            server.kill()


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    with private_folder("rel-postgres-") as folder:
        server = PrivatePostgres(folder)
        try:
            server.init()
            server.start()
            yield server
        finally:
            server.stop("immediate")
