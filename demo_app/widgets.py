"""Pieces of the chat page: one answer, the hand-off marker and an ``ask`` as a form."""

from __future__ import annotations

from typing import Any

import streamlit as st

from .views import AnswerView, AskField, AskForm, Handoff, Match

HANDOFF_ICON = "↪"
# Scores read the same everywhere (0..1, two decimals): in text and in every table.
SCORE_FORMAT = "%.2f"
FIELDS_PER_LINE = 3


def _score(match: Match | None) -> str:
    return "–" if match is None or match.score is None else SCORE_FORMAT % match.score


def score_column() -> Any:
    """The score column of a table of matches, as a bar from 0 to 1 with the same figure."""
    return st.column_config.ProgressColumn(
        "score", min_value=0.0, max_value=1.0, format=SCORE_FORMAT, width="small"
    )


def handoff_text(variable: str, from_agent: str) -> str:
    return f"{HANDOFF_ICON} handed off from **{from_agent}** via `{variable}`"


def record_fields(record: Any, prefix: str = "") -> list[tuple[str, str]]:
    """``(field, value)`` rows of a saved record, nested fields dotted, empty ones left out."""
    if not isinstance(record, dict):
        return [(prefix or "value", _value_text(record))]
    rows: list[tuple[str, str]] = []
    for name, value in record.items():
        field = f"{prefix}.{name}" if prefix else str(name)
        if value in ("", None, [], {}):
            continue
        if isinstance(value, dict):
            rows.extend(record_fields(value, field))
        else:
            rows.append((field, _value_text(value)))
    return rows


def _value_text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_value_text(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_value_text(v)}" for k, v in value.items())
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # 1680.0 is written 1680, as the answer says it
    return str(value)


def render_handoff(handoff: Handoff) -> None:
    """The hand-off marker; it opens to the fields of the record the agent worked from."""
    label = handoff_text(handoff.variable, handoff.from_agent)
    rows = record_fields(handoff.record) if handoff.record is not None else []
    if not rows:
        st.markdown(label)
        return
    with st.expander(label):
        # A few fields a line, so that the record stays short next to the answer.
        lines = []
        for start in range(0, len(rows), FIELDS_PER_LINE):
            chunk = rows[start : start + FIELDS_PER_LINE]
            chunk += [("", "")] * (FIELDS_PER_LINE - len(chunk))
            lines.append("".join(f"| {f} | {_cell(v)} " for f, v in chunk) + "|")
        head = "| field | value " * FIELDS_PER_LINE + "|"
        st.markdown("\n".join([head, "|---|---" * FIELDS_PER_LINE + "|", *lines]))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_answer(answer: AnswerView, with_question: bool = True) -> None:
    """Who answered (department, score, runner-up), hand-offs, then the answer itself.

    ``with_question``: show what the agent asks, if it does (not when its form is shown
    right after, which is titled with the question).
    """
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
                width="stretch",
                column_config={"score": score_column()},
            )
    for handoff in answer.handoffs:
        render_handoff(handoff)
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
    if with_question and answer.ask is not None and answer.ask.message:
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
