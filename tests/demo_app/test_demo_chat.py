"""The chat page: first minute, a hand-off across two agents, asks as forms, bad input."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from demo_helpers import best_agent, chat, labelled_request, texts
from streamlit.testing.v1 import AppTest

from demo_app.first_screen import STARTERS

BERLIN = "I need to fly to Berlin next Tuesday for a client meeting"
EXPENSES = "file my travel expenses for that trip: 84.50 SGD of taxis"
HOFFMANN = "Pull up the account for Hoffmann Logistics"
HOTEL = "Book a hotel in Oslo for two nights"
TAXI = "File last week's taxi receipt"
HOTEL_AND_TAXI = f"{HOTEL} and file last week's taxi receipt"
TAXI_THEN_HOTEL = f"{TAXI} and then book a hotel in Oslo for two nights"


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


def test_the_handoff_marker_opens_to_the_fields_of_the_record_used(app: AppTest) -> None:
    chat(app, BERLIN)
    chat(app, EXPENSES)
    _answer_expense_form(app)
    marker = next(e for e in app.expander if "handed off from" in e.proto.label)
    assert marker.proto.label == "↪ handed off from **BookBusinessFlight** via `conv.trip`"
    table = marker.markdown[0].value
    trip = app.session_state["transcript"][0].answer
    booked = trip.parts[0].text
    assert "| destination | Berlin |" in table
    for field in ("start_date", "end_date", "currency"):
        value = table.split(f"| {field} | ", 1)[1].split(" |", 1)[0]
        assert value in booked, (field, value, booked)  # the same facts as the booking said


def test_a_forms_question_is_shown_once(app: AppTest) -> None:
    chat(app, BERLIN)
    chat(app, EXPENSES)
    assert len(app.form) == 1
    assert [t for t in texts(app) if "Tell me about the expense" in t] == [
        "**Tell me about the expense you want to claim.**"
    ]


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


def _held_request_box(at: AppTest) -> AppTest:
    """The Berlin trip, the expense form open, then another request typed meanwhile."""
    chat(at, BERLIN)
    chat(at, EXPENSES)
    chat(at, HOFFMANN)
    return at


def test_a_request_typed_while_the_form_waits_gets_a_choice_not_an_error(app: AppTest) -> None:
    _held_request_box(app)
    assert not app.error  # no bare unknownConversation
    assert not any("unknownConversation" in t for t in texts(app))
    assert any(
        t.startswith("**SubmitExpenseClaim** is still waiting for your answers") and HOFFMANN in t
        for t in texts(app)
    )
    keys = {b.key for b in app.button if b.key and b.key.startswith("held:")}
    assert keys == {"held:after_form", "held:new_conversation", "held:drop"}
    assert len(app.session_state["transcript"]) == 2  # nothing was sent
    assert len(app.form) == 1  # the form is still there


def test_answer_the_form_first_then_the_held_request_is_sent(app: AppTest) -> None:
    _held_request_box(app)
    convid = app.session_state["convid"]
    app.button(key="held:after_form").click().run()
    assert any("will be sent here once you have answered the form" in t for t in texts(app))
    _answer_expense_form(app)
    entries = app.session_state["transcript"]
    assert [e.sent for e in entries][-1] == HOFFMANN
    assert entries[-1].answer.agent == best_agent(HOFFMANN)
    assert entries[-1].answer.success and entries[-1].answer.convid == convid
    assert "↪ handed off from **BookBusinessFlight** via `conv.trip`" in texts(app)
    assert not [b for b in app.button if b.key and b.key.startswith("held:")]


def test_the_held_request_can_start_a_new_conversation(app: AppTest) -> None:
    _held_request_box(app)
    waiting = app.session_state["convid"]
    app.button(key="held:new_conversation").click().run()
    assert not app.exception
    entries = app.session_state["transcript"]
    assert [e.sent for e in entries] == [HOFFMANN]
    assert entries[0].answer.success and app.session_state["convid"] not in (None, waiting)
    assert len(app.form) == 0


def test_the_conversation_left_waiting_can_be_reopened_and_answered(app: AppTest) -> None:
    _held_request_box(app)
    waiting = app.session_state["convid"]
    app.button(key="held:new_conversation").click().run()
    app.switch_page("screens/conversations.py").run()
    app.button(key=f"open:{waiting}").click().run()
    assert not app.exception and app.session_state["convid"] == waiting
    app.switch_page("screens/chat.py").run()  # AppTest stays on the page it was sent to
    assert len(app.form) == 1  # its form is back, rebuilt from the saved paused run
    _answer_expense_form(app)
    assert "↪ handed off from **BookBusinessFlight** via `conv.trip`" in texts(app)


def test_the_held_request_can_be_dropped(app: AppTest) -> None:
    _held_request_box(app)
    app.button(key="held:drop").click().run()
    assert not [b for b in app.button if b.key and b.key.startswith("held:")]
    assert len(app.session_state["transcript"]) == 2 and len(app.form) == 1


def _offer_two(at: AppTest) -> AppTest:
    at.sidebar.radio(key="search_behavior").set_value("showResults").run()
    assert not at.exception, at.exception
    return at


def _choice_buttons(at: AppTest) -> list:
    return [b for b in at.button if b.key and b.key.startswith("choice:")]


def test_run_the_best_match_is_the_default(app: AppTest) -> None:
    radio = app.sidebar.radio(key="search_behavior")
    assert radio.value == "executeTopMatch"
    assert radio.options == ["Run the best match", "Offer the two best"]
    close = labelled_request(close=True)
    chat(app, close)
    assert not _choice_buttons(app)
    assert app.session_state["transcript"][0].answer.agent == best_agent(close)


def test_offer_the_two_best_shows_both_and_runs_the_one_picked(app: AppTest) -> None:
    _offer_two(app)
    close = labelled_request(close=True)
    chat(app, close)
    buttons = _choice_buttons(app)
    assert len(buttons) == 2
    first, second = (b.label.removeprefix("Run ") for b in buttons)
    assert first == best_agent(close) and second != first
    assert any("Two agents match this request about equally well" in t for t in texts(app))
    assert "convid" not in app.session_state  # nothing ran yet
    assert not [b for b in app.button if b.key and b.key.startswith("suggest:")]

    buttons[1].click().run()
    assert not app.exception
    answer = app.session_state["transcript"][0].answer
    assert answer.agent == second and answer.success
    assert f"You chose {second}." in texts(app)
    header = next(t for t in texts(app) if t.startswith(f"**{second}**"))
    assert f"— also offered: {first} (" in header  # the one not picked ranked first
    assert not _choice_buttons(app) and app.session_state["convid"]


def test_offer_the_two_best_still_runs_a_clear_winner(app: AppTest) -> None:
    _offer_two(app)
    clear = labelled_request(close=False)
    chat(app, clear)
    assert not _choice_buttons(app)
    assert app.session_state["transcript"][0].answer.agent == best_agent(clear)


def test_a_new_request_instead_of_a_choice_says_what_was_not_sent(app: AppTest) -> None:
    _offer_two(app)
    close = labelled_request(close=True)
    chat(app, close)
    chat(app, BERLIN)
    assert any(t.startswith("Not sent (you moved on):") and close in t for t in texts(app))
    assert app.session_state["transcript"][-1].answer.agent == "BookBusinessFlight"


def test_a_multi_part_request_answers_each_part_under_its_agent(app: AppTest) -> None:
    chat(app, HOTEL_AND_TAXI)
    shown = texts(app)
    assert any("Your message holds 2 requests" in t for t in shown)
    assert "**Request 1 of 2** · Book a hotel in Oslo for two nights" in shown
    assert "**Request 2 of 2** · File last week's taxi receipt" in shown
    hotel, taxi = best_agent(HOTEL), best_agent(TAXI)
    headers = [t for t in shown if t.startswith("**") and " · score " in t]
    assert [h.split("**")[1] for h in headers] == [hotel, taxi]
    entry = app.session_state["transcript"][0]
    assert [r.answer.convid for r in entry.parts] == [app.session_state["convid"]] * 2
    assert len(app.form) == 1  # the taxi claim asks; nothing is left after it
    assert not any("I'll send the rest" in t for t in shown)
    app.text_area(key="ask0:business_reason").input("Taxi to the client")
    # What was paid is asked, never made up: the prospect types it.
    app.text_input(key="ask0:amount").input("42.80")
    app.form[0].button[0].click().run()
    assert not app.exception and len(app.form) == 0
    assert app.session_state["transcript"][-1].answer.result_code == "success"


def test_a_part_that_asks_holds_the_rest_until_the_form_is_answered(app: AppTest) -> None:
    chat(app, TAXI_THEN_HOTEL)
    assert any(
        "After you answer the form, I'll send the rest: request 2 of 2, "
        "“Book a hotel in Oslo for two nights”." in t
        for t in texts(app)
    )
    assert len(app.session_state["transcript"][0].parts) == 1
    app.text_area(key="ask0:business_reason").input("Taxi to the client")
    # What was paid is asked, never made up: the prospect types it.
    app.text_input(key="ask0:amount").input("42.80")
    app.form[0].button[0].click().run()
    assert not app.exception
    entry = app.session_state["transcript"][-1]
    assert [(r.index, r.answer.agent) for r in entry.parts] == [
        (0, best_agent(TAXI)),
        (1, best_agent(HOTEL)),
    ]
    assert "**Request 2 of 2** · Book a hotel in Oslo for two nights" in texts(app)
    assert not any("I'll send the rest" in t for t in texts(app))


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
