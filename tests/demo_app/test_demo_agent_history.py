"""The Agent history page: edit live, see the version and its diff, restore, undo the restore;
and the configuration client over HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from demo_helpers import chat, texts
from fastapi.testclient import TestClient
from streamlit.testing.v1 import AppTest

from demo_app.config_client import ConfigRefusedError, HttpConfigClient
from demo_app.views import ClientError
from mock_account.api import create_app
from mock_account.deployment import AccountConfig, build_deployment

AGENT = "AnswerOutageQuestion"


@pytest.fixture(autouse=True)
def own_account(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An embedded account of its own: the edits made here never reach other demo tests."""
    monkeypatch.setenv("MOCK_ACCOUNT_DATA", str(tmp_path / "data"))


def _page(at: AppTest) -> AppTest:
    at.switch_page("screens/agent_history.py").run()
    assert not at.exception, at.exception
    return at


def _editor(at: AppTest, agent: str, section: str = "description") -> Any:
    prefix = f"hist-text-{agent}-{section}-"
    return next(t for t in at.text_area if t.key and t.key.startswith(prefix))


def _rows(at: AppTest) -> list[tuple[int, str, str]]:
    frame = at.dataframe[0].value
    return list(zip(frame["version"], frame["current"], frame["how"], strict=True))


def test_edit_diff_restore_and_undo(app: AppTest) -> None:
    _page(app)
    app.selectbox(key="hist-agent").set_value(AGENT).run()
    assert _rows(app) == [(0, "yes", "file")]
    original = _editor(app, AGENT).value
    assert "title: Tell a customer about a known service outage" in original
    edited = original.replace(
        "title: Tell a customer about a known service outage",
        "title: Tell a customer about an outage of ours",
    )
    _editor(app, AGENT).input(edited)
    app.form[0].button[0].click().run()
    assert not app.exception, app.exception
    assert "Saved description as version 1" in app.success[0].value
    assert _rows(app) == [(1, "yes", "edit"), (0, "", "file")]
    diff = app.code[0].value
    assert '-  "title": "Tell a customer about a known service outage"' in diff
    assert '+  "title": "Tell a customer about an outage of ours"' in diff

    app.button(key="hist-restore-description").click().run()
    assert "Restored version 0 of description as version 2" in app.success[0].value
    assert [r[:2] for r in _rows(app)] == [(2, "yes"), (1, ""), (0, "")]
    app.selectbox(key="hist-pick-description").set_value(1).run()
    app.button(key="hist-restore-description").click().run()
    assert "Restored version 1 of description as version 3" in app.success[0].value
    assert "title: Tell a customer about an outage of ours" in _editor(app, AGENT).value


def test_a_version_equal_to_the_current_one_offers_no_restore(app: AppTest) -> None:
    _page(app)
    app.selectbox(key="hist-agent").set_value(AGENT).run()
    original = _editor(app, AGENT).value
    _editor(app, AGENT).input(original.replace("known service outage", "outage of ours"))
    app.form[0].button[0].click().run()
    app.button(key="hist-restore-description").click().run()  # version 0 again, as version 2
    app.selectbox(key="hist-pick-description").set_value(0).run()
    assert not app.exception, app.exception
    assert "Version 0 is the same as the current one: nothing to restore." in texts(app)
    assert not [b for b in app.button if b.key == "hist-restore-description"]
    assert not [c for c in app.code if "(no difference)" in c.value]
    app.selectbox(key="hist-pick-description").set_value(1).run()
    assert app.button(key="hist-restore-description").label == "Restore version 1"


def test_a_clone_is_listed_and_has_no_history(app: AppTest) -> None:
    _page(app)
    app.selectbox(key="hist-agent").set_value(AGENT).run()
    app.text_input(key="hist-clone-name").input("OutageAnswersCopy")
    app.form[-1].button[0].click().run()
    assert not app.exception, app.exception
    assert "Cloned AnswerOutageQuestion as OutageAnswersCopy" in app.success[0].value
    assert "OutageAnswersCopy" in app.selectbox(key="hist-agent").options
    app.selectbox(key="hist-agent").set_value("OutageAnswersCopy").run()
    assert _rows(app) == [(1, "yes", "clone")]
    app.text_input(key="hist-clone-name").input("bad name!")
    app.form[-1].button[0].click().run()
    assert any("is invalid" in e.value for e in app.error)


def test_the_chat_uses_an_edit_at_once(app: AppTest) -> None:
    _page(app)
    app.selectbox(key="hist-agent").set_value("AnnounceItOutageToStaff").run()
    text = _editor(app, "AnnounceItOutageToStaff").value
    _editor(app, "AnnounceItOutageToStaff").input(
        text.replace("examples:\n", "examples:\n- Shout about the capybara outage to everyone\n")
    )
    app.form[0].button[0].click().run()
    assert not app.exception, app.exception
    app.switch_page("screens/chat.py").run()
    chat(app, "Shout about the capybara outage to everyone")
    assert any("AnnounceItOutageToStaff" in text for text in texts(app))


def test_http_config_client(tmp_path) -> None:
    deployment = build_deployment(
        AccountConfig(data_dir=tmp_path, store_url="memory://", search="bm25")
    )
    try:
        token = deployment.users.tokens()[0].token
        with TestClient(create_app(deployment)) as server:
            client = HttpConfigClient("http://testserver", token, http=server)
            config = client.get(AGENT)
            commands = config["sections"]["commands"]
            commands["main"].insert(
                1, {"var": {"name": "conv.incidents", "value": {"service": "x"}}}
            )
            with pytest.raises(ConfigRefusedError) as refused:
                client.save(AGENT, "commands", commands)
            assert any(f["suggestion"] == "conv.incident" for f in refused.value.findings)
            description = dict(config["sections"]["description"], title="Outage answers")
            saved = client.save(AGENT, "description", description, base_revision=0)
            assert saved["revision"] == 1
            assert (
                client.versions(AGENT, "description")["sections"]["description"][0]["origin"]
                == "edit"
            )
            assert '+  "title": "Outage answers"' in client.diff(AGENT, "description", 0)
            assert client.restore(AGENT, "description", 0)["revision"] == 2
            with pytest.raises(ClientError, match="not 0"):
                client.save(AGENT, "description", description, base_revision=0)
    finally:
        deployment.close()
