"""Shared set-up of the demo tests: a temporary data folder and a way to open the app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[2] / "demo_app" / "app.py"
TIMEOUT_S = 90


@pytest.fixture(scope="session", autouse=True)
def demo_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every demo test's embedded account lives in one temporary folder (never data/)."""
    folder = tmp_path_factory.mktemp("demo-data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MOCK_ACCOUNT_DATA", str(folder))
        yield folder


@pytest.fixture
def app() -> AppTest:
    """The demo app, run once (the chat page)."""
    return AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()


def texts(at: AppTest) -> list[str]:
    """Every markdown, caption and alert text on the page."""
    found = [str(e.value) for e in at.markdown]
    for kind in ("caption", "error", "warning", "info", "success"):
        found.extend(str(e.value) for e in getattr(at, kind))
    return found


def chat(at: AppTest, text: str) -> AppTest:
    at.chat_input[0].set_value(text).run()
    assert not at.exception, at.exception
    return at
