"""Inbox: every conversation of the account from every channel, and writing as a sender."""

from __future__ import annotations

from typing import Any

import streamlit as st

from demo_app import ui_session as session
from demo_app.channels_client import ChannelsClient
from demo_app.views import ClientError, run_outcome
from demo_app.workflows_client import WorkflowsClient
from mock_account.channels.model import CHANNEL_NAMES

SENDER_EXAMPLES = {
    "email": "ada.lovelace@example.com",
    "im": "slack:U024BE7LH",
    "widget": "visitor-4711",
    "a2a": "agents.partner.example/OrderBot",
    "schedule": "monday-report",
    "webhook": "crm-events",
}
STARTERS = ["The VPN keeps disconnecting on my laptop", "It still drops every ten minutes"]


def _send(channels: ChannelsClient) -> None:
    state = st.session_state
    try:
        answer = channels.deliver(
            state["inbox-channel"],
            state.get("inbox-sender", ""),
            state.get("inbox-message", ""),
            state.get("inbox-contact") or None,
        )
    except ClientError as exc:
        state["inbox-error"] = str(exc)
        return
    state["inbox-answer"] = answer


def send_form(channels: ChannelsClient) -> None:
    st.subheader("Write as a sender")
    st.caption(
        "An email gateway or an IM bot delivers messages like this. The same sender on the same "
        "channel continues their conversation; the same person on another channel is another "
        "identity, with its own conversation and memory."
    )
    cols = st.columns([1, 2, 2])
    channel = cols[0].selectbox("Channel", list(SENDER_EXAMPLES), key="inbox-channel")
    cols[1].text_input("Sender", value=SENDER_EXAMPLES[channel], key="inbox-sender")
    cols[2].text_input("Contact (optional, for viewing)", key="inbox-contact")
    st.text_input("Message", value=STARTERS[0], key="inbox-message")
    st.button("Send", key="inbox-send", on_click=_send, args=(channels,))
    if "inbox-error" in st.session_state:
        st.error(st.session_state.pop("inbox-error"))
    answer = st.session_state.pop("inbox-answer", None)
    if answer:
        how = "continued their conversation" if answer.get("resumed") else "a new conversation"
        did = "asked for a form" if answer["resultCode"] == "ask" else "answered"
        if answer["resultCode"] not in ("ask", "success"):
            did = f"could not answer ({answer['resultCode']})"
        sender = f"{answer.get('channel')}: {st.session_state.get('inbox-sender', '')}"
        st.success(f"{answer.get('agentName') or 'No agent'} {did}; {how} ({sender}).")
        if answer.get("answered"):
            given = ", ".join(f"{k} = {v}" for k, v in answer["answered"].items())
            st.caption(f"Read from the message as answers to the waiting form: {given}")
        error = (answer.get("error") or {}).get("message")
        if error:
            st.warning(error)
        elif answer.get("reply"):
            st.caption("The reply the sender gets")
            st.code(answer["reply"], language=None, wrap_lines=True)


def _turn_rows(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "#": t.get("seq"),
            "agent": t.get("agentName"),
            "outcome": run_outcome(
                str(t.get("resultCode")), t.get("resultCode") == "ask", t.get("writes") or ()
            ),
            "read": ", ".join(t.get("reads") or []),
            "wrote": ", ".join(t.get("writes") or []),
            "ms": t.get("totalMs"),
            "query": t.get("query"),
        }
        for t in turns
    ]


def conversation_detail(channels: ChannelsClient, item: dict[str, Any]) -> None:
    try:
        detail = channels.conversation(item["convid"])
    except ClientError as exc:
        st.error(str(exc))
        return
    for entry in detail["transcript"]:
        st.markdown(f"**{entry['query'] or '(answers)'}**")
        for part in entry["response"].get("parts") or []:
            st.markdown(f"> {part.get('text', '')}")
    st.caption("Turn by turn")
    st.dataframe(_turn_rows(detail["turns"]), hide_index=True)
    if item.get("identity"):
        memory = channels.identity(item["identity"]).get("memory") or {}
        st.caption(f"Memory of this identity (user.x): {memory or 'nothing yet'}")
    if item.get("identity") and item["channel"] != "web":
        _progress(item["identity"])


def _progress(identity: str) -> None:
    """The sender's workflow stages and the actions waiting for the administrator."""
    flows = WorkflowsClient(session.client(), identity)
    try:
        started = [w for w in flows.workflows(session.user_key()) if w["version"]]
        waiting = [
            a for a in flows.actions(session.user_key()) if a["status"] == "awaitingApproval"
        ]
    except ClientError as exc:
        st.caption(f"Workflow progress: {exc}")
        return
    stages = "; ".join(
        f"{w.get('title') or w['workflow']}: "
        + ("complete" if w["completed"] else f"stage {w['stageTitle']}")
        for w in started
    )
    st.caption(
        f"Workflows of this sender: {stages or 'none started'}. "
        + (
            f"{len(waiting)} action(s) await approval: approve them on Workflows & outbox, "
            "choosing this sender."
            if waiting
            else "No action awaits approval."
        )
    )


def main() -> None:
    st.title("Inbox")
    channels = ChannelsClient(session.client(), session.user_key())
    try:
        contacts = channels.contacts()
    except ClientError as exc:
        st.info(f"{exc} The first user of each account is its administrator.")
        return
    send_form(channels)
    st.subheader("Conversations")
    cols = st.columns(2)
    channel = cols[0].selectbox("Channel", ["all", *CHANNEL_NAMES], key="inbox-filter-channel")
    names = ["all"] + [group["contact"] for group in contacts]
    contact = cols[1].selectbox("Contact", names, key="inbox-filter-contact")
    items = channels.inbox(
        None if channel == "all" else channel, None if contact == "all" else contact
    )
    if not items:
        st.caption("No conversations here yet.")
    for item in items:
        label = f"[{item['channel']}] {item['title']} · {item.get('contact') or item.get('sender')}"
        with st.expander(label):
            conversation_detail(channels, item)
    st.subheader("Contacts")
    for group in contacts:
        ids = ", ".join(f"{i['channel']}: {i['sender']}" for i in group["identities"])
        st.markdown(f"**{group['contact']}** — {ids}")


main()
