"""The Inbox page: write as an email and an IM sender, watch the conversation resume."""

from __future__ import annotations

from demo_helpers import texts
from streamlit.testing.v1 import AppTest

ORDER = "The VPN keeps disconnecting on my laptop"


def _send(at: AppTest, channel: str, sender: str, message: str = ORDER) -> str:
    at.selectbox(key="inbox-channel").set_value(channel).run()
    at.text_input(key="inbox-sender").set_value(sender).run()
    at.text_input(key="inbox-message").set_value(message).run()
    at.button(key="inbox-send").click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at.success[0].value


def test_an_email_sender_resumes_and_im_is_another_conversation(app: AppTest) -> None:
    app.switch_page("screens/inbox.py").run()
    assert not app.exception, app.exception
    first = _send(app, "email", "grace.hopper@example.com")
    assert "a new conversation (email: grace.hopper@example.com)" in first
    again = _send(app, "email", "Grace.Hopper@example.com")
    assert "continued their conversation (email: Grace.Hopper@example.com)" in again
    on_im = _send(app, "im", "slack:U0GRACE")
    assert "a new conversation (im: slack:U0GRACE)" in on_im
    labels = [e.proto.label for e in app.expander]
    # Resumed: one email conversation for both emails; the IM sender has one of their own.
    assert sum(label.startswith("[email]") and "grace" in label.lower() for label in labels) == 1
    assert sum(label.startswith("[im]") for label in labels) >= 1
    assert not any(c.value.startswith("identity ") for c in app.caption)
    app.selectbox(key="inbox-filter-channel").set_value("im").run()
    assert all(e.proto.label.startswith("[im]") for e in app.expander)


def test_a_member_is_told_the_inbox_is_the_administrators(app: AppTest) -> None:
    member = app.selectbox(key="user").options[1]
    app.selectbox(key="user").set_value(member).run()
    app.switch_page("screens/inbox.py").run()
    assert not app.exception, app.exception
    assert any("administrator" in t for t in texts(app) + [i.value for i in app.info])


def test_an_email_sender_answers_a_form_by_replying(app: AppTest) -> None:
    app.switch_page("screens/inbox.py").run()
    asked = _send(
        app, "email", "ann.lee@example.org", "I just joined, what's left in my onboarding?"
    )
    assert "CompleteNewHireOnboarding asked for a form; a new conversation" in asked
    assert any("Your legal name: " in c.value for c in app.code)
    replied = _send(
        app,
        "email",
        "ann.lee@example.org",
        "My legal name is Ann Lee, I start on 7 December and I signed the contract",
    )
    assert "CompleteNewHireOnboarding answered; continued their conversation" in replied
    assert any("legal_name = Ann Lee" in t for t in texts(app))
    assert any("stage Equipment" in c.value for c in app.code)
