"""Pieces of the chat page: one answer, the hand-off marker and an ``ask`` as a form."""

from __future__ import annotations

from typing import Any

import streamlit as st

from .views import AnswerView, AskField, AskForm, Match

HANDOFF_ICON = "↪"


def _score(match: Match | None) -> str:
    return "–" if match is None or match.score is None else f"{match.score:.2f}"


def handoff_text(variable: str, from_agent: str) -> str:
    return f"{HANDOFF_ICON} handed off from **{from_agent}** via `{variable}`"


def render_answer(answer: AnswerView) -> None:
    """Who answered (department, score, runner-up), hand-offs, then the answer itself."""
    chosen, runner_up = answer.chosen, answer.runner_up
    header = f"**{answer.agent}**"
    if answer.department:
        header += f" · {answer.department}"
    if chosen is not None:
        header += f" · score {_score(chosen)}"
    if runner_up is not None:
        # After the user picked the second of two close matches, the other one ranked first.
        ranked_first = answer.matches and answer.matches[0] is runner_up
        label = "also offered" if ranked_first and chosen is not None else "runner-up"
        header += (
            f" — {label}: {runner_up.agent_name} ({runner_up.department or '?'}) "
            f"{_score(runner_up)}"
        )
    st.markdown(header)
    if len(answer.matches) > 1:
        with st.expander(f"Why {answer.agent}? The {len(answer.matches)} best matches"):
            st.dataframe(
                [
                    {
                        "agent": m.agent_name,
                        "department": m.department,
                        "title": m.agent_title,
                        "score": m.score,
                    }
                    for m in answer.matches
                ],
                hide_index=True,
                use_container_width=True,
            )
    for handoff in answer.handoffs:
        st.markdown(handoff_text(handoff.variable, handoff.from_agent))
    if not answer.success:
        st.error(f"{answer.agent} could not answer ({answer.result_code}): {answer.error}")
        return
    for part in answer.parts:
        if part.content_type == "html":
            st.html(part.text)
        elif part.content_type == "image":
            st.image(part.text)
        else:
            st.markdown(part.text)
    if answer.ask is not None and answer.ask.message:
        st.markdown(f"_{answer.ask.message}_")


def render_two_best(options: tuple[Match, Match], prefix: str, on_pick: Any) -> None:
    """Two close matches side by side; ``on_pick(agent_name)`` runs when one is chosen."""
    st.markdown("**Two agents match this request about equally well. Which one should answer?**")
    columns = st.columns(2)
    for rank, (column, match) in enumerate(zip(columns, options, strict=True)):
        with column.container(border=True):
            st.markdown(
                f"**{match.agent_name}** · {match.department or '?'} · score {_score(match)}"
            )
            st.caption(match.agent_title or " ")
            st.button(
                f"Run {match.agent_name}",
                key=f"{prefix}:{match.agent_name}",
                type="primary" if rank == 0 else "secondary",
                on_click=on_pick,
                args=(match.agent_name,),
                width="stretch",
            )


def field_key(prefix: str, field: AskField) -> str:
    return f"{prefix}:{field.name}"


def render_field(field: AskField, key: str) -> None:
    """The widget for one ask input, chosen by its type."""
    help_text = field.description or None
    default = field.default
    if field.type == "password":
        st.text_input(field.label, key=key, type="password", help=help_text)
    elif field.type == "text":
        st.text_area(field.label, value=str(default or ""), key=key, help=help_text)
    elif field.type == "chooseOne":
        options = list(field.options)
        index = options.index(default) if default in options else 0
        if len(options) <= 4:
            st.radio(field.label, options, index=index, key=key, help=help_text, horizontal=True)
        else:
            st.selectbox(field.label, options, index=index, key=key, help=help_text)
    elif field.type == "chooseMany":
        chosen = [d for d in (default or []) if d in field.options]
        st.multiselect(field.label, list(field.options), default=chosen, key=key, help=help_text)
    else:
        st.text_input(field.label, value=str(default or ""), key=key, help=help_text)


def collect_answers(form: AskForm, prefix: str) -> dict[str, Any]:
    """The form's values from the session (hidden inputs send their default)."""
    answers: dict[str, Any] = {}
    for field in form.fields:
        if field.hidden:
            answers[field.name] = field.default
            continue
        value = st.session_state.get(field_key(prefix, field))
        if field.type == "chooseMany":
            answers[field.name] = list(value or [])
        else:
            answers[field.name] = "" if value is None else value
    return answers


def render_ask_form(form: AskForm, prefix: str, on_submit: Any) -> None:
    """The questions as a form; ``on_submit(answers)`` runs when it is sent."""
    with st.form(key=f"form:{prefix}"):
        st.markdown(f"**{form.message or 'The agent needs a few answers.'}**")
        for field in form.fields:
            if not field.hidden:
                render_field(field, field_key(prefix, field))
        st.form_submit_button(
            "Send answers",
            type="primary",
            on_click=lambda: on_submit(collect_answers(form, prefix)),
        )
