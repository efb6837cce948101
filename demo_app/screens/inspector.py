"""Conversation state: what the harness saved, decrypted for its owner, and the record as stored."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from demo_app import ui_session as session
from demo_app.views import ClientError, StateView, run_outcome, time_text
from mock_account.api.timing import PHASES


def _variables(column: Any, heading: str, values: dict[str, Any]) -> None:
    with column:
        st.subheader(heading)
        if values:
            st.json(values, expanded=True)
        else:
            st.caption("None yet.")


def _pick_conversation() -> str | None:
    """The chat's conversation, or one chosen from the user's list."""
    client, user = session.client(), session.user_key()
    items = client.conversations(user).by_last_run().all()
    current = session.convid()
    options = [c.convid for c in items]
    if current and current not in options:
        options.insert(0, current)
    if not options:
        st.info("No conversation yet: ask something on the Chat page first.")
        return None
    labels = {c.convid: f"{c.title} · last run {time_text(c.last_executed)}" for c in items}
    return st.selectbox(
        "Conversation",
        options,
        index=options.index(current) if current in options else 0,
        format_func=lambda c: labels.get(c, "the current conversation"),
        key="inspector-convid",
    )


def _runs(view: StateView) -> None:
    st.subheader(f"Runs ({len(view.runs)})")
    rows = [
        {
            "#": index + 1,
            "agent": run.get("agent"),
            "version": run.get("version"),
            "outcome": run_outcome(
                str(run.get("resultCode")), bool(run.get("paused")), run.get("writes") or ()
            ),
            "paused": "yes" if run.get("paused") else "",
            "reads": ", ".join(f"conv.{v}" for v in run.get("reads") or ()),
            "writes": ", ".join(f"conv.{v}" for v in run.get("writes") or ()),
            "ran at": time_text(str(run.get("ranAt") or "")),
        }
        for index, run in enumerate(view.runs)
    ]
    st.dataframe(rows, hide_index=True, use_container_width=True)
    paused = view.paused_run
    if paused:
        st.warning(
            f"{paused.get('agent')} is paused on an ask: the call stack (with the run's local "
            "variables) is saved until the answers come."
        )
        st.json(paused.get("paused"), expanded=False)
    for index, run in enumerate(view.runs):
        with st.expander(f"Run {index + 1}: {run.get('agent')} ({rows[index]['outcome']})"):
            st.json(run, expanded=False)


def _prompts(view: StateView) -> None:
    st.subheader(f"Prompt histories ({len(view.prompts)})")
    if not view.prompts:
        st.caption("No saved prompt yet (local prompts are never saved).")
    for prompt in view.prompts:
        owner = f", agent {prompt.agent}" if prompt.agent else ""
        with st.expander(
            f"{prompt.name} · scope {prompt.scope}{owner} · {len(prompt.messages)} messages"
        ):
            st.caption(prompt.system)
            for message in prompt.messages:
                role = str(message.get("role"))
                who = message.get("agent") or ""
                content = message.get("content", message.get("arguments"))
                label = f"{role} ({who})" if who else role
                if isinstance(content, str):
                    st.markdown(f"**{label}:** {content}")
                elif not isinstance(content, dict | list):
                    # A look-up that found nothing: no object for the JSON viewer to show.
                    found = "nothing found" if content is None else json.dumps(content)
                    st.markdown(f"**{label}:** `{message.get('name', '')}` → {found}")
                else:
                    st.markdown(f"**{label}:** `{message.get('name', '')}`")
                    st.json(content, expanded=False)


def _record(view: StateView, convid: str) -> None:
    st.subheader("The encrypted record (as stored)")
    record = view.record
    if record is None:
        st.caption("No state blob is stored for this conversation (state hooks keep it).")
    else:
        cols = st.columns(4)
        cols[0].metric("Size", f"{record.size:,} B")
        cols[1].metric("Key id", record.key_id)
        cols[2].metric("Format version", record.format_version)
        cols[3].metric("State version", record.state_version)
        st.code(record.hex_preview, language=None)
        st.caption("The first 48 bytes of the AES-256-GCM record: header, nonce, ciphertext.")
    times = session.timings(convid)
    st.subheader("Last save / restore timings")
    if times:
        cols = st.columns(len(PHASES))
        for col, phase in zip(cols, PHASES, strict=True):
            value = times.get(phase)
            col.metric(phase, "–" if value is None else f"{value * 1000:.2f} ms")
    else:
        st.caption("Timings appear after a request in this session.")


def main() -> None:
    st.title("Conversation state")
    convid = _pick_conversation()
    if convid is None:
        return
    view = session.client().state(session.user_key(), convid)
    st.caption("Decrypted for its owner; nothing else can read it.")
    left, right = st.columns(2)
    _variables(left, "Conversation variables (conv.*)", view.conv)
    _variables(right, "Per-agent variables (agent.*)", view.agents)
    _prompts(view)
    _runs(view)
    _record(view, convid)


try:
    main()
except ClientError as exc:
    st.error(str(exc))
