"""The Workflows & outbox page: progress with goals and history, approvals, the outbox."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from demo_helpers import texts
from streamlit.testing.v1 import AppTest


def _page(at: AppTest) -> AppTest:
    at.switch_page("screens/workflows.py").run()
    assert not at.exception, at.exception
    return at


def _outbox(at: AppTest) -> Any:
    """The outbox table (the one with a ``delivered`` column), or ``None``."""
    return next((d.value for d in at.dataframe if "delivered" in d.value.columns), None)


def test_the_default_account_shows_its_two_workflows(app: AppTest) -> None:
    _page(app)
    shown = texts(app)
    assert "### New-hire onboarding" in shown and "### Supplier onboarding" in shown
    assert not any("declares a workflow" in str(i.value) for i in app.info)


def test_a_stage_with_open_goals_cannot_be_left(app: AppTest) -> None:
    _page(app)
    assert any("stage **Paperwork**" in t for t in texts(app))
    app.button(key="advance:new_hire_onboarding").click().run()
    assert any("stage 'paperwork' is not complete" in str(e.value) for e in app.error)
    app.text_input(key="wf:new_hire_onboarding:legal_name").input("Ann Lee")
    app.text_input(key="wf:new_hire_onboarding:start_date").input("2026-12-07")
    app.text_input(key="wf:new_hire_onboarding:contract_signed").input("yes")
    app.button(key="submit:new_hire_onboarding").click().run()
    assert not app.error, [e.value for e in app.error]
    assert any(
        "Saved legal_name, start_date and contract_signed for New-hire onboarding." == s.value
        for s in app.success
    )
    app.button(key="advance:new_hire_onboarding").click().run()
    assert any("Moved to stage 'equipment'" in str(s.value) for s in app.success)
    assert any("stage **Equipment**" in t for t in texts(app))


def _action_ids(at: AppTest) -> list[str]:
    """The ids of the actions on the page (in the keys of their buttons, never on screen)."""
    return [b.key.split(":", 1)[1] for b in at.button if b.key and b.key.startswith("approve:")]


def test_an_email_waits_for_approval_and_lands_in_the_outbox_once(app: AppTest) -> None:
    _page(app)
    app.text_input(key="outbox:subject").input("Closed on Friday for the move")
    app.button(key="propose").click().run()
    assert any(
        "Proposed the email “Closed on Friday for the move”: it waits for your approval."
        == str(s.value)
        for s in app.success
    )
    [action_id] = _action_ids(app)
    assert "**email** to team@example.com: Closed on Friday for the move" in texts(app)
    assert "waiting for approval" in texts(app)
    assert not any(action_id in t for t in texts(app))  # no raw id on screen
    assert _outbox(app) is None and any("Nothing delivered yet." in t for t in texts(app))
    app.button(key=f"approve:{action_id}").click().run()
    assert any(
        "Approved the email “Closed on Friday for the move”: delivered." == str(s.value)
        for s in app.success
    )
    rows = _outbox(app)
    assert rows is not None
    assert list(rows["what"]) == ["Closed on Friday for the move"]
    assert list(rows["to"]) == ["team@example.com"]
    assert _action_ids(app) == []  # approved once: no second approval offered


def test_the_administrator_approves_for_an_email_sender(app: AppTest, demo_data_dir: Path) -> None:
    """An email sender has no dashboard: the administrator picks the identity, sees the action
    proposed in its conversation and approves it; it is not among the administrator's own."""
    from demo_app.channels_client import ChannelsClient
    from demo_app.ui_session import embedded_client

    app.switch_page("screens/inbox.py").run()
    app.selectbox(key="inbox-channel").set_value("email").run()
    app.text_input(key="inbox-sender").set_value("cleo@example.com").run()
    app.button(key="inbox-send").click().run()
    deployment = embedded_client(str(demo_data_dir)).deployment
    admin = deployment.users.users[0].email
    identity = next(
        i["identity"]
        for group in ChannelsClient(embedded_client(str(demo_data_dir)), admin).contacts()
        for i in group["identities"]
        if i["sender"] == "cleo@example.com"
    )
    assert deployment.actions is not None
    made, _ = deployment.actions.propose(
        deployment.users.users[0].account,
        f"email:{identity}",
        kind="email",
        payload={"to": "cleo@example.com", "subject": "Your kit has shipped", "body": "Soon."},
    )
    app.switch_page("screens/inbox.py").run()
    assert any("1 action(s) await approval" in t for t in texts(app))
    _page(app)
    assert made["actionId"] not in _action_ids(app)
    whose = app.selectbox(key="wf-whose-label")
    label = next(o for o in whose.options if o.startswith("email: cleo@example.com"))
    whose.set_value(label).run()
    assert _action_ids(app) == [made["actionId"]]
    assert "**email** to cleo@example.com: Your kit has shipped" in texts(app)
    assert not [b for b in app.button if b.key == "propose"]
    app.button(key=f"approve:{made['actionId']}").click().run()
    assert any(
        "Approved the email “Your kit has shipped”: delivered." == str(s.value) for s in app.success
    )
    rows = _outbox(app)
    assert rows is not None and list(rows["what"]) == ["Your kit has shipped"]


@pytest.fixture
def own_account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An embedded account of its own, where onboarding has not moved on yet."""
    monkeypatch.setenv("MOCK_ACCOUNT_DATA", str(tmp_path / "data"))


def test_every_value_sent_is_saved_or_refused_with_the_reason(
    own_account: None, app: AppTest
) -> None:
    """The three onboarding fields filled one after the other and sent at once: all three are
    saved (a quick click used to save two and drop start_date without a word)."""
    _page(app)
    app.text_input(key="wf:new_hire_onboarding:legal_name").input("Ann Lee")
    app.text_input(key="wf:new_hire_onboarding:start_date").input("not a date")
    app.text_input(key="wf:new_hire_onboarding:contract_signed").input("yes")
    app.button(key="submit:new_hire_onboarding").click().run()
    [refused] = [str(e.value) for e in app.error]
    assert refused.startswith("Nothing was saved for New-hire onboarding: "), refused
    assert "start_date" in refused
    # Nothing is lost: the values stay in the form, to correct and send again.
    assert app.text_input(key="wf:new_hire_onboarding:legal_name").value == "Ann Lee"
    app.text_input(key="wf:new_hire_onboarding:start_date").input("2026-12-07")
    app.button(key="submit:new_hire_onboarding").click().run()
    assert not app.error, [e.value for e in app.error]
    progress = next(w for w in _client_workflows(app) if w["workflow"] == "new_hire_onboarding")
    assert progress["values"] == {
        "legal_name": "Ann Lee",
        "start_date": "2026-12-07",
        "contract_signed": True,
    }


def _client_workflows(at: AppTest) -> list[dict[str, Any]]:
    from demo_app.ui_session import embedded_client
    from demo_app.workflows_client import WorkflowsClient
    from mock_account.deployment import project_data_dir

    client = embedded_client(str(project_data_dir()))
    return WorkflowsClient(client).workflows(at.session_state["user"])
