"""The demo's client for an embedded mock account (no server, SQLite by default)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from mock_account.conversations.account import ConversationView, ExecResult
from mock_account.crypto import InvalidRecord, KeyringError
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.errors import PinLimitReached, UnknownConversation
from mock_account.search.index import SearchHit
from mock_account.stores import StoreError, unavailable_message
from mock_account.users import User

from .agent_runs import AgentRun, RoutedRuns
from .views import (
    AnswerView,
    AskForm,
    ClientError,
    ConversationItem,
    ConversationLists,
    DemoUser,
    Handoff,
    Match,
    Part,
    SearchOutcome,
    StateView,
    check_query,
)

UNKNOWN_CONVERSATION = "This conversation does not exist (or belongs to someone else)."
RECENT_LIMIT = 25
TITLE_LIMIT = 200
STORE_NAMES = {
    "sqlite": "SQLite",
    "postgresql": "PostgreSQL",
    "postgres": "PostgreSQL",
    "redis": "Redis",
    "rediss": "Redis",
    "memory": "in-memory",
}
OPENING_STAGE = "Opening the encrypted store and the 200 agents…"
WARMING_STAGE = "Warming up the mock world (places, dates, business data)…"


def _match(hit: SearchHit) -> Match:
    return Match(hit.agent_name, hit.agent_title, hit.tag, hit.score)


def _item(view: ConversationView) -> ConversationItem:
    return ConversationItem(view.convid, view.title, view.last_executed.isoformat(), view.pinned)


class InProcessClient(RoutedRuns):
    """Wraps a ``Deployment``: the account runs inside the demo's own process."""

    def __init__(self, deployment: Deployment) -> None:
        self.deployment = deployment
        self.account = deployment.account
        # The store's kind, not its address: a file path says nothing to a visitor.
        kind = urlsplit(deployment.config.resolved_store_url()).scheme.lower()
        self.description = f"embedded account ({STORE_NAMES.get(kind, kind)} store, encrypted)"
        self.stop_sweeper = threading.Event()
        self.sweeper: threading.Thread | None = None

    @classmethod
    def embedded(
        cls,
        config: AccountConfig | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> InProcessClient:
        """The default: the embedded account with SQLite under the project's data folder.

        Like the server, it runs the retention sweep in the background (unless its
        configuration turns it off: ``python -m demo_app --no-sweep``). ``progress`` is told
        each stage of the loading as it starts.
        """
        say = progress or (lambda _stage: None)
        try:
            say(OPENING_STAGE)
            deployment = build_deployment(config or AccountConfig())
            # The first visitor's request should not pay for loading the data and tables.
            say(WARMING_STAGE)
            deployment.account.warm_up()
            client = cls(deployment)
            client.sweeper = deployment.start_sweeper(client.stop_sweeper)
            return client
        except (StoreError, KeyringError, OSError, ValueError) as exc:
            raise ClientError(f"The embedded account cannot start: {exc}") from exc

    # --- users ------------------------------------------------------------------------

    def users(self) -> list[DemoUser]:
        return [
            DemoUser(u.email, f"{u.name} ({u.account})", u.account)
            for u in self.deployment.users.users
        ]

    def _user(self, key: str) -> User:
        user = self.deployment.users.by_email(key)
        if user is None:
            raise ClientError(f"Unknown user '{key}'.")
        return user

    # --- search and runs ----------------------------------------------------------------

    def search(self, user: str, query: str, tag: str | None = None) -> list[Match]:
        text = check_query(query)
        self._user(user)  # an unknown user is refused even though search is the same for all
        return [_match(h) for h in self.account.search(text, tag=tag)]

    def find(self, user: str, query: str, convid: str | None = None) -> SearchOutcome:
        text = check_query(query)
        who = self._user(user)
        try:
            hits = self.account.search(text)
            # Restoring a state costs; only a request that matches nothing needs the last agent.
            previous = self.account.last_agent(who, convid) if convid and not hits else None
        except StoreError as exc:
            raise ClientError(unavailable_message(exc)) from exc
        return SearchOutcome(
            text,
            tuple(_match(h) for h in hits),
            self.deployment.config.search_behavior,
            previous,
        )

    def start(self, run: AgentRun) -> AnswerView:
        who = self._user(run.user)
        result = self.account.exec_agent(who, run.agent, {"query": run.text}, run.convid)
        return self._answer(run.user, run.text, result, run.matches, run.convid)

    def answer_ask(self, user: str, pending: AnswerView, answers: dict[str, Any]) -> AnswerView:
        if pending.convid is None:
            raise ClientError("There is no question waiting for an answer.")
        result = self.account.exec_agent(self._user(user), pending.agent, answers, pending.convid)
        return self._answer(user, pending.query, result, pending.matches, pending.convid)

    def _answer(
        self,
        user: str,
        query: str,
        result: ExecResult,
        matches: tuple[Match, ...],
        previous_convid: str | None,
    ) -> AnswerView:
        department = next((m.department for m in matches if m.agent_name == result.agent_name), "")
        if not department:
            agent = self.account.agents.get(result.agent_name)
            department = agent.tag if agent else ""
        return AnswerView(
            query=query,
            success=result.success,
            result_code=result.result_code,
            agent=result.agent_name,
            department=department,
            convid=result.convid or previous_convid,
            matches=matches,
            parts=tuple(Part.from_wire(p) for p in result.parts or ()),
            ask=AskForm.from_wire(result.ask_input) if result.ask_input else None,
            handoffs=self._handoffs(user, result),
            error=result.error,
            timings=dict(result.timings),
        )

    def _handoffs(self, user: str, result: ExecResult) -> tuple[Handoff, ...]:
        """The run's hand-offs, each with the record as saved with this answer."""
        if not result.handoffs or not result.convid:
            return ()
        try:
            return self.state(user, result.convid).handoffs()
        except ClientError:
            # Shown without their records rather than failing an answer that was saved.
            return tuple(Handoff(h["variable"], h["from"]) for h in result.handoffs)

    # --- conversations ------------------------------------------------------------------

    def conversations(self, user: str) -> ConversationLists:
        who = self._user(user)
        try:
            pinned = self.account.list_pinned(who)
            recent, _ = self.account.list_recent(who, limit=RECENT_LIMIT)
        except StoreError as exc:
            raise ClientError(unavailable_message(exc)) from exc
        return ConversationLists(
            tuple(_item(v) for v in pinned), tuple(_item(v) for v in recent if not v.pinned)
        )

    def rename(self, user: str, convid: str, title: str) -> None:
        text = " ".join(title.split())
        if not text or len(text) > TITLE_LIMIT:
            raise ClientError(f"A title has 1 to {TITLE_LIMIT} characters.")
        self._call(lambda: self.account.set_title(self._user(user), convid, text))

    def pin(self, user: str, convid: str, pinned: bool) -> None:
        self._call(lambda: self.account.set_pinned(self._user(user), convid, pinned))

    def delete(self, user: str, convid: str) -> None:
        self._call(lambda: self.account.delete(self._user(user), convid))

    def state(self, user: str, convid: str) -> StateView:
        view: dict[str, Any] = {}

        def load() -> None:
            view.update(self.account.state_view(self._user(user), convid))

        self._call(load)
        return StateView.from_wire(view)

    @staticmethod
    def _call(action: Callable[[], object]) -> None:
        try:
            action()
        except UnknownConversation as exc:
            raise ClientError(UNKNOWN_CONVERSATION) from exc
        except PinLimitReached as exc:
            raise ClientError(str(exc)) from exc
        except InvalidRecord as exc:
            raise ClientError("This conversation's stored record cannot be opened.") from exc
        except StoreError as exc:
            raise ClientError(unavailable_message(exc)) from exc

    def close(self) -> None:
        self.deployment.close()
