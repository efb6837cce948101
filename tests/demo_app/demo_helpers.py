"""Helpers shared by the demo tests (a module of its own: several conftest.py files exist)."""

from __future__ import annotations

import shutil
from pathlib import Path

from missing import missing
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "demo_app" / "app.py"
TIMEOUT_S = 90
# The day the browser tests pin, so that "next Tuesday" is the same date in every run.
TODAY = "2026-11-30"
NEXT_TUESDAY = "2026-12-08"
STARTUP_TIMEOUT_S = 60
ANSWER_TIMEOUT_MS = 60_000
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def chromium() -> str:
    """Debian's Chromium; the test skips without it, except under CI=true where it fails."""
    path = shutil.which("chromium")
    if path is None:
        missing("chromium is not installed (apt-get install chromium)")
    return path


def texts(at: AppTest) -> list[str]:
    """Every markdown, caption, alert and expander label on the page."""
    found = [str(e.value) for e in at.markdown]
    for kind in ("caption", "error", "warning", "info", "success"):
        found.extend(str(e.value) for e in getattr(at, kind))
    found.extend(str(e.proto.label) for e in at.expander)
    return found


def chat(at: AppTest, text: str) -> AppTest:
    at.chat_input[0].set_value(text).run()
    assert not at.exception, at.exception
    return at


def best_agent(request: str) -> str:
    """The agent search puts first for ``request`` (what the demo runs by default)."""
    from demo_app.catalog import load_catalog

    return load_catalog().index.search(request, limit=1)[0].agent_name


def labelled_request(close: bool) -> str:
    """A labelled request whose two best matches are close (or clearly apart).

    Found in the evaluation set rather than hard-coded, so a retuned search still has one.
    """
    import yaml

    from demo_app.catalog import load_catalog
    from demo_app.search_choice import CLOSE_RATIO

    index = load_catalog().index
    folder = Path(__file__).resolve().parents[2] / "agents_catalog" / "evaluation"
    for path in sorted(folder.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text()):
            hits = index.search(case["query"], limit=2)
            if len(hits) < 2:
                continue
            ratio = hits[1].score / hits[0].score
            if (close and ratio >= CLOSE_RATIO) or (not close and ratio < 0.6):
                return str(case["query"])
    raise AssertionError(f"no labelled request with {'close' if close else 'distant'} matches")
