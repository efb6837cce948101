"""Run ``mock-account serve`` as a child process on a free loopback port (benchmarks, tests)."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import httpx

LOOPBACK = "127.0.0.1"


def free_port(host: str = LOOPBACK) -> int:
    """A port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``with ServerProcess(["--store", "memory://"]) as server: httpx.get(server.url + ...)``.

    Starts the server with this interpreter, waits (at most ``startup_s``) until ``/health``
    answers, and stops it on exit (terminate, then kill). The server's output goes to a log file
    whose tail is part of the error when it does not come up.
    """

    def __init__(
        self, args: Sequence[str] = (), *, startup_s: float = 60.0, host: str = LOOPBACK
    ) -> None:
        self.args = list(args)
        self.startup_s = startup_s
        self.host = host
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._log_dir = tempfile.TemporaryDirectory(prefix="mock-account-serve-")
        self.log_path = Path(self._log_dir.name) / "server.log"

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
        with self.log_path.open("wb") as log:
            self._process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + self.startup_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(
                    f"the server exited with code {self._process.returncode}:\n{self.log_tail()}"
                )
            try:
                if httpx.get(f"{self.url}/health", timeout=1.0).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(
            f"the server did not answer within {self.startup_s:g} s:\n{self.log_tail()}"
        )

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)

    def __enter__(self) -> ServerProcess:
        try:
            return self.start()
        except BaseException:
            self.stop()
            self._log_dir.cleanup()
            raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
        self._log_dir.cleanup()
