"""The sidebar: which account (embedded, or a server by URL and token), who the demo acts as,
and the search behaviour."""

from __future__ import annotations

from typing import Any

import streamlit as st

from demo_app import ui_session as session
from demo_app.http_client import HttpClient
from demo_app.search_choice import OFFER_TWO, ONLY_MATCH, RUN_BEST, behavior_label
from demo_app.views import ClientError

__all__ = ["show_reported_behavior", "sidebar"]


def _connect() -> None:
    st.session_state.pop("http_client", None)
    st.session_state.pop("reported_search_behavior", None)
    st.session_state.pop("connect_error", None)
    session.new_conversation()
    try:
        connected = HttpClient(
            st.session_state.get("server_url", ""), st.session_state.get("server_token", "")
        )
        connected.check()
    except ClientError as exc:
        st.session_state["connect_error"] = str(exc)
        return
    st.session_state["http_client"] = connected


def _mode_changed() -> None:
    session.new_conversation()
    st.session_state.pop("reported_search_behavior", None)
    st.session_state.pop("user", None)


def sidebar() -> Any:
    """The sidebar; over a server, the slot where the server's search behaviour is shown."""
    with st.sidebar:
        st.radio("Account", session.MODES, key="mode", on_change=_mode_changed)
        if session.mode() == session.SERVER:
            st.text_input("Server URL", value="http://127.0.0.1:9020", key="server_url")
            st.text_input("Bearer token", type="password", key="server_token")
            st.button("Connect", on_click=_connect, key="connect")
            if "connect_error" in st.session_state:
                st.error(st.session_state["connect_error"])
        try:
            client = session.client()
            users = client.users()
            session.user_key()
        except ClientError as exc:
            st.info(str(exc))
            return None
        labels = {u.key: u.label for u in users}
        st.selectbox(
            "Acting as",
            list(labels),
            format_func=lambda key: labels.get(key, key),
            key="user",
            on_change=session.new_conversation,
        )
        st.caption(f"Connected to the {client.description}.")
        if session.mode() == session.EMBEDDED:
            search_behavior_setting()
            return None
        return st.empty()


def search_behavior_setting() -> None:
    """The embedded account's search behaviour, for this browser session."""
    configured = session.embedded_search_behavior()
    options = [RUN_BEST, OFFER_TWO] + ([ONLY_MATCH] if configured == ONLY_MATCH else [])
    if st.session_state.get("search_behavior") not in options:
        st.session_state["search_behavior"] = configured  # starts as the account's setting
    st.radio(
        "Search behaviour",
        options,
        format_func=behavior_label,
        key="search_behavior",
        help="Offer the two best: when the runner-up scores at least 85 % of the best "
        "match, both are offered and you pick; otherwise the best runs.",
    )


def show_reported_behavior(slot: Any) -> None:
    """Over a server the setting is the server's: shown as its last search reported it."""
    reported = st.session_state.get("reported_search_behavior")
    if reported:
        slot.caption(f"Search behaviour (the server's setting): {behavior_label(reported)}.")
