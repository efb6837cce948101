"""Per-browser-session state of the demo: which account, which user, which conversation.

The embedded account is built once per process and data folder (``st.cache_resource``);
a server connection is kept in the session. Pages call ``client()`` and ``user_key()``
and get a ``ClientError`` message rather than an exception when there is no connection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from mock_account.deployment import AccountConfig, project_data_dir

from .catalog import Catalog, catalog_from_agents, load_catalog
from .client import DemoClient
from .inprocess_client import InProcessClient
from .views import AnswerView, ClientError

EMBEDDED = "Embedded account"
SERVER = "Server (URL + token)"
MODES = (EMBEDDED, SERVER)


@st.cache_resource(show_spinner="Starting the embedded account (200 agents)…")
def embedded_client(data_dir: str) -> InProcessClient:
    from pathlib import Path

    return InProcessClient.embedded(AccountConfig(data_dir=Path(data_dir)))


@st.cache_resource(show_spinner=False)
def _embedded_catalog(data_dir: str) -> Catalog:
    account = embedded_client(data_dir).account
    return catalog_from_agents(list(account.agents.values()), account.index)


@dataclass
class Entry:
    """One exchange in the chat transcript: what the user sent and the answer."""

    sent: str
    answer: AnswerView | None = None
    error: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


def mode() -> str:
    return str(st.session_state.get("mode", EMBEDDED))


def client() -> DemoClient:
    """The client of the chosen mode; ClientError when a server is chosen but not connected."""
    if mode() == EMBEDDED:
        return embedded_client(str(project_data_dir()))
    connected = st.session_state.get("http_client")
    if connected is None:
        raise ClientError(
            "Not connected to a server: give its URL and a token in the sidebar, then Connect."
        )
    return connected


def catalog() -> Catalog:
    if mode() == EMBEDDED:
        return _embedded_catalog(str(project_data_dir()))
    return load_catalog()


def user_key() -> str:
    """The user the demo acts as (the first one until the sidebar switch says otherwise)."""
    users = client().users()
    chosen = st.session_state.get("user")
    keys = [u.key for u in users]
    if chosen not in keys:
        chosen = keys[0]
        st.session_state["user"] = chosen
    return str(chosen)


def convid() -> str | None:
    return st.session_state.get("convid")


def transcript() -> list[Entry]:
    return st.session_state.setdefault("transcript", [])


def new_conversation() -> None:
    """Forget the current conversation (it stays in the conversation list)."""
    st.session_state["convid"] = None
    st.session_state["transcript"] = []


def remember_timings(answer: AnswerView) -> None:
    if answer.convid and answer.timings:
        st.session_state.setdefault("timings", {})[answer.convid] = dict(answer.timings)


def timings(convid_: str) -> dict[str, float]:
    return dict(st.session_state.get("timings", {}).get(convid_, {}))


def entries_from_state(state: Any, known: Catalog) -> list[Entry]:
    """A transcript rebuilt from a saved conversation (when it is opened from the list)."""
    from .views import AskForm, Part, handoffs_from_runs

    entries = []
    runs = list(state.runs)
    for index, run in enumerate(runs):
        inputs = run.get("inputs") or {}
        sent = str(inputs.get("query") or ", ".join(f"{k}: {v}" for k, v in inputs.items()))
        output = run.get("output") or {}
        paused = run.get("paused") or None
        agent = str(run.get("agent"))
        answer = AnswerView(
            query=sent,
            success=True,
            result_code=str(run.get("resultCode") or "success"),
            agent=agent,
            department=known.department(agent),
            convid=state.convid,
            parts=tuple(Part.from_wire(p) for p in output.get("parts") or ()),
            ask=AskForm.from_wire(paused["ask"]) if paused and paused.get("ask") else None,
            handoffs=handoffs_from_runs(runs[: index + 1]),
        )
        entries.append(Entry(sent, answer))
    return entries
