"""Chat: ask, follow up, and watch the conversation move from agent to agent.

Every message goes through the request runner: a message holding several requests is
sent part by part on this conversation; a part whose two best matches are close is offered
as a choice when the search behaviour says so; a part that asks pauses the rest until the
form is answered. A request typed while a form waits is held, and the user chooses what
happens to it (rather than the server's bare ``unknownConversation``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from demo_app import first_screen
from demo_app import ui_session as session
from demo_app.request_runner import (
    PartResult,
    RequestRun,
    answer_pending,
    choose,
    start_request,
)
from demo_app.suggestions import suggest_followups
from demo_app.views import AnswerView, ClientError
from demo_app.widgets import render_answer, render_ask_form, render_two_best


def _queue_answers(answers: dict[str, Any]) -> None:
    first_screen.queue("answers", answers)


def _queue_choice(agent: str) -> None:
    first_screen.queue("choose", agent)


def _queue_held(action: str) -> None:
    first_screen.queue("held", action)


def _answers(entry: session.Entry) -> list[AnswerView]:
    if entry.parts:
        return [r.answer for r in entry.parts if r.answer is not None]
    return [entry.answer] if entry.answer is not None else []


def _pending_index(entries: list[session.Entry]) -> int | None:
    """The entry whose answer still waits on its ask: the last successful answer, if an ask.

    A request sent meanwhile to another agent fails (the conversation waits for these
    answers), and so does an answer the agent refused: failed answers do not close the form.
    """
    for index in range(len(entries) - 1, -1, -1):
        for answer in reversed(_answers(entries[index])):
            if answer.success:
                return index if answer.is_ask else None
    return None


def _pending_ask(entries: list[session.Entry]) -> AnswerView | None:
    index = _pending_index(entries)
    if index is None:
        return None
    return next(a for a in reversed(_answers(entries[index])) if a.success)


def _in_session(step: Callable[..., RequestRun], *args: Any) -> RequestRun:
    """A step of the request runner (``start_request``, ``answer_pending``, ``choose``) for
    this session's client and user, with the search behaviour it chose."""
    return step(
        session.client(), session.user_key(), *args, behavior=session.search_behavior_override()
    )


def _record(run: RequestRun, results: tuple[PartResult, ...], entry: session.Entry) -> None:
    """Keep ``run`` going (or not) and what its latest step answered in ``entry``."""
    entry.parts = (*entry.parts, *results)
    answered = [r.answer for r in results if r.answer is not None]
    if answered:
        entry.answer = answered[-1]
        session.remember_timings(answered[-1])
    entry.meta["of"] = len(run.parts)
    if run.convid:
        st.session_state["convid"] = run.convid
    session.set_active_run(run)


def _send_query(text: str) -> None:
    entries = session.transcript()
    abandoned = session.active_run()
    if abandoned is not None and abandoned.choice is not None and entries:
        # A new request instead of picking an agent: say what was left unsent.
        entries[-1].meta["not_sent"] = list(abandoned.remaining)
    run = _in_session(start_request, text, session.convid())
    entry = session.Entry(text.strip())
    entries.append(entry)
    _record(run, run.results, entry)


def _send_answers(answers: dict[str, Any]) -> None:
    entries = session.transcript()
    run = session.active_run()
    pending = run.pending_ask if run is not None else None
    if pending is None:
        # A form of a conversation reopened from the list: a run of that one part.
        pending = _pending_ask(entries)
        if pending is None:
            raise ClientError("There is no question waiting for an answer.")
        run = RequestRun.waiting_on(pending)
    assert run is not None
    before = len(run.results)
    run = _in_session(answer_pending, run, answers)
    labels = {f.name: f.label for f in pending.ask.fields} if pending.ask else {}
    shown = " · ".join(
        f"{labels.get(k, k)}: {', '.join(v) if isinstance(v, list) else v}"
        for k, v in answers.items()
        if v not in ("", None, [])
    )
    entry = session.Entry(shown or "(answers sent)", meta={"answers": True})
    entries.append(entry)
    _record(run, run.results[before:], entry)


