"""Chat: ask, follow up, and watch the conversation move from agent to agent."""

from __future__ import annotations

from typing import Any

import streamlit as st

from demo_app import ui_session as session
from demo_app.suggestions import STARTERS, suggest_followups
from demo_app.views import AnswerView, ClientError
from demo_app.widgets import render_answer, render_ask_form

INTRO = (
    "Each request is searched across **200 agents in 10 departments**; the best match "
    "answers. Follow up in the same conversation and another agent picks up what the "
    "first one saved (a trip, a customer, an incident…): watch for the "
    "**↪ handed off from** marker. Start with one of these:"
)


def _queue_query(text: str) -> None:
    st.session_state["queued"] = ("query", text)


def _queue_answers(answers: dict[str, Any]) -> None:
    st.session_state["queued"] = ("answers", answers)


def _pending_index(entries: list[session.Entry]) -> int | None:
    """The answer still waiting on its ask: the last successful answer, if it is an ask.

    A request sent meanwhile to another agent fails (the conversation waits for these
    answers), so failed answers after it do not close the form.
    """
    for index in range(len(entries) - 1, -1, -1):
        answer = entries[index].answer
        if answer is not None and answer.success:
            return index if answer.is_ask else None
    return None


def _send(kind: str, payload: Any) -> None:
    """Run a request (or the answers to an ask) and add it to the transcript."""
    entries = session.transcript()
    client = session.client()
    user = session.user_key()
    if kind == "query":
        answer = client.ask(user, str(payload), session.convid())
        entries.append(session.Entry(str(payload), answer))
    else:
        index = _pending_index(entries)
        pending = entries[index].answer if index is not None else None
        if pending is None:
            raise ClientError("There is no question waiting for an answer.")
        answer = client.answer_ask(user, pending, payload)
        labels = {f.name: f.label for f in pending.ask.fields} if pending.ask else {}
        shown = " · ".join(
            f"{labels.get(k, k)}: {', '.join(v) if isinstance(v, list) else v}"
            for k, v in payload.items()
            if v not in ("", None, [])
        )
        entries.append(session.Entry(shown or "(answers sent)", answer, meta={"answers": True}))
    if answer.success and answer.convid:
        st.session_state["convid"] = answer.convid
    session.remember_timings(answer)


def _saved(last: AnswerView) -> tuple[dict[str, Any] | None, list[str] | None]:
    """The conversation variables and what the last run wrote, when the server shows them."""
    if not last.convid:
        return None, None
    try:
        view = session.client().state(session.user_key(), last.convid)
    except ClientError:
        return None, None
    written = list(view.runs[-1].get("writes", [])) if view.runs else None
    return view.conv, written


def _suggestions(last: AnswerView) -> None:
    ran = {e.answer.agent for e in session.transcript() if e.answer is not None}
    conv, written = _saved(last)
    found = suggest_followups(
        session.catalog(), last.agent, written=written, already_ran=ran, conv=conv
    )
    if not found:
        return
    st.caption("Suggested follow-ups (another agent will pick up what was saved):")
    columns = st.columns(len(found))
    for index, (column, suggestion) in enumerate(zip(columns, found, strict=True)):
        column.button(
            suggestion.request,
            key=f"suggest:{len(session.transcript())}:{index}",
            help=f"{suggestion.agent} ({suggestion.department}) reads {suggestion.variable}",
            on_click=_queue_query,
            args=(suggestion.request,),
            use_container_width=True,
        )


def main() -> None:
    st.title("Chat with the account")
    typed = st.chat_input("Ask for anything (e.g. book a flight, look up a customer)…")
    queued = st.session_state.pop("queued", None)
    if typed is not None:
        queued = ("query", typed)
    error = None
    if queued is not None:
        try:
            _send(*queued)
        except ClientError as exc:
            error = str(exc)

    top = st.columns([4, 1])
    convid = session.convid()
    top[0].caption(f"Conversation `{convid}`" if convid else "New conversation")
    top[1].button("New conversation", on_click=session.new_conversation, key="new-conversation")

    entries = session.transcript()
    if not entries:
        st.markdown(INTRO)
        for index, starter in enumerate(STARTERS):
            st.button(
                starter,
                key=f"starter:{index}",
                on_click=_queue_query,
                args=(starter,),
                icon=":material/play_arrow:",
            )
    pending = _pending_index(entries)
    for index, entry in enumerate(entries):
        with st.chat_message("user"):
            st.markdown(entry.sent)
        if entry.answer is None:
            continue
        with st.chat_message("assistant"):
            render_answer(entry.answer)
            if index == pending and entry.answer.ask is not None:
                render_ask_form(entry.answer.ask, f"ask{index}", _queue_answers)
    if error:
        st.error(error)
    last = entries[-1].answer if entries else None
    if last is not None and last.success and not last.is_ask:
        _suggestions(last)


try:
    main()
except ClientError as exc:
    st.error(str(exc))
