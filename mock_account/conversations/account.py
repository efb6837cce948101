"""The mock account: search, run agents and manage conversations, per user.

This is the agent server without HTTP. Every operation takes the calling user;
another user's (or another account's) conversation is indistinguishable from one
that does not exist. A run goes: restore (load, decrypt, parse) -> run -> save
(check, serialize, encrypt, compare-and-swap write), and the time of each phase is
reported so the HTTP layer can send it as ``Server-Timing``.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import string
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from agents_catalog.agent_format import AgentDefinition
from mock_account.conversations.hooks import LoadedHooks
from mock_account.crypto import InvalidRecord, StateCipher, record_info
from mock_account.engine.runtime import Engine, RunOutcome
from mock_account.engine.state import (
    DEFAULT_MAX_STATE_BYTES,
    StateInvalid,
    check_state,
    empty_state,
    parse_state,
)
from mock_account.errors import HookFailed, PinLimitReached, UnknownConversation
from mock_account.search.index import SearchHit, SearchIndex
from mock_account.search.routing import choose_agent
from mock_account.stores import (
    ConversationEntry,
    ConversationStore,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from mock_account.users import User

CONVID_ALPHABET = string.ascii_letters + string.digits
CONVID_LENGTH = 22
TITLE_LIMIT = 200
DEFAULT_PIN_LIMIT = 20

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def new_convid() -> str:
    return "".join(secrets.choice(CONVID_ALPHABET) for _ in range(CONVID_LENGTH))


def title_from_query(query: str) -> str:
    """The first query, cut at a word boundary at 200 characters."""
    text = " ".join(query.split())
    if len(text) <= TITLE_LIMIT:
        return text or "New conversation"
    cut = text[: TITLE_LIMIT + 1].rsplit(" ", 1)[0]
    return (cut if cut else text[:TITLE_LIMIT]).rstrip()[:TITLE_LIMIT]


@dataclass
class ExecResult:
    """The answer to one ``execAgent`` call (the wire fields) plus its phase timings."""

    success: bool
    result_code: str
    convid: str | None
    agent_name: str
    parts: list[dict[str, Any]] | None = None
    ask_input: dict[str, Any] | None = None
    error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    handoffs: list[dict[str, str]] = field(default_factory=list)

    def wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "success": self.success,
            "convid": self.convid,
            "agentName": self.agent_name,
            "output": (
                {"agentName": self.agent_name, "parts": self.parts}
                if self.parts is not None
                else None
            ),
            "resultCode": self.result_code,
        }
        if self.ask_input is not None:
            body["askInput"] = self.ask_input
        if self.error is not None:
            body["error"] = {"message": self.error}
        return body


@dataclass(frozen=True)
class ConversationView:
    convid: str
    title: str
    last_executed: datetime
    pinned: bool

    def wire(self) -> dict[str, Any]:
        return {
            "convid": self.convid,
            "title": self.title,
            "lastExecuted": self.last_executed.isoformat(),
            "pinned": self.pinned,
        }


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
        self.engine = engine
        self.index = index
        self.store = store
        self.cipher = cipher
        self.clock = clock
        self.max_state_bytes = max_state_bytes
        self.pin_limit = pin_limit
        # With state hooks the cloud keeps only the entry; ``hooks_error`` is why the configured
        # hooks could not be loaded (then no agent runs, rather than runs that silently lose state).
        self.state_hooks = state_hooks
        self.hooks_error = hooks_error

    # --- search ---------------------------------------------------------------

    def search(
        self, user: User, query: str, tag: str | None = None, limit: int = 10
    ) -> list[SearchHit]:
        return self.index.search(query, tag=tag, limit=limit)

    def route(
        self, user: User, query: str, convid: str | None, behavior: str = "executeTopMatch"
    ) -> tuple[str | None, list[SearchHit]]:
        """Which agent a follow-up (or a new request) goes to, and the ranked matches."""
        hits = self.search(user, query)
        # Finding the previous agent means restoring the whole state; only two cases use it.
        needs_previous = convid and (behavior == "executePrevious" or not hits)
        previous = self.last_agent(user, convid) if needs_previous else None
        decision = choose_agent(hits, behavior=behavior, previous_agent=previous)
        return decision.agent_name, hits

    # --- conversations ----------------------------------------------------------

    def _entry(self, user: User, convid: str) -> ConversationEntry:
        entry = self.store.get_entry(user.account, convid)
        if entry is None or entry.owner != user.email:
            raise UnknownConversation(convid)
        return entry

    def _title(self, user: User, entry: ConversationEntry) -> str:
        try:
            return self.cipher.decrypt(
                entry.title, convid=entry.convid, owner=user.email, purpose="title"
            ).decode("utf-8")
        except (InvalidRecord, UnicodeDecodeError):
            return "(this title cannot be read)"

    def _view(self, user: User, entry: ConversationEntry) -> ConversationView:
        return ConversationView(
            entry.convid, self._title(user, entry), entry.last_executed, entry.pinned
        )

    def get_conversation(self, user: User, convid: str) -> ConversationView:
        entry = self._entry(user, convid)
        self.store.update_entry(user.account, convid, last_read=self.clock())
        return self._view(user, entry)

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
        blob = self.cipher.encrypt(title.encode(), convid=convid, owner=user.email, purpose="title")
        self.store.update_entry(user.account, convid, title=blob)

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
        hooks = self._hooks()
        if hooks is not None and hooks.keeps_state:
            hooks.delete_state(convid=convid, user_email=user.email)
        self.store.delete(user.account, convid)

    def _hooks(self) -> LoadedHooks | None:
        if self.hooks_error is not None:
            raise HookFailed("load", f"State hooks could not be loaded: {self.hooks_error}")
        return self.state_hooks

    def load_state(
        self, user: User, convid: str
    ) -> tuple[dict[str, Any], ConversationEntry, bytes | None]:
        """The decrypted state of a user's conversation (raises UnknownConversation)."""
        stored = self.store.load(user.account, convid)
        if stored is None or stored.entry.owner != user.email:
            raise UnknownConversation(convid)
        if stored.blob is None:
            hooks = self._hooks()
            if stored.entry.state_version == 0:
                return empty_state(), stored.entry, None
            if hooks is None or not hooks.keeps_state:
                # Saved through state hooks that are no longer configured: refuse rather than
                # start over from an empty state that the next run would save.
                raise HookFailed(
                    "restore",
                    "this conversation's state is kept by state hooks, and none are configured",
                )
            # The state lives in the customer's systems; nothing there means no state yet.
            restored = hooks.restore_state(convid=convid, user_email=user.email)
            if restored is None:
                return empty_state(), stored.entry, None
            try:
                return parse_state(check_state(restored, self.max_state_bytes)), stored.entry, None
            except StateInvalid as exc:
                raise HookFailed("restore", f"returned an unusable state: {exc}") from exc
        plain = self.cipher.decrypt(stored.blob, convid=convid, owner=user.email, purpose="state")
        return parse_state(plain), stored.entry, stored.blob

    def state_view(self, user: User, convid: str) -> dict[str, Any]:
        """The owner's decrypted state and the record as stored (the demo's inspector)."""
        state, entry, blob = self.load_state(user, convid)
        self.store.update_entry(user.account, convid, last_read=self.clock())
        record: dict[str, Any] | None = None
        if blob is not None:
            info = record_info(blob)
            record = {
                "size": len(blob),
                "keyId": info.key_id,
                "formatVersion": info.format_version,
                "stateVersion": entry.state_version,
                "hexPreview": blob[:48].hex(),
            }
        return {"convid": convid, "state": state, "record": record}

    def last_agent(self, user: User, convid: str | None) -> str | None:
        if not convid:
            return None
        try:
            state, _, _ = self.load_state(user, convid)
        except (UnknownConversation, InvalidRecord, HookFailed):
            return None
        runs = state.get("runs") or []
        return runs[-1]["agent"] if runs else None

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
    ) -> ExecResult:
        """Run an agent; ``validation`` runs keep their state in the cloud even with state hooks.

        Notification hooks see every run: ``onAgentStart`` before, then ``onAgentEnd`` (success)
        or ``onAgentError`` (any other result), each with ``isValidation``.
        """
        hooks = self.state_hooks if self.hooks_error is None else None
        event = {
            "convid": convid,
            "userEmail": user.email,
            "agentName": agent_name,
            "isValidation": validation,
        }
        if hooks is not None:
            hooks.notify("onAgentStart", event)
        result = self._exec_agent(user, agent_name, inputs, convid, stop, validation)
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

    def _exec_agent(
        self,
        user: User,
        agent_name: str,
        inputs: dict[str, Any],
        convid: str | None,
        stop: threading.Event | None,
        validation: bool,
    ) -> ExecResult:
        timings: dict[str, float] = {}
        started = time.perf_counter()

        def failed(code: str, message: str) -> ExecResult:
            return ExecResult(False, code, None, agent_name, error=message, timings=timings)

        if agent_name not in self.agents:
            return failed("callFailed", f"There is no agent named '{agent_name}'.")
        if self.hooks_error is not None:
            return failed("callFailed", f"State hooks could not be loaded: {self.hooks_error}")
        now = self.clock()
        expected_version = 0
        if convid:
            try:
                state, entry, _ = self.load_state(user, convid)
            except UnknownConversation:
                return failed("unknownConversation", "This conversation does not exist.")
            except InvalidRecord:
                return failed(
                    "callFailed", "This conversation cannot be read; nothing was changed."
                )
            except StoreUnavailable as exc:
                return failed("callFailed", f"The conversation store is unavailable: {exc}")
            except HookFailed as exc:
                return failed("callFailed", f"The state hook failed: {exc}; nothing was changed.")
            expected_version = entry.state_version
        else:
            convid, state = new_convid(), empty_state()
        timings["restore"] = time.perf_counter() - started

        mark = time.perf_counter()
        # The state was parsed for this call alone, so the engine may work on it directly.
        outcome: RunOutcome = self.engine.run(
            agent_name,
            state,
            inputs,
            user=user.email,
            convid=convid,
            now=now,
            stop=stop,
            owned=True,
        )
        timings["run"] = time.perf_counter() - mark
        if outcome.result_code == "ask" and not outcome.saves:
            # Answers that do not fit the form: ask again, nothing changed, nothing to save.
            if expected_version:
                self._touch(user, convid)
            return ExecResult(
                True,
                "ask",
                convid,
                agent_name,
                parts=outcome.parts,
                ask_input=outcome.ask_input,
                timings=timings,
            )
        if not outcome.saves:
            if expected_version:
                self._touch(user, convid)
            return failed(outcome.result_code, outcome.error or "The agent did not finish.")

        mark = time.perf_counter()
        try:
            plain = check_state(outcome.state or {}, self.max_state_bytes)
        except StateInvalid as exc:
            return failed("errorInAgent", f"The conversation state cannot be saved: {exc}")
        enc = time.perf_counter()
        to_hook = self.state_hooks is not None and self.state_hooks.keeps_state and not validation
        blob: bytes | None = None
        if not to_hook:
            blob = self.cipher.encrypt(plain, convid=convid, owner=user.email, purpose="state")
        title = b""
        if expected_version == 0:
            title = self.cipher.encrypt(
                title_from_query(str(inputs.get("query", ""))).encode(),
                convid=convid,
                owner=user.email,
                purpose="title",
            )
        timings["encrypt"] = time.perf_counter() - enc
        if to_hook and self.state_hooks is not None:
            # The hook saves first: if it fails, the entry is untouched and the previous state
            # stays current. If the hook succeeds and the commit below then loses a race
            # (VersionConflict), the hook holds this run's state while the entry keeps the
            # winner's version: the customer's store is last-writer-wins by design.
            try:
                self.state_hooks.save_state(
                    convid=convid,
                    state=json.loads(plain),
                    user_email=user.email,
                    agent_name=agent_name,
                    is_validation=False,
                )
            except HookFailed as exc:
                return failed(
                    "callFailed", f"The state hook failed: {exc}; nothing of this run was saved."
                )
        try:
            self.store.commit_run(
                account=user.account,
                convid=convid,
                owner=user.email,
                expected_version=expected_version,
                blob=blob,
                now=now,
                title_if_new=title,
            )
        except VersionConflict:
            return failed(
                "callFailed",
                "Another request in this conversation finished first; nothing of this one was "
                "saved. Please try again.",
            )
        except StoreUnavailable as exc:
            return failed("callFailed", f"The conversation store is unavailable: {exc}")
        timings["save"] = time.perf_counter() - mark
        return ExecResult(
            True,
            outcome.result_code,
            convid,
            agent_name,
            parts=outcome.parts,
            ask_input=outcome.ask_input,
            timings=timings,
            handoffs=handoffs_of(outcome.state or {}),
        )


def handoffs_of(state: dict[str, Any]) -> list[dict[str, str]]:
    """For the latest run: each variable it read and the earlier agent that wrote it."""
    runs = state.get("runs") or []
    if not runs:
        return []
    latest = runs[-1]
    found = []
    for var in latest.get("reads", []):
        for earlier in reversed(runs[:-1]):
            if var in earlier.get("writes", []) and earlier["agent"] != latest["agent"]:
                found.append({"variable": f"conv.{var}", "from": earlier["agent"]})
                break
    return found
