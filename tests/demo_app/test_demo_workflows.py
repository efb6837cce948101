"""The Workflows & outbox page: progress with goals and history, approvals, the outbox."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
    app.button(key="advance:new_hire_onboarding").click().run()
    assert any("Moved to stage 'equipment'" in str(s.value) for s in app.success)
    assert any("stage **Equipment**" in t for t in texts(app))


def test_an_email_waits_for_approval_and_lands_in_the_outbox_once(app: AppTest) -> None:
    _page(app)
    app.text_input(key="outbox:subject").input("Closed on Friday for the move")
    app.button(key="propose").click().run()
    notice = next(str(s.value) for s in app.success)
    action_id = notice.split()[1].rstrip(":")
    assert any(f"{action_id} · awaitingApproval" in t for t in texts(app))
    assert _outbox(app) is None and any("Nothing delivered yet." in t for t in texts(app))
    app.button(key=f"approve:{action_id}").click().run()
    assert any(f"Approved {action_id}: done." in str(s.value) for s in app.success)
    rows = _outbox(app)
    assert rows is not None
    assert list(rows["action"]) == [action_id]
    assert list(rows["what"]) == ["Closed on Friday for the move"]


def test_the_administrator_approves_for_an_email_sender(app: AppTest, demo_data_dir: Path) -> None:
    """An email sender has no dashboard: the administrator picks the identity, sees the action
    proposed in its conversation and approves it; it is not among the administrator's own."""
    from demo_app.ui_session import embedded_client

    app.switch_page("screens/inbox.py").run()
    app.selectbox(key="inbox-channel").set_value("email").run()
    app.text_input(key="inbox-sender").set_value("cleo@example.com").run()
    app.button(key="inbox-send").click().run()
    identity = app.success[0].value.rsplit("identity ", 1)[1].rstrip(".")
    deployment = embedded_client(str(demo_data_dir)).deployment
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
    assert not any(made["actionId"] in t for t in texts(app))
    whose = app.selectbox(key="wf-whose-label")
    label = next(o for o in whose.options if o.startswith("email: cleo@example.com"))
    whose.set_value(label).run()
    assert any(f"{made['actionId']} · awaitingApproval" in t for t in texts(app))
    assert not [b for b in app.button if b.key == "propose"]
    app.button(key=f"approve:{made['actionId']}").click().run()
    assert any(f"Approved {made['actionId']}: done." in str(s.value) for s in app.success)
    rows = _outbox(app)
    assert rows is not None and list(rows["what"]) == ["Your kit has shipped"]
