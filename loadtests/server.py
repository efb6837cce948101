"""Start and stop a local agent server (``mock-account serve``) for a load test.

The server listens on a free loopback port, keeps its data (keyring, SQLite store) in a folder of
the run's output unless a store URL is given, and logs to ``server.log`` there. It is stopped
(terminate, then kill after a grace period) when the ``with`` block ends.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}
START_TIMEOUT_S = 180.0
STOP_GRACE_S = 10.0


class ServerError(RuntimeError):
    """The local server did not start, or the target is not a loopback address."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def check_loopback(url: str) -> str:
    """``url`` without a trailing slash, if it is an http(s) URL of a loopback host."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServerError(f"--host must be an http:// URL, got {url!r}")
    if parts.hostname not in LOOPBACK_HOSTS:
        raise ServerError(
            f"--host {url} is not a loopback address: load tests only target 127.0.0.1, "
            "localhost or ::1"
        )
    return url.rstrip("/")


def wait_healthy(base_url: str, timeout_s: float, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout_s
    last = "no answer"
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise ServerError(f"the server exited with code {process.returncode} while starting")
        try:
            response = httpx.get(f"{base_url}/health", timeout=2.0)
            if response.status_code == 200:
                return
            last = f"HTTP {response.status_code}"
        except httpx.HTTPError as exc:
            last = type(exc).__name__
        time.sleep(0.25)
    raise ServerError(f"the server at {base_url} was not healthy after {timeout_s:g}s ({last})")


@contextmanager
def local_server(folder: Path, store_url: str | None = None, workers: int = 1) -> Iterator[str]:
    """Run ``mock-account serve`` with ``workers`` processes on a free loopback port; its URL."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "mock_account.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    if store_url:
        command += ["--store", store_url]
    env = {**os.environ, "MOCK_ACCOUNT_DATA": str(folder / "server-data")}
    base_url = f"http://127.0.0.1:{port}"
    with open(folder / "server.log", "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            try:
                wait_healthy(base_url, START_TIMEOUT_S, process)
            except ServerError as exc:
                raise ServerError(f"{exc}; see {folder / 'server.log'}") from None
            yield base_url
        finally:
            stop_process(process)


def stop_process(process: subprocess.Popen) -> None:
    """Terminate a child process, killing it if it does not exit within the grace period."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_GRACE_S)