def _send_choice(agent: str) -> None:
    entries = session.transcript()
    run = session.active_run()
    if run is None or run.choice is None or not entries:
        raise ClientError("There is no choice of agents waiting.")
    before = len(run.results)
    entries[-1].meta.setdefault("chosen", {})[run.choice.index] = agent
    run = _in_session(choose, run, agent)
    _record(run, run.results[before:], entries[-1])


def _send_held(action: str) -> None:
    held = session.held_request()
    if held is None:
        return
    if action == "after_form":
        session.hold_request(session.HeldRequest(held.text, held.convid, after_form=True))
    elif action == "new_conversation":
        session.new_conversation()
        _send_query(held.text)
    else:  # "drop"
        session.hold_request(None)


def _send(kind: str, payload: Any) -> None:
    """Carry out what the user did: a request, answers, a choice of agent, a held request."""
    if kind == "query":
        _send_query(str(payload))
    elif kind == "answers":
        _send_answers(payload)
    elif kind == "choose":
        _send_choice(str(payload))
    elif kind == "held":
        _send_held(str(payload))
    held = session.held_request()
    if held is not None and held.after_form and not _waiting():
        # The form is answered and the rest of its request ran: now the held request.
        session.hold_request(None)
        _send_query(held.text)


def _waiting() -> bool:
    """Whether the conversation waits on a form (new requests would be refused)."""
    run = session.active_run()
    if run is not None and run.pending_ask is not None:
        return True
    return _pending_index(session.transcript()) is not None


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
        session.catalog(),
        last.agent,
        written=written,
        already_ran=ran,
        conv=conv,
        user=session.user_key(),
    )
    if not found:
        return
    st.caption("Suggested follow-ups (another agent will pick up what was saved):")
    # One a line: a suggestion is a sentence, read whole (side by side they were cut short).
    for index, suggestion in enumerate(found):
        st.button(
            suggestion.request,
            key=f"suggest:{len(session.transcript())}:{index}",
            help=f"{suggestion.agent} ({suggestion.department}) reads {suggestion.variable}",
            on_click=first_screen.queue_request,
            args=(suggestion.request,),
            icon=":material/subdirectory_arrow_right:",
        )


