"""The chat page: first minute, a hand-off across two agents, asks as forms, bad input."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from demo_helpers import chat, texts
from streamlit.testing.v1 import AppTest

from demo_app.suggestions import STARTERS

BERLIN = "I need to fly to Berlin next Tuesday for a client meeting"
EXPENSES = "file my travel expenses for that trip"


def _answer_expense_form(at: AppTest) -> AppTest:
    assert len(at.form) == 1
    category = at.selectbox(key="ask1:category")
    assert category.value == "travel"
    assert "meals" in category.options
    at.text_area(key="ask1:business_reason").input("Client meeting with Hoffmann Logistics")
    at.form[0].button[0].click().run()
    assert not at.exception, at.exception
    return at


def test_first_screen_offers_three_starters(app: AppTest) -> None:
    assert not app.exception
    assert any("200 agents" in t for t in texts(app))
    labels = [b.label for b in app.button]
    assert all(starter in labels for starter in STARTERS)


def test_starter_click_shows_agent_department_and_runner_up(app: AppTest) -> None:
    app.button(key="starter:0").click().run()
    assert not app.exception
    shown = texts(app)
    header = next(t for t in shown if t.startswith("**BookBusinessFlight**"))
    assert "travel" in header and "runner-up:" in header and "score" in header
    assert any("Berlin" in t for t in shown)


def test_follow_up_hands_off_via_conv_trip_after_the_ask_form(app: AppTest) -> None:
    chat(app, BERLIN)
    chat(app, EXPENSES)
    assert any("Tell me about the expense" in t for t in texts(app))
    _answer_expense_form(app)
    shown = texts(app)
    assert "↪ handed off from **BookBusinessFlight** via `conv.trip`" in shown
    assert any("Hoffmann Logistics" in t and "Berlin" in t for t in shown)
    assert len(app.form) == 0  # the ask is answered: no form left


def test_suggested_follow_up_is_sent_when_clicked(app: AppTest) -> None:
    chat(app, BERLIN)
    suggestions = [b for b in app.button if b.key and b.key.startswith("suggest:")]
    assert 2 <= len(suggestions) <= 3
    label = suggestions[0].label
    suggestions[0].click().run()
    assert not app.exception
    assert label in texts(app)  # the request went out as the user's message
    assert len(app.session_state["transcript"]) == 2


def test_new_conversation_button_starts_over(app: AppTest) -> None:
    chat(app, BERLIN)
    assert app.session_state["convid"]
    app.button(key="new-conversation").click().run()
    assert app.session_state["convid"] is None
    assert any("200 agents" in t for t in texts(app))


@pytest.mark.parametrize(
    ("typed", "message"),
    [("hi", "at least 8 characters"), ("   ", "Please type a request first")],
)
def test_bad_input_is_a_clear_error(app: AppTest, typed: str, message: str) -> None:
    chat(app, typed)
    assert any(message in e.value for e in app.error)


def test_gibberish_says_no_agent_matches(app: AppTest) -> None:
    chat(app, "qwzxv plmokn bvcxz")
    assert any("No agent matches" in e.value for e in app.error)


class _Refuses(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        body = b'{"success": false, "error": {"message": "not authenticated"}}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


@pytest.fixture
def refusing_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Refuses)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _connect(at: AppTest, url: str, token: str) -> AppTest:
    at.sidebar.radio(key="mode").set_value("Server (URL + token)").run()
    at.sidebar.text_input(key="server_url").input(url)
    at.sidebar.text_input(key="server_token").input(token)
    at.sidebar.button(key="connect").click().run()
    assert not at.exception, at.exception
    return at


def test_wrong_token_is_a_clear_error(app: AppTest, refusing_server: str) -> None:
    _connect(app, refusing_server, "s2o_wrong")
    assert any("refused the token (401)" in e.value for e in app.sidebar.error)
    chat(app, BERLIN)
    assert any("Not connected to a server" in e.value for e in app.error)


def test_unreachable_server_is_a_clear_error(app: AppTest) -> None:
    _connect(app, "http://127.0.0.1:9", "s2o_token")
    assert any("Cannot reach the server" in e.value for e in app.sidebar.error)


def test_not_a_url_is_a_clear_error(app: AppTest) -> None:
    _connect(app, "berlin", "s2o_token")
    assert any("is not a server URL" in e.value for e in app.sidebar.error)


def test_another_agent_while_an_ask_waits_keeps_the_form(app: AppTest) -> None:
    chat(app, BERLIN)
    chat(app, EXPENSES)
    chat(app, "Pull up the account for Hoffmann Logistics")
    assert any("could not answer (unknownConversation)" in e.value for e in app.error)
    _answer_expense_form(app)
    assert "↪ handed off from **BookBusinessFlight** via `conv.trip`" in texts(app)


def _form_app() -> None:
    import streamlit as st

    from demo_app.views import AskForm
    from demo_app.widgets import render_ask_form

    form = AskForm.from_wire(
        {
            "message": "A few details",
            "inputs": [
                {"name": "who", "type": "str", "label": "Who", "default": "Ada"},
                {"name": "pin", "type": "password", "label": "PIN"},
                {"name": "notes", "type": "text", "label": "Notes"},
                {
                    "name": "class",
                    "type": "chooseOne",
                    "label": "Class",
                    "options": ["economy", "business"],
                    "default": "business",
                },
                {
                    "name": "seat",
                    "type": "chooseOne",
                    "label": "Seat",
                    "options": ["aisle", "window", "middle", "front", "back"],
                },
                {
                    "name": "extras",
                    "type": "chooseMany",
                    "label": "Extras",
                    "options": ["wifi", "meal", "lounge"],
                    "default": ["meal"],
                },
                {
                    "name": "source",
                    "type": "str",
                    "label": "Source",
                    "hidden": True,
                    "default": "demo",
                },
            ],
        }
    )
    render_ask_form(form, "t", lambda answers: st.session_state.update(sent=answers))


def test_each_input_type_gets_its_widget_and_answers_come_back_flat() -> None:
    at = AppTest.from_function(_form_app).run()
    assert at.text_input(key="t:who").value == "Ada"
    assert at.text_input(key="t:pin").proto.type == at.text_input(key="t:pin").proto.PASSWORD
    assert at.text_area(key="t:notes").label == "Notes"
    assert at.radio(key="t:class").value == "business"
    assert at.selectbox(key="t:seat").options == ["aisle", "window", "middle", "front", "back"]
    assert at.multiselect(key="t:extras").value == ["meal"]
    assert not [w for w in at.text_input if w.label == "Source"]
    at.text_input(key="t:pin").input("1234")
    at.text_area(key="t:notes").input("aisle please")
    at.multiselect(key="t:extras").select("wifi")
    at.form[0].button[0].click().run()
    assert at.session_state["sent"] == {
        "who": "Ada",
        "pin": "1234",
        "notes": "aisle please",
        "class": "business",
        "seat": "aisle",
        "extras": ["meal", "wifi"],
        "source": "demo",
    }
