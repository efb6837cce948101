"""The first screen: the product, the chat's opening and its starters, painted at once.

Streamlit and the standard library only, so it paints before the account's code has loaded.
While the account loads (``loading``), a page shows its title and the stage reached; the chat
page shows its whole opening, and a request sent meanwhile (a starter, or typed) is queued:
the chat page sends it as soon as the account is ready.
"""

from __future__ import annotations

import importlib
from typing import Any

import streamlit as st

from . import background
from .background import BackgroundJob

__all__ = [
    "PRODUCT_NAME",
    "STARTERS",
    "chat_box",
    "chat_opening",
    "code_loading",
    "loading",
    "product_header",
    "queue",
    "queue_request",
    "wait_for_account",
]

PRODUCT_NAME = "Conversation-state harness"
PITCH = (
    "Ask 200 agents for anything. A follow-up goes to whichever agent fits it best, and that "
    "agent continues from what the conversation has saved so far: encrypted, in a real store."
)
INTRO = (
    "Each request is searched across **200 agents in 10 departments**; the best match "
    "answers. Follow up in the same conversation and another agent picks up what the "
    "first one saved (a trip, a customer, an incident…): watch for the "
    "**↪ handed off from** marker. Ask for two things at once and each goes to its own "
    "agent. Start with one of these:"
)
# Three openings that each start a hand-off chain (trip, customer, incident).
STARTERS: tuple[str, ...] = (
    "I need to fly to Berlin next Tuesday for a client meeting",
    "Pull up the account for Hoffmann Logistics",
    "The checkout service is returning 500s for everyone, open an incident",
)
CHAT_PLACEHOLDER = "Ask for anything (e.g. book a flight, look up a customer)…"
QUEUED = "queued"
CODE_STAGE = "Loading the agent server…"
# The modules the chat page and the sidebar run on: loaded behind the first screen.
CODE = ("demo_app.ui_session", "demo_app.sidebar", "demo_app.widgets", "demo_app.suggestions")
POLL_S = 0.3


def queue(kind: str, payload: Any) -> None:
    """What the user did, for the chat page to carry out on its next run."""
    st.session_state[QUEUED] = (kind, payload)


def queue_request(text: str) -> None:
    queue("query", text)


def product_header() -> None:
    st.title(PRODUCT_NAME)
    st.markdown(PITCH)


def chat_opening() -> None:
    """What a new conversation starts with: the introduction and the starter requests."""
    st.markdown(INTRO)
    for index, starter in enumerate(STARTERS):
        st.button(
            starter,
            key=f"starter:{index}",
            on_click=queue_request,
            args=(starter,),
            icon=":material/play_arrow:",
        )


def chat_box() -> str | None:
    """The chat input; what was typed, in the run right after it was sent."""
    return st.chat_input(CHAT_PLACEHOLDER, key="chat-box")


def _load_code(job: BackgroundJob) -> None:
    for module in CODE:
        importlib.import_module(module)
    from mock_account.deployment import project_data_dir

    from .ui_session import account_loading

    # The default account starts loading now rather than on the next look.
    account_loading(str(project_data_dir()))


def code_loading() -> BackgroundJob:
    """The demo's own code (and with it the account's), loading or loaded in the background."""
    return background.started("demo code", _load_code, CODE_STAGE)


def loading() -> BackgroundJob | None:
    """What the chosen account still waits for (its code, then its data), or None when ready."""
    code = code_loading()
    if not code.done:
        return code
    from .ui_session import pending_loading  # loaded by the job above: instant

    return pending_loading()


def wait_for_account(title: str, is_chat: bool) -> bool:
    """While the account loads, paint the page's opening with the stage reached, and return
    True (the page itself waits); False once the account is ready."""
    if loading() is None:
        return False
    if is_chat:
        product_header()
        typed = chat_box()
        if typed is not None and typed.strip():
            queue_request(typed)
        chat_opening()
        queued = st.session_state.get(QUEUED)
        if queued is not None and queued[0] == "query":
            with st.chat_message("user"):
                st.markdown(str(queued[1]))
    else:
        st.title(title)
    _progress()
    return True


@st.fragment(run_every=POLL_S)
def _progress() -> None:
    job = loading()
    if job is None:
        st.rerun()  # the whole page now, with the account
        return
    queued = st.session_state.get(QUEUED)
    st.info(
        f"{job.stage} "
        + (
            "Your request goes out as soon as the account is ready."
            if queued is not None
            else "The starters already work: a request sent now goes out once it is ready."
        ),
        icon=":material/hourglass_top:",
    )
