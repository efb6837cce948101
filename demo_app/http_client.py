"""The demo's client for a server speaking the Search2o API (base URL + bearer token).

Only the Search2o shapes are needed: search, execAgent, the conversation lists and
``getConversation`` (which agent answered last). Hand-off markers are computed from the harness's
state view (the latest run's reads against earlier runs' writes), exactly as in-process; a server
without that extra simply shows none. Phase timings come from the ``Server-Timing`` header.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import httpx

from mock_account.api.timing import parse_server_timing

from .agent_runs import AgentRun, RoutedRuns
from .catalog import load_catalog
from .http_transport import post_json
from .views import (
    AnswerView,
    AskForm,
    ClientError,
    ConversationItem,
    ConversationLists,
    DemoUser,
    Match,
    Part,
    SearchOutcome,
    StateView,
    check_query,
)

DEFAULT_TIMEOUT_S = 15.0
UNKNOWN_CONVERSATION = "This conversation does not exist (or belongs to someone else)."
RECENT_LIMIT = 25
# A server that does not say (an older one) runs the best match, as Search2o's default does.
DEFAULT_SEARCH_BEHAVIOR = "executeTopMatch"


def timings_in_seconds(header: str | None) -> dict[str, float]:
    """The ``Server-Timing`` phases in seconds, the unit of the in-process client's timings."""
    return {phase: ms / 1000.0 for phase, ms in parse_server_timing(header).items()}


def iso_time(epoch_ms: Any) -> str:
    """``lastExecuted`` (epoch milliseconds on the wire) as ISO 8601 UTC, or "" if absent."""
    if isinstance(epoch_ms, bool) or not isinstance(epoch_ms, int | float):
        return ""
    return datetime.fromtimestamp(epoch_ms / 1000, UTC).isoformat()


def _short_token(token: str) -> str:
    return f"token …{token[-4:]}" if len(token) > 4 else "token"


