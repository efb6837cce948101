"""The first screen paints before the account has loaded, and a request sent meanwhile waits."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from demo_helpers import APP, TIMEOUT_S, texts
from streamlit.testing.v1 import AppTest

from demo_app.first_screen import PRODUCT_NAME, STARTERS, code_loading
from demo_app.inprocess_client import InProcessClient
from demo_app.ui_session import account_loading, embedded_client
from demo_app.views import ClientError

SLOW_STAGE = "Opening the encrypted store and the 200 agents…"


@pytest.fixture
def slow_account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """An account of its own whose loading waits until the event returned is set."""
    code_loading().result()  # the demo's code is loaded: only the account is slow here
    monkeypatch.setenv("MOCK_ACCOUNT_DATA", str(tmp_path / "data"))
    release = threading.Event()
    load = InProcessClient.embedded.__func__  # type: ignore[attr-defined]

    def slow(cls: type[InProcessClient], config: Any = None, progress: Any = None) -> Any:
        progress(SLOW_STAGE)
        release.wait(TIMEOUT_S)
        return load(cls, config, progress)

    monkeypatch.setattr(InProcessClient, "embedded", classmethod(slow))
    yield release
    release.set()


def test_the_chat_opening_paints_while_the_account_loads(slow_account: threading.Event) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
    assert not at.exception, at.exception
    assert at.title[0].value == PRODUCT_NAME
    assert [b.label for b in at.button] == list(STARTERS)
    assert any(SLOW_STAGE in str(i.value) for i in at.info)  # in the main area
    assert len(at.chat_input) == 1
    assert not at.sidebar.selectbox  # who to act as comes with the account


def test_a_request_sent_while_the_account_loads_goes_out_once_it_is_ready(
    slow_account: threading.Event, tmp_path: Path
) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
    at.button(key="starter:0").click().run()
    assert not at.exception, at.exception
    assert STARTERS[0] in texts(at)
    assert any("goes out as soon as the account is ready" in str(i.value) for i in at.info)
    assert "transcript" not in at.session_state  # nothing was sent yet

    slow_account.set()
    embedded_client(str(tmp_path / "data"))
    at.run()
    assert not at.exception, at.exception
    [entry] = at.session_state["transcript"]
    assert entry.sent == STARTERS[0]
    assert entry.answer.agent == "BookBusinessFlight" and entry.answer.success
    assert not any(SLOW_STAGE in str(i.value) for i in at.info)


def test_a_request_typed_while_the_account_loads_goes_out_once_it_is_ready(
    slow_account: threading.Event, tmp_path: Path
) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
    at.chat_input[0].set_value("Pull up the account for Hoffmann Logistics").run()
    assert "Pull up the account for Hoffmann Logistics" in texts(at)
    slow_account.set()
    embedded_client(str(tmp_path / "data"))
    at.run()
    [entry] = at.session_state["transcript"]
    assert entry.sent == "Pull up the account for Hoffmann Logistics" and entry.answer.success


def test_an_account_that_cannot_load_says_why_and_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code_loading().result()
    folder = tmp_path / "not-a-folder"
    folder.write_text("a file where the data folder should be")
    monkeypatch.setenv("MOCK_ACCOUNT_DATA", str(folder))
    failed = account_loading(str(folder))
    with pytest.raises(ClientError):
        failed.result(TIMEOUT_S)
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
    assert not at.exception, at.exception
    assert any("The embedded account cannot start" in str(i.value) for i in at.sidebar.info)
    # Reported, the failed loading is forgotten: a request tries again, and says why it fails.
    again = account_loading(str(folder))
    assert again is not failed
    at.button(key="starter:0").click().run()  # queued: the account is loading again
    with pytest.raises(ClientError):
        again.result(TIMEOUT_S)
    at.run()
    assert not at.exception, at.exception
    assert any("The embedded account cannot start" in str(e.value) for e in at.error)
