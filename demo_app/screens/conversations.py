"""Conversations: pinned and recent; open, rename, pin or unpin, delete."""

from __future__ import annotations

import streamlit as st

from demo_app import ui_session as session
from demo_app.views import ClientError, ConversationItem, time_text

CHAT_PAGE = "screens/chat.py"


def _act(action: str, item: ConversationItem) -> None:
    """Button callbacks: the result is shown on the next run as a toast or an error."""
    client, user = session.client(), session.user_key()
    try:
        if action == "open":
            state = client.state(user, item.convid)
            st.session_state["convid"] = item.convid
            st.session_state["transcript"] = session.entries_from_state(state, session.catalog())
            st.session_state["go_chat"] = True
        elif action == "pin":
            client.pin(user, item.convid, not item.pinned)
        elif action == "delete":
            client.delete(user, item.convid)
            if session.convid() == item.convid:
                session.new_conversation()
        elif action == "rename":
            client.rename(user, item.convid, st.session_state.get(f"title:{item.convid}", ""))
        st.session_state["conversations_notice"] = f"Done: {action} '{item.title}'."
    except ClientError as exc:
        st.session_state["conversations_error"] = str(exc)


def _row(item: ConversationItem) -> None:
    with st.container(border=True):
        cols = st.columns([5, 1, 1, 1])
        pin = ":material/push_pin: " if item.pinned else ""
        cols[0].markdown(f"{pin}**{item.title}**")
        cols[0].caption(f"last run {time_text(item.last_executed)}")
        cols[1].button("Open", key=f"open:{item.convid}", on_click=_act, args=("open", item))
        cols[2].button(
            "Unpin" if item.pinned else "Pin",
            key=f"pin:{item.convid}",
            on_click=_act,
            args=("pin", item),
        )
        cols[3].button("Delete", key=f"delete:{item.convid}", on_click=_act, args=("delete", item))
        with st.expander("Rename"):
            st.text_input("New title", value=item.title, key=f"title:{item.convid}", max_chars=200)
            st.button(
                "Save title", key=f"rename:{item.convid}", on_click=_act, args=("rename", item)
            )


def main() -> None:
    if st.session_state.pop("go_chat", False):
        st.switch_page(CHAT_PAGE)
    st.title("Conversations")
    if "conversations_error" in st.session_state:
        st.error(st.session_state.pop("conversations_error"))
    if "conversations_notice" in st.session_state:
        st.success(st.session_state.pop("conversations_notice"))
    lists = session.client().conversations(session.user_key()).by_last_run()
    st.caption(
        "Only the signed-in user's conversations are listed, newest run first; switch user in "
        "the sidebar to see that another user sees none of them. Titles are stored encrypted."
    )
    st.subheader(f"Pinned ({len(lists.pinned)})")
    if not lists.pinned:
        st.caption("Nothing pinned.")
    for item in lists.pinned:
        _row(item)
    st.subheader(f"Recent ({len(lists.recent)})")
    if not lists.recent:
        st.caption("No conversations yet: start one on the Chat page.")
    for item in lists.recent:
        _row(item)


try:
    main()
except ClientError as exc:
    st.error(str(exc))