class HttpClient(RoutedRuns):
    """Talks to ``base_url`` as the user of ``token``."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        url = base_url.strip().rstrip("/")
        if not re.match(r"^https?://[^/\s]+", url):
            raise ClientError(
                f"'{base_url}' is not a server URL; expected e.g. http://127.0.0.1:9020"
            )
        if not token.strip():
            raise ClientError("Please give the bearer token of the user to act as.")
        self.base_url = url
        self.token = token.strip()
        self.description = f"server {url} ({_short_token(self.token)})"
        self._http = httpx.Client(
            base_url=url,
            timeout=timeout_s,
            transport=transport,
            headers={"Authorization": f"Bearer {self.token}"},
        )

    # --- transport -------------------------------------------------------------------

    def _post(self, path: str, body: dict[str, Any]) -> tuple[dict[str, Any], httpx.Response]:
        data, response = post_json(self._http, self.base_url, path, body)
        if response.status_code == 401:
            raise ClientError("The server refused the token (401): check the bearer token.")
        if response.status_code == 404:
            raise ClientError(UNKNOWN_CONVERSATION)
        if response.status_code >= 400 or not isinstance(data, dict):
            message = ""
            if isinstance(data, dict):
                error = data.get("error")
                message = error.get("message", "") if isinstance(error, dict) else str(error or "")
                if not message and "detail" in data:
                    message = str(data["detail"])
            raise ClientError(
                f"The server answered {response.status_code} to {path}"
                + (f": {message}" if message else ".")
            )
        return data, response

    def check(self) -> None:
        """Raise ClientError unless the server is reachable and accepts the token."""
        self._post("/api/user/getPinnedConversations", {})

    # --- users ------------------------------------------------------------------------

    def users(self) -> list[DemoUser]:
        return [DemoUser(self.token, _short_token(self.token))]

    # --- search and runs ----------------------------------------------------------------

    def _search(self, query: str, tag: str | None = None) -> tuple[list[Match], str]:
        body: dict[str, Any] = {"query": check_query(query)}
        if tag:
            body["tag"] = tag
        data, _ = self._post("/api/exec/search", body)
        catalog = load_catalog()
        matches = [
            Match(
                str(r.get("agentName")),
                str(r.get("agentTitle") or ""),
                catalog.department(str(r.get("agentName"))),
                r.get("score"),
            )
            for r in data.get("searchResults") or ()
        ]
        return matches, str(data.get("searchBehavior") or DEFAULT_SEARCH_BEHAVIOR)

    def last_agent(self, convid: str) -> str | None:
        """The agent that answered last in ``convid``, from the Search2o ``getConversation``."""
        data, _ = self._post("/api/user/getConversation", {"convid": convid})
        turns = [t for t in data.get("conversation") or () if isinstance(t, dict)]
        if not turns:
            return None
        response = turns[-1].get("response")
        name = response.get("agentName") if isinstance(response, dict) else None
        return str(name) if name else None

    def search(self, user: str, query: str, tag: str | None = None) -> list[Match]:
        return self._search(query, tag)[0]

    def find(self, user: str, query: str, convid: str | None = None) -> SearchOutcome:
        text = check_query(query)
        matches, behavior = self._search(text)
        previous = self.last_agent(convid) if convid and not matches else None
        return SearchOutcome(text, tuple(matches), behavior, previous)

    def start(self, run: AgentRun) -> AnswerView:
        body: dict[str, Any] = {
            "agentName": run.agent,
            "inputs": {"query": run.text},
            "stream": False,
        }
        if run.convid:
            body["convid"] = run.convid
        return self._exec(run.user, body, run.text, run.matches, run.convid)

    def answer_ask(self, user: str, pending: AnswerView, answers: dict[str, Any]) -> AnswerView:
        if pending.convid is None:
            raise ClientError("There is no question waiting for an answer.")
        body = {
            "agentName": pending.agent,
            "convid": pending.convid,
            "inputs": answers,
            "stream": False,
        }
        return self._exec(user, body, pending.query, pending.matches, pending.convid)

    def _exec(
        self,
        user: str,
        body: dict[str, Any],
        query: str,
        matches: tuple[Match, ...],
        previous_convid: str | None,
    ) -> AnswerView:
        data, response = self._post("/api/exec/execAgent", body)
        agent = str(data.get("agentName") or body["agentName"])
        convid = data.get("convid") or previous_convid
        output = data.get("output") or {}
        error = data.get("error")
        success = bool(data.get("success"))
        handoffs: tuple = ()
        if success and convid and data.get("resultCode") != "ask":
            try:
                handoffs = self.state(user, convid).handoffs()
            except ClientError:
                handoffs = ()  # a server without the state extra: no markers
        department = next((m.department for m in matches if m.agent_name == agent), "")
        return AnswerView(
            query=query,
            success=success,
            result_code=str(data.get("resultCode") or "unexpected"),
            agent=agent,
            department=department or load_catalog().department(agent),
            convid=convid,
            matches=matches,
            parts=tuple(Part.from_wire(p) for p in output.get("parts") or ()),
            ask=AskForm.from_wire(data["askInput"]) if data.get("askInput") else None,
            handoffs=handoffs,
            error=(error.get("message") if isinstance(error, dict) else error),
            timings=timings_in_seconds(response.headers.get("server-timing")),
        )

    # --- conversations ------------------------------------------------------------------

    @staticmethod
    def _items(data: dict[str, Any], key: str) -> tuple[ConversationItem, ...]:
        return tuple(
            ConversationItem(
                str(c["convid"]),
                str(c.get("title") or ""),
                iso_time(c.get("lastExecuted")),
                bool(c.get("pinned")),
            )
            for c in data.get(key) or ()
        )

    def conversations(self, user: str) -> ConversationLists:
        pinned, _ = self._post("/api/user/getPinnedConversations", {})
        recent, _ = self._post("/api/user/getUnpinnedConversations", {"limit": RECENT_LIMIT})
        return ConversationLists(
            self._items(pinned, "pinnedConversations"),
            self._items(recent, "unpinnedConversations"),
        )

    def rename(self, user: str, convid: str, title: str) -> None:
        self._post("/api/user/setConversationTitle", {"convid": convid, "title": title.strip()})

    def pin(self, user: str, convid: str, pinned: bool) -> None:
        self._post("/api/user/setPinned", {"convid": convid, "pinned": pinned})

    def delete(self, user: str, convid: str) -> None:
        self._post("/api/user/deleteConversation", {"convid": convid})

    def state(self, user: str, convid: str) -> StateView:
        data, _ = self._post("/api/harness/getConversationState", {"convid": convid})
        inner = data.get("state")
        # Accept the view itself or the view wrapped once more under "state".
        if isinstance(inner, dict) and isinstance(inner.get("state"), dict):
            return StateView.from_wire(inner)
        return StateView.from_wire(data)

    def close(self) -> None:
        self._http.close()
