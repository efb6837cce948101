"""The mock account: search, run agents and manage conversations, per user.

This is the agent server without HTTP. Every operation takes the calling user;
another user's (or another account's) conversation is indistinguishable from one
that does not exist. A run goes: restore -> run -> save, the state going through the
vault (``vault``: read, decrypt, parse; check, encrypt, compare-and-swap write), and the
time of each phase is reported so the HTTP layer can send it as ``Server-Timing``.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from agents_catalog.agent_format import AgentDefinition
from mock_account.conversations.hooks import LoadedHooks
from mock_account.conversations.vault import Restored, Vault, new_convid, title_from_query
from mock_account.crypto import InvalidRecord, StateCipher
from mock_account.engine.runtime import Engine, PartListener, RunContext, RunOutcome
from mock_account.engine.state import (
    DEFAULT_MAX_STATE_BYTES,
    Handoff,
    ResultCode,
    StateInvalid,
    check_state,
    empty_state,
    handoffs,
)
from mock_account.errors import HookFailed, PinLimitReached, UnknownConversation
from mock_account.search.index import SearchHit, SearchIndex
from mock_account.search.routing import (
    DEFAULT_FOLLOWUP_BEHAVIOR,
    FollowupBehavior,
    choose_agent,
)
from mock_account.stores import (
    ConversationEntry,
    ConversationStore,
    StoreError,
    StoreUnavailable,
    VersionConflict,
    unavailable_message,
)
from mock_account.users import User

DEFAULT_PIN_LIMIT = 20
#: What ``execAgent`` says of a conversation that does not exist, expired or is someone else's.
EXPIRED_MESSAGE = "This conversation has expired. Please start a new one."
#: The most an identity's memory (``user.x``) may hold, as compact JSON.
MAX_MEMORY_BYTES = 64 * 1024

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class ExecResult:
    """The answer to one ``execAgent`` call plus its phase timings (``api.wire`` shapes it)."""

    success: bool
    result_code: ResultCode
    convid: str | None
    agent_name: str
    parts: list[dict[str, Any]] | None = None
    ask_input: dict[str, Any] | None = None
    error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    handoffs: list[Handoff] = field(default_factory=list)
    # What the run read and wrote (``conv`` variables, and ``user`` memory facts), and the
    # identity's memory to keep when the run was given one (``RunContext``) and changed it.
    reads: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    memory: dict[str, Any] | None = None
    memory_reads: list[str] = field(default_factory=list)
    memory_writes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Turn:
    """One saved run as ``getConversation`` lists it."""

    query: str
    agent_name: str
    parts: list[dict[str, Any]]
    result_code: ResultCode
    responded_at: datetime


@dataclass(frozen=True)
class ConversationView:
    convid: str
    title: str
    last_executed: datetime
    pinned: bool


@dataclass(frozen=True)
class RunRequest:
    """One ``execAgent`` call as the account runs it (the parameters of ``exec_agent``)."""

    user: User
    agent_name: str
    inputs: dict[str, Any]
    convid: str | None = None
    stop: threading.Event | None = None
    validation: bool = False
    on_part: PartListener | None = None
    context: RunContext | None = None
    start_as: str | None = None
    restored: Restored | None = None


@dataclass(frozen=True)
class _OpenedConversation:
    """The conversation a run works on: its id, its state, and the version a save replaces
    (0: a new conversation, nothing saved yet)."""

    convid: str
    state: dict[str, Any]
    version: int

    @property
    def existed(self) -> bool:
        return self.version != 0


class _RunRefused(Exception):
    """A run that ends unsaved: the result code and message it is answered with."""

    def __init__(self, code: ResultCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class MockAccount:
    """One mock account deployment: agents, search, engine, store and encryption."""

    def __init__(
        self,
        *,
        agents: list[AgentDefinition],
        engine: Engine,
        index: SearchIndex,
        store: ConversationStore,
        cipher: StateCipher,
        clock: Clock = utc_now,
        max_state_bytes: int = DEFAULT_MAX_STATE_BYTES,
        pin_limit: int = DEFAULT_PIN_LIMIT,
        state_hooks: LoadedHooks | None = None,
        hooks_error: str | None = None,
    ) -> None:
        self.agents = {a.name: a for a in agents}
        # Called before every search and run when set: applies agent configuration edits
        # saved by any process (see mock_account.config_history).
        self.before_use: Callable[[], object] | None = None
        self.config_history: Any = None
        self.engine = engine
        self.index = index
        self.clock = clock
        self.pin_limit = pin_limit
        # With state hooks the cloud keeps only the entry; ``hooks_error`` is why the configured
        # hooks could not be loaded (then no agent runs, rather than runs that silently lose state).
        self.vault = Vault(
            store,
            cipher,
            hooks=state_hooks,
            hooks_error=hooks_error,
            max_state_bytes=max_state_bytes,
        )

    @property
    def store(self) -> ConversationStore:
        """The store under the vault (entries are read and listed here directly)."""
        return self.vault.store

    def warm_up(self) -> None:
        """Prepare what the first runs would otherwise build (a server calls it at start)."""
        self.engine.warm_up()

    # --- search ---------------------------------------------------------------

    def search(self, query: str, tag: str | None = None, limit: int = 10) -> list[SearchHit]:
        """The agents that match ``query``, best first (the same for every user)."""
        if self.before_use is not None:
            self.before_use()
        return self.index.search(query, tag=tag, limit=limit)

    def route(
        self,
        user: User,
        query: str,
        convid: str | None,
        behavior: FollowupBehavior = DEFAULT_FOLLOWUP_BEHAVIOR,
    ) -> tuple[str | None, list[SearchHit]]:
        """Which agent a follow-up (or a new request) goes to, and the ranked matches."""
        hits = self.search(query)
        # The previous agent is read from the entry; only two cases need it.
        needs_previous = convid and (behavior == "executePrevious" or not hits)
        previous = self.last_agent(user, convid) if needs_previous else None
        names = [hit.agent_name for hit in hits]
        decision = choose_agent(names, behavior=behavior, previous_agent=previous)
        return decision.agent_name, hits

    # --- conversations ----------------------------------------------------------

    def _entry(self, user: User, convid: str) -> ConversationEntry:
        entry = self.store.get_entry(user.account, convid)
        if entry is None or entry.owner != user.email:
            raise UnknownConversation(convid)
        return entry

    def _view(self, user: User, entry: ConversationEntry) -> ConversationView:
        return ConversationView(
            entry.convid, self.vault.title(entry), entry.last_executed, entry.pinned
        )

    def get_conversation(self, user: User, convid: str) -> ConversationView:
        entry = self._entry(user, convid)
        self.store.update_entry(user.account, convid, last_read=self.clock())
        return self._view(user, entry)

    def turns(self, user: User, convid: str) -> list[Turn]:
        """Every saved run of a user's conversation, oldest first (counts as a use)."""
        restored = self.restore(user, convid)
        self.store.update_entry(user.account, convid, last_read=self.clock())
        turns = []
        for run in restored.state.get("runs") or []:
            query = (run.get("inputs") or {}).get("query")
            turns.append(
                Turn(
                    query=query if isinstance(query, str) else "",
                    agent_name=run["agent"],
                    parts=list((run.get("output") or {}).get("parts") or []),
                    result_code=run["resultCode"],
                    responded_at=datetime.fromisoformat(run["ranAt"]),
                )
            )
        return turns

    def list_pinned(self, user: User) -> list[ConversationView]:
        return [self._view(user, e) for e in self.store.list_pinned(user.account, user.email)]

    def list_recent(
        self, user: User, *, limit: int = 25, cursor: str | None = None
    ) -> tuple[list[ConversationView], str | None]:
        entries, next_cursor = self.store.list_recent(
            user.account, user.email, limit=limit, cursor=cursor
        )
        return [self._view(user, e) for e in entries], next_cursor

    def set_title(self, user: User, convid: str, title: str) -> None:
        self._entry(user, convid)
        self.vault.set_title(user.account, user.email, convid, title)

    def set_pinned(self, user: User, convid: str, pinned: bool) -> None:
        entry = self._entry(user, convid)
        if pinned and not entry.pinned:
            if self.store.count_pinned(user.account, user.email) >= self.pin_limit:
                raise PinLimitReached(
                    f"You can pin at most {self.pin_limit} conversations; unpin one first."
                )
        self.store.update_entry(user.account, convid, pinned=pinned)

    def delete(self, user: User, convid: str) -> None:
        """Delete a conversation; with state hooks, the hook deletes its state first.

        A failing ``deleteConversation`` (``HookFailed``) leaves the entry, so nothing is orphaned.
        """
        self._entry(user, convid)
        self.vault.delete(user.account, user.email, convid)

    def restore(self, user: User, convid: str) -> Restored:
        """The decrypted state of a user's conversation (raises UnknownConversation)."""
        return self.vault.restore(user.account, user.email, convid)

    def state_view(self, user: User, convid: str) -> dict[str, Any]:
        """The owner's decrypted state and the record as stored (the demo's inspector)."""
        restored = self.restore(user, convid)
        self.store.update_entry(user.account, convid, last_read=self.clock())
        return {"convid": convid, "state": restored.state, "record": restored.record()}

    def last_agent(self, user: User, convid: str | None) -> str | None:
        if not convid:
            return None
        try:
            return self.vault.last_agent(user.account, user.email, convid)
        except (UnknownConversation, InvalidRecord, HookFailed):
            return None

    # --- running agents -----------------------------------------------------------

    def exec_agent(
        self,
        user: User,
        agent_name: str,
        inputs: dict[str, Any],
        convid: str | None = None,
        stop: threading.Event | None = None,
        *,
        validation: bool = False,
        on_part: PartListener | None = None,
        context: RunContext | None = None,
        start_as: str | None = None,
        restored: Restored | None = None,
    ) -> ExecResult:
        """Run an agent; ``validation`` runs keep their state in the cloud even with state hooks.

        ``context`` gives the run ``sys`` values and an identity's memory (channels);
        ``start_as`` is the id a new conversation gets (when ``convid`` is not given), so a
        caller can link it before the run; a conversation that exists by then is a conflict.
        ``restored``: what ``restore(user, convid)`` gave the caller just before, handed over
        (the run works on its state) so it is not read and decrypted twice; if a save came in
        between, this run's save loses the compare-and-swap as it would have anyway.

        Notification hooks see every run: ``onAgentStart`` before, then ``onAgentEnd`` (success)
        or ``onAgentError`` (any other result), each with ``isValidation``. ``stop`` ends the
        run (``stopped``, nothing saved) if set before it is saved; ``on_part`` gets each output
        part as it is produced.
        """
        request = RunRequest(
            user, agent_name, inputs, convid, stop, validation, on_part, context, start_as, restored
        )
        hooks = self.vault.hooks if self.vault.hooks_error is None else None
        event = {
            "convid": convid,
            "userEmail": user.email,
            "agentName": agent_name,
            "isValidation": validation,
        }
        if hooks is not None:
            hooks.notify("onAgentStart", event)
        result = self._timed_run(request)
        if hooks is not None:
            done = {**event, "convid": result.convid or convid, "resultCode": result.result_code}
            if result.success:
                hooks.notify("onAgentEnd", done)
            else:
                hooks.notify("onAgentError", {**done, "error": result.error})
        return result

    def _touch(self, user: User, convid: str) -> None:
        # A run that saved nothing still counts as use of the conversation (retention).
        with contextlib.suppress(StoreError):
            self.store.update_entry(user.account, convid, last_read=self.clock())

    def _timed_run(self, request: RunRequest) -> ExecResult:
        """The run's result, its phases timed and a refusal turned into a failed result."""
        timings: dict[str, float] = {}
        started = time.perf_counter()
        try:
            result = self._restore_run_save(request, timings, started)
        except _RunRefused as refused:
            result = ExecResult(
                False,
                refused.code,
                None,
                request.agent_name,
                error=refused.message,
                timings=timings,
            )
        timings.setdefault("total", time.perf_counter() - started)
        return result

    def _restore_run_save(
        self, request: RunRequest, timings: dict[str, float], started: float
    ) -> ExecResult:
        """Restore (or start) the conversation, run the agent, save what it leaves."""
        self._check_runnable(request.agent_name)
        now = self.clock()
        opened = self._open(request, timings)
        mark = time.perf_counter()
        # The state was parsed for this call alone, so the engine may work on it directly.
        outcome: RunOutcome = self.engine.run(
            request.agent_name,
            opened.state,
            request.inputs,
            user=request.user.email,
            convid=opened.convid,
            now=now,
            stop=request.stop,
            owned=True,
            on_part=request.on_part,
            context=request.context,
        )
        timings["run"] = time.perf_counter() - mark
        if not outcome.saves:
            if opened.existed:
                self._touch(request.user, opened.convid)
            if outcome.result_code == "ask":
                # Answers that do not fit the form: ask again, nothing changed or saved.
                return ExecResult(
                    True,
                    "ask",
                    opened.convid,
                    request.agent_name,
                    parts=outcome.parts,
                    ask_input=outcome.ask_input,
                    timings=timings,
                )
            raise _RunRefused(outcome.result_code, outcome.error or "The agent did not finish.")
        if request.stop is not None and request.stop.is_set():
            # The caller left after the run's last step: nothing of a stopped run is saved.
            raise _RunRefused("stopped", "The run was stopped.")
        self._save(request, opened, outcome, now, timings)
        runs = (outcome.state or {}).get("runs") or []
        # Taken before the parsed state is freed (on return): freeing it is Python's
        # bookkeeping, no phase of the call's work.
        timings["total"] = time.perf_counter() - started
        return ExecResult(
            True,
            outcome.result_code,
            opened.convid,
            request.agent_name,
            parts=outcome.parts,
            ask_input=outcome.ask_input,
            timings=timings,
            handoffs=handoffs(runs),
            reads=outcome.reads,
            writes=outcome.writes,
            memory=outcome.memory,
            memory_reads=outcome.memory_reads,
            memory_writes=outcome.memory_writes,
        )

    def _check_runnable(self, agent_name: str) -> None:
        if self.before_use is not None:
            self.before_use()
        if agent_name not in self.agents:
            raise _RunRefused("callFailed", f"There is no agent named '{agent_name}'.")
        if self.vault.hooks_error is not None:
            error = self.vault.hooks_error
            raise _RunRefused("callFailed", f"State hooks could not be loaded: {error}")

    def _open(self, request: RunRequest, timings: dict[str, float]) -> _OpenedConversation:
        """The conversation the run continues (restored, timed) or the new one it starts."""
        convid = request.convid
        if not convid:
            return _OpenedConversation(request.start_as or new_convid(), empty_state(), 0)
        mark = time.perf_counter()
        restored = request.restored
        try:
            if restored is None or restored.entry.convid != convid:
                restored = self.restore(request.user, convid)
        except UnknownConversation:
            raise _RunRefused("unknownConversation", EXPIRED_MESSAGE) from None
        except InvalidRecord:
            raise _RunRefused(
                "callFailed", "This conversation cannot be read; nothing was changed."
            ) from None
        except StoreUnavailable as exc:
            raise _RunRefused("callFailed", unavailable_message(exc)) from exc
        except HookFailed as exc:
            raise _RunRefused(
                "callFailed", f"The state hook failed: {exc}; nothing was changed."
            ) from exc
        timings["restore"] = time.perf_counter() - mark
        return _OpenedConversation(convid, restored.state, restored.entry.state_version)

    def _save(
        self,
        request: RunRequest,
        opened: _OpenedConversation,
        outcome: RunOutcome,
        now: datetime,
        timings: dict[str, float],
    ) -> None:
        """Save the run's state (and check its memory first), or refuse with why not."""
        user = request.user
        if outcome.memory is not None:
            # Checked before the state is saved: a run whose memory cannot be kept saves nothing.
            try:
                check_state({"user": outcome.memory}, MAX_MEMORY_BYTES)
            except StateInvalid as exc:
                message = f"The user's memory cannot be saved: {exc}"
                raise _RunRefused("errorInAgent", message) from exc
        try:
            saved = self.vault.save(
                account=user.account,
                owner=user.email,
                convid=opened.convid,
                state=outcome.state or {},
                expected_version=opened.version,
                now=now,
                title=title_from_query(str(request.inputs.get("query", ""))),
                agent_name=request.agent_name,
                validation=request.validation,
            )
        except StateInvalid as exc:
            message = f"The conversation state cannot be saved: {exc}"
            raise _RunRefused("errorInAgent", message) from exc
        except HookFailed as exc:
            message = f"The state hook failed: {exc}; nothing of this run was saved."
            raise _RunRefused("callFailed", message) from exc
        except VersionConflict as exc:
            raise _RunRefused(
                "callFailed",
                "Another request in this conversation finished first; nothing of this one was "
                "saved. Please try again.",
            ) from exc
        except StoreUnavailable as exc:
            raise _RunRefused("callFailed", unavailable_message(exc)) from exc
        # The save's own stages (serialize, encrypt, write): disjoint, so the phases add up.
        for stage, micros in saved.times.stages.items():
            timings[stage] = micros / 1e6