def _short(text: str, limit: int = 90) -> str:
    """``text`` cut before a word at ``limit`` characters (a conversation's name in a line)."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + "…"


def _numbered(parts: list[str] | tuple[str, ...], first: int, total: int) -> str:
    """``request 2 of 3, “…”; request 3 of 3, “…”``."""
    return "; ".join(f"request {first + i + 1} of {total}, “{p}”" for i, p in enumerate(parts))


def _render_parts(
    entry: session.Entry,
    key: str,
    is_last: bool,
    run: RequestRun | None,
    waiting: AnswerView | None,
) -> None:
    """The answer to one message, part by part, each under its own agent.

    With several parts each gets a framed block headed by its request, and a form that
    waits belongs in the block of the part that asked.
    """
    total = int(entry.meta.get("of") or 1)
    if total > 1 and not entry.meta.get("answers"):
        st.caption(
            f"Your message holds {total} requests: each is searched and run in turn, "
            "in this conversation."
        )
    chosen = entry.meta.get("chosen", {})
    for number, result in enumerate(entry.parts):
        block = st.container(border=True, key=f"part:{key}:{number}") if total > 1 else None
        with block if block is not None else st.container():
            if total > 1:
                st.markdown(f"**Request {result.index + 1} of {total}** · {result.text}")
            if result.index in chosen and result.answer is not None:
                st.caption(f"You chose {chosen[result.index]}.")
            form_shown = waiting is not None and result.answer is waiting
            if result.answer is not None:
                render_answer(result.answer, with_question=not form_shown)
            else:
                st.error(result.problem or "Nothing ran.")
            if form_shown and waiting is not None and waiting.ask is not None:
                render_ask_form(waiting.ask, key, _queue_answers)
    if not is_last or run is None or run.choice is None:
        return
    block = st.container(border=True, key=f"part:{key}:choice") if total > 1 else None
    with block if block is not None else st.container():
        if total > 1:
            index = run.choice.index
            st.markdown(f"**Request {index + 1} of {total}** · {run.parts[index]}")
        render_two_best(run.choice.options, f"choice:{len(session.transcript())}", _queue_choice)


def _render_left(entry: session.Entry, is_last: bool, run: RequestRun | None) -> None:
    """What of the message is still to be sent, or was not sent, and why."""
    total = int(entry.meta.get("of") or 1)
    if entry.meta.get("not_sent"):
        st.caption(
            "Not sent (you moved on): " + "; ".join(f"“{p}”" for p in entry.meta["not_sent"])
        )
    if not is_last or run is None:
        return
    if run.choice is not None:
        later = list(run.remaining[1:])
        if later:
            rest = _numbered(later, run.next_part + 1, total)
            st.info(f"After you choose, I'll send the rest: {rest}.")
    elif run.stopped and run.remaining:
        rest = _numbered(run.remaining, run.next_part, total)
        st.warning(f"Not sent, because {run.stopped.rstrip('.')}: {rest}.")
    elif run.pending_ask is not None and run.remaining:
        st.info(
            "After you answer the form, I'll send the rest: "
            f"{_numbered(run.remaining, run.next_part, total)}."
        )


def _render_held(pending: AnswerView) -> None:
    """The choice for a request typed while a form waits (item: never a bare refusal)."""
    held = session.held_request()
    if held is None:
        return
    with st.container(border=True, key="held-request"):
        if held.after_form:
            st.markdown(f"“{held.text}” will be sent here once you have answered the form above.")
            st.button("Don't send it", key="held:drop", on_click=_queue_held, args=("drop",))
            return
        st.markdown(
            f"**{pending.agent}** is still waiting for your answers to the form above, so "
            f"“{held.text}” cannot go to another agent in this conversation yet. "
            "What would you like to do?"
        )
        choices = (
            ("Answer the form first, then send it", "after_form", "primary", None),
            (
                "Send it in a new conversation",
                "new_conversation",
                "secondary",
                "This conversation stays in the list with its form, to answer later.",
            ),
            ("Drop it", "drop", "secondary", None),
        )
        for column, (label, choice, kind, hint) in zip(st.columns(3), choices, strict=True):
            column.button(
                label,
                key=f"held:{choice}",
                type=kind,
                on_click=_queue_held,
                args=(choice,),
                width="stretch",
                help=hint,
            )


def main() -> None:
    first_screen.product_header()
    typed = first_screen.chat_box()
    queued = st.session_state.pop(first_screen.QUEUED, None)
    if typed is not None:
        if _waiting() and typed.strip():
            # The conversation only takes the form's answers now: hold it and ask the user.
            session.hold_request(session.HeldRequest(typed.strip(), session.convid()))
            queued = None
        else:
            queued = ("query", typed)
    error = None
    if queued is not None:
        try:
            _send(*queued)
        except ClientError as exc:
            error = str(exc)

    entries = session.transcript()
    top = st.columns([4, 1], vertical_alignment="center")
    top[0].caption(f"Conversation: {_short(entries[0].sent)}" if entries else "New conversation")
    top[1].button("New conversation", on_click=session.new_conversation, key="new-conversation")

    if not entries:
        first_screen.chat_opening()
    pending = _pending_index(entries)
    waiting = _pending_ask(entries)
    run = session.active_run()
    for index, entry in enumerate(entries):
        is_last = index == len(entries) - 1
        with st.chat_message("user"):
            st.markdown(entry.sent)
        shows_run = entry.parts or entry.meta.get("not_sent") or (is_last and run is not None)
        if entry.answer is None and not shows_run:
            continue
        with st.chat_message("assistant"):
            form_here = waiting if index == pending else None
            if shows_run:
                _render_parts(entry, f"ask{index}", is_last, run, form_here)
            elif entry.answer is not None:
                render_answer(entry.answer, with_question=form_here is None)
                if form_here is not None and form_here.ask is not None:
                    render_ask_form(form_here.ask, f"ask{index}", _queue_answers)
            _render_left(entry, is_last, run)
    if waiting is not None:
        _render_held(waiting)
    if error:
        st.error(error)
    last = entries[-1].answer if entries else None
    waiting_on_choice = run is not None and run.choice is not None
    if last is not None and last.success and not last.is_ask and not waiting_on_choice:
        _suggestions(last)


try:
    main()
except ClientError as exc:
    st.error(str(exc))
