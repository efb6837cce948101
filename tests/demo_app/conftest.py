"""Shared set-up of the demo tests: a temporary data folder and a way to open the app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from demo_helpers import APP, TIMEOUT_S
from streamlit.testing.v1 import AppTest


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
