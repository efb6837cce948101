"""Helpers shared by the demo tests (a module of its own: several conftest.py files exist)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[2] / "demo_app" / "app.py"
TIMEOUT_S = 90


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
