"""Start and stop an agent server (``mock-account serve``) as a child process.

The one launcher of the project: ``loadtests run`` and ``loadtests bench-http`` use it, and so
do the tests that need a real server. The server listens on a free loopback port, logs to a file
(whose tail is part of the error when it does not come up), and is stopped (terminate, then kill
after a grace period) when the ``with`` block ends.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

import httpx
import psutil

LOOPBACK = "127.0.0.1"
START_TIMEOUT_S = 180.0
STOP_GRACE_S = 10.0


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its live descendants (uvicorn's workers)."""
    try:
        root = psutil.Process(pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


class ServerError(RuntimeError):
    """The local server did not start."""


def free_port(host: str = LOOPBACK) -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def stop_process(process: subprocess.Popen) -> None:
    """Terminate a child process, killing it if it does not exit within the grace period."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_GRACE_S)


class ServerProcess:
    """``with ServerProcess(["--store", "memory://"]) as server: httpx.get(server.url + ...)``.

    Starts the server with this interpreter, waits (at most ``startup_s``) until ``/health``
    answers, and stops it on exit. The log goes to ``log_path`` (default: a temporary folder
    removed on exit); ``env`` adds environment variables for the server.
    """

    def __init__(
        self,
        args: Sequence[str] = (),
        *,
        startup_s: float = 60.0,
        host: str = LOOPBACK,
        log_path: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.args = list(args)
        self.startup_s = startup_s
        self.host = host
        self.port = 0
        self.env = dict(env or {})
        self._process: subprocess.Popen[bytes] | None = None
        self._log_dir = (
            None if log_path else tempfile.TemporaryDirectory(prefix="mock-account-serve-")
        )
        self.log_path = log_path or Path(self._log_dir.name) / "server.log"  # type: ignore[union-attr]

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def start(self) -> ServerProcess:
        self.port = free_port(self.host)
        command = [
            sys.executable,
            "-m",
            "mock_account.cli",
            "serve",
            "--host",
            self.host,
            "--port",
            str(self.port),
            *self.args,
        ]
        env = {**os.environ, **self.env}
        with self.log_path.open("wb") as log:
            self._process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + self.startup_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise ServerError(
                    f"the server exited with code {self._process.returncode}:\n{self.log_tail()}"
                )
            try:
                if httpx.get(f"{self.url}/health", timeout=1.0).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise ServerError(
            f"the server did not answer within {self.startup_s:g} s:\n{self.log_tail()}"
        )

    def cpu_seconds(self) -> float:
        """CPU seconds the server's processes have used so far (0 when not running)."""
        return 0.0 if self._process is None else tree_cpu_seconds(self._process.pid)

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            stop_process(process)

    def _cleanup(self) -> None:
        if self._log_dir is not None:
            self._log_dir.cleanup()

    def __enter__(self) -> ServerProcess:
        try:
            return self.start()
        except BaseException:
            self.stop()
            self._cleanup()
            raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
        self._cleanup()


@contextmanager
def local_server(
    folder: Path, store_url: str | None = None, workers: int = 1
) -> Iterator[ServerProcess]:
    """Run the server with ``workers`` processes, its data and ``server.log`` in ``folder``.

    Without the access log (``--log-level warning``): a log line per request is CPU the
    measured server would not spend in production behind its own load balancer's log.
    """
    folder.mkdir(parents=True, exist_ok=True)
    args = ["--workers", str(workers), "--log-level", "warning"]
    args += ["--store", store_url] if store_url else []
    server = ServerProcess(
        args,
        startup_s=START_TIMEOUT_S,
        log_path=folder / "server.log",
        env={"MOCK_ACCOUNT_DATA": str(folder / "server-data")},
    )
    try:
        server.start()
    except ServerError as exc:
        server.stop()
        raise ServerError(f"{exc}\nsee {folder / 'server.log'}") from None
    try:
        yield server
    finally:
        server.stop()
