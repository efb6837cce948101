"""Shared set-up of the demo tests: a temporary data folder and a way to open the app."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from demo_helpers import APP, ROOT, STARTUP_TIMEOUT_S, TIMEOUT_S, TODAY
from streamlit.testing.v1 import AppTest

from loadtests.server import free_port


@pytest.fixture(scope="session", autouse=True)
def demo_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every demo test's embedded account lives in one temporary folder (never data/)."""
    folder = tmp_path_factory.mktemp("demo-data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MOCK_ACCOUNT_DATA", str(folder))
        yield folder


@pytest.fixture
def app() -> AppTest:
    """The demo app, run once (the chat page) once its account has loaded."""
    from demo_app.first_screen import code_loading
    from demo_app.ui_session import embedded_client
    from mock_account.deployment import project_data_dir

    code_loading().result()
    embedded_client(str(project_data_dir()))
    return AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()


@pytest.fixture
def demo_url(tmp_path: Path) -> Iterator[str]:
    """The demo as ``make demo`` starts it (``python -m demo_app``), on a free loopback port
    with a data folder of its own: cold, nothing loaded until the first page is opened."""
    port = free_port()
    env = {**os.environ, "MOCK_ACCOUNT_DATA": str(tmp_path / "data"), "MOCK_ACCOUNT_TODAY": TODAY}
    log = (tmp_path / "streamlit.log").open("wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "demo_app",
            "--server.port",
            str(port),
            "--server.fileWatcherType",
            "none",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"the demo exited: {(tmp_path / 'streamlit.log').read_text()}")
            try:
                if httpx.get(f"{url}/_stcore/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the demo did not start within {STARTUP_TIMEOUT_S} s")
            time.sleep(0.3)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()
