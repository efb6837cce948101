"""Per-browser-session state of the demo: which account, which user, which conversation.

The embedded account is built once per process and data folder, in the background
(``background``), so pages paint while it loads; a server connection is kept in the session.
Pages call ``client()`` and ``user_key()`` and get a ``ClientError`` message rather than an
exception when there is no connection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from mock_account.deployment import AccountConfig, project_data_dir

from . import background
from .background import BackgroundJob
from .catalog import Catalog, catalog_from_agents, load_catalog
from .client import DemoClient
from .inprocess_client import InProcessClient
from .request_runner import PartResult, RequestRun
from .search_choice import RUN_BEST
from .views import AnswerView, ClientError

EMBEDDED = "Embedded account"
SERVER = "Server (URL + token)"
MODES = (EMBEDDED, SERVER)


def account_loading(data_dir: str) -> BackgroundJob:
    """The embedded account of ``data_dir``, loading (or loaded) in the background."""

    def load(job: BackgroundJob) -> InProcessClient:
        return InProcessClient.embedded(AccountConfig(data_dir=Path(data_dir)), job.report)

    return background.started(f"embedded account {data_dir}", load, "Starting the account…")


def embedded_client(data_dir: str) -> InProcessClient:
    """The embedded account of ``data_dir``, once loaded (a request made meanwhile waits)."""
    job = account_loading(data_dir)
    try:
        return job.result()
    except ClientError:
        background.forget(job)  # the next run tries again, as a fix may have been made since
        raise


def pending_loading() -> BackgroundJob | None:
    """What the chosen account still waits for: the embedded one's loading, if not done."""
    if mode() != EMBEDDED:
        return None
    job = account_loading(str(project_data_dir()))
    return None if job.done else job


@st.cache_resource(show_spinner=False, max_entries=4)
def _embedded_catalog(data_dir: str, index_id: int) -> Catalog:
    # ``index_id``: the account's search index is a new object after every configuration
    # edit, so the agents, the hand-off graph and the follow-ups follow the edits.
    account = embedded_client(data_dir).account
    return catalog_from_agents(list(account.agents.values()), account.index)


@dataclass
class Entry:
    """One exchange in the chat transcript: what the user sent and the answer.

    ``parts`` holds the answer part by part when the message went through the request
    runner (one part, or several for a multi-part request); ``answer`` is then the last
    answer among them.
    """

    sent: str
    answer: AnswerView | None = None
    error: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    parts: tuple[PartResult, ...] = ()


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
        account = embedded_client(str(project_data_dir())).account
        if account.before_use is not None:
            account.before_use()  # apply configuration edits saved by any process
        return _embedded_catalog(str(project_data_dir()), id(account.index))
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
    st.session_state.pop("run", None)
    st.session_state.pop("held", None)


def _of_this_conversation(key: str) -> Any:
    """What the session keeps under ``key`` (a thing with a ``convid``) for the conversation
    open now, or ``None``."""
    kept = st.session_state.get(key)
    if kept is not None and kept.convid != convid():
        # Another conversation was opened meanwhile: what was kept stays with its own.
        st.session_state.pop(key, None)
        return None
    return kept


def active_run() -> RequestRun | None:
    """The request still in progress (waiting on a form or a choice) in this conversation."""
    return _of_this_conversation("run")


@dataclass(frozen=True)
class HeldRequest:
    """A request typed while a form waits; ``after_form``: send it once the form is done."""

    text: str
    convid: str | None
    after_form: bool = False


def held_request() -> HeldRequest | None:
    return _of_this_conversation("held")


def hold_request(held: HeldRequest | None) -> None:
    if held is None:
        st.session_state.pop("held", None)
    else:
        st.session_state["held"] = held


def set_active_run(run: RequestRun | None) -> None:
    if run is None or run.done:
        st.session_state.pop("run", None)
    else:
        st.session_state["run"] = run
    if run is not None and run.behavior:
        st.session_state["reported_search_behavior"] = run.behavior


def search_behavior_override() -> str | None:
    """The embedded demo's own setting (sidebar); over a server, the server's setting rules."""
    if mode() != EMBEDDED:
        return None
    return st.session_state.get("search_behavior") or None


def embedded_search_behavior() -> str:
    """The embedded account's configured behaviour (the sidebar's initial value)."""
    try:
        return str(embedded_client(str(project_data_dir())).deployment.config.search_behavior)
    except ClientError:
        return RUN_BEST


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
            # The record as saved is known for the latest run only (the state holds its value
            # now): earlier hand-offs show without one rather than with a later value.
            handoffs=handoffs_from_runs(
                runs[: index + 1], state.conv if index == len(runs) - 1 else None
            ),
        )
        entries.append(Entry(sent, answer))
    return entries
