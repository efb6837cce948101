"""Typed views of what the demo shows, shared by the in-process and the HTTP client.

The clients translate their sources (the account's objects, or the Search2o wire format)
into these, so the pages never care which one they talk to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mock_account.engine.state import handoffs, last_agent

MIN_QUERY_CHARS = 8
MAX_QUERY_CHARS = 10_000


class ClientError(Exception):
    """A request the demo could not carry out, with a one-line message for the user."""


def check_query(query: str) -> str:
    """The query stripped; ClientError when it is empty, too short or too long."""
    text = query.strip()
    if not text:
        raise ClientError("Please type a request first.")
    if len(text) < MIN_QUERY_CHARS:
        raise ClientError(
            f"Please describe what you need in at least {MIN_QUERY_CHARS} characters "
            f"('{text}' is {len(text)})."
        )
    if len(text) > MAX_QUERY_CHARS:
        raise ClientError(f"A request can be at most {MAX_QUERY_CHARS} characters long.")
    return text


@dataclass(frozen=True)
class DemoUser:
    """Someone the demo can act as: ``key`` identifies them to the client."""

    key: str
    label: str
    account: str = ""


@dataclass(frozen=True)
class Match:
    """One search result: an agent and how well it matches (0..1)."""

    agent_name: str
    agent_title: str
    department: str
    score: float | None


@dataclass(frozen=True)
class SearchOutcome:
    """What a search for one request found, and what the account says to do with it.

    ``behavior`` is the account's ``searchBehavior`` (``executeTopMatch``,
    ``executeOnlyMatch`` or ``showResults``). ``previous_agent`` is the agent that answered
    last in the conversation, looked up only when nothing matched (it answers again).
    """

    query: str
    matches: tuple[Match, ...]
    behavior: str
    previous_agent: str | None = None


@dataclass(frozen=True)
class AskField:
    """One input of an ``ask``: the form widget is chosen by ``type``."""

    name: str
    type: str
    label: str
    description: str = ""
    options: tuple[str, ...] = ()
    default: Any = None
    hidden: bool = False

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> AskField:
        return cls(
            name=str(data["name"]),
            type=str(data.get("type") or "str"),
            label=str(data.get("label") or data["name"]),
            description=str(data.get("description") or ""),
            options=tuple(str(o) for o in data.get("options") or ()),
            default=data.get("default"),
            hidden=bool(data.get("hidden", False)),
        )


@dataclass(frozen=True)
class AskForm:
    """The questions of a run paused on ``ask``."""

    message: str
    fields: tuple[AskField, ...]

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> AskForm:
        return cls(
            message=str(data.get("message") or ""),
            fields=tuple(AskField.from_wire(item) for item in data.get("inputs") or ()),
        )


@dataclass(frozen=True)
class Handoff:
    """The answering agent read ``variable`` (``conv.x``) that ``from_agent`` wrote.

    ``record``: the variable's fields as saved with that answer (what the agent worked from,
    with what it changed), when known.
    """

    variable: str
    from_agent: str
    record: Any = None


@dataclass(frozen=True)
class Part:
    content_type: str
    text: str
    mime_type: str | None = None

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Part:
        return cls(
            str(data.get("contentType") or "text"),
            str(data.get("text") or ""),
            data.get("mimeType"),
        )


@dataclass(frozen=True)
class AnswerView:
    """One answer in the chat: who answered, why, what they said and what they handed on."""

    query: str
    success: bool
    result_code: str
    agent: str
    department: str
    convid: str | None
    matches: tuple[Match, ...] = ()
    parts: tuple[Part, ...] = ()
    ask: AskForm | None = None
    handoffs: tuple[Handoff, ...] = ()
    error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)  # seconds per phase

    @property
    def chosen(self) -> Match | None:
        return next((m for m in self.matches if m.agent_name == self.agent), None)

    @property
    def runner_up(self) -> Match | None:
        """The best match other than the agent that answered."""
        return next((m for m in self.matches if m.agent_name != self.agent), None)

    @property
    def is_ask(self) -> bool:
        return self.success and self.ask is not None


@dataclass(frozen=True)
class ConversationItem:
    convid: str
    title: str
    last_executed: str  # ISO 8601
    pinned: bool


@dataclass(frozen=True)
class ConversationLists:
    pinned: tuple[ConversationItem, ...]
    recent: tuple[ConversationItem, ...]

    def all(self) -> list[ConversationItem]:
        return [*self.pinned, *self.recent]

    def by_last_run(self) -> ConversationLists:
        """Each list newest run first, the order of the times shown.

        The account lists by last *use*, which a look at a conversation's state counts too:
        shown next to the time of the last run, that order read as wrong.
        """
        return ConversationLists(_newest_first(self.pinned), _newest_first(self.recent))


def _newest_first(items: tuple[ConversationItem, ...]) -> tuple[ConversationItem, ...]:
    return tuple(sorted(items, key=lambda item: item.last_executed, reverse=True))


def time_text(iso: str) -> str:
    """An ISO 8601 time as people read it: ``2026-12-07 05:15:30 UTC``."""
    if not iso:
        return "–"
    return iso[:19].replace("T", " ") + (" UTC" if iso.endswith(("+00:00", "Z")) else "")


# conv.request: what was last asked, which every run keeps for the turn after it. Saving it
# makes or changes no record.
REQUEST_MEMO = "request"


def run_outcome(result_code: str, paused: bool, writes: list[str] | tuple[str, ...]) -> str:
    """What a saved run did, in words: a run that only asked something back ("Which order?")
    saved nothing, and reads differently from one that made or changed a record. ``writes``:
    the variables it wrote (``trip`` or ``conv.trip``)."""
    if paused:
        return "asked: waiting for a form"
    if result_code != "success":
        return result_code
    records = [w.removeprefix("conv.") for w in writes]
    records = [w for w in records if w != REQUEST_MEMO]
    if records:
        return "done: saved " + ", ".join(f"conv.{w}" for w in records)
    return "answered: no record saved"


@dataclass(frozen=True)
class PromptView:
    name: str
    scope: str
    agent: str | None
    system: str
    messages: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class RecordView:
    """The encrypted record as stored (never its plaintext)."""

    size: int
    key_id: str
    format_version: int
    state_version: int
    hex_preview: str


@dataclass(frozen=True)
class StateView:
    """The owner's decrypted view of a conversation's state (the inspector page)."""

    convid: str
    conv: dict[str, Any]
    agents: dict[str, Any]
    prompts: tuple[PromptView, ...]
    runs: tuple[dict[str, Any], ...]
    record: RecordView | None

    @property
    def paused_run(self) -> dict[str, Any] | None:
        last = self.runs[-1] if self.runs else None
        return last if last and last.get("paused") else None

    @property
    def last_agent(self) -> str | None:
        return last_agent({"runs": list(self.runs)})

    def handoffs(self) -> tuple[Handoff, ...]:
        """The latest run's hand-offs, each with its record as saved."""
        return handoffs_from_runs(self.runs, self.conv)

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> StateView:
        """From ``{convid, state: {runs, prompts, conv, agents}, record}``."""
        state = data.get("state") or {}
        prompts = []
        for key, prompt in sorted((state.get("prompts") or {}).items()):
            prompts.append(
                PromptView(
                    name=str(prompt.get("name") or key),
                    scope=str(prompt.get("scope") or "conversation"),
                    agent=prompt.get("agent"),
                    system=str(prompt.get("system") or ""),
                    messages=tuple(prompt.get("messages") or ()),
                )
            )
        raw = data.get("record")
        record = None
        if raw:
            record = RecordView(
                size=int(raw.get("size", 0)),
                key_id=str(raw.get("keyId", "")),
                format_version=int(raw.get("formatVersion", 0)),
                state_version=int(raw.get("stateVersion", 0)),
                hex_preview=str(raw.get("hexPreview", "")),
            )
        return cls(
            convid=str(data.get("convid") or ""),
            conv=dict(state.get("conv") or {}),
            agents=dict(state.get("agents") or {}),
            prompts=tuple(prompts),
            runs=tuple(state.get("runs") or ()),
            record=record,
        )


def handoffs_from_runs(
    runs: tuple[dict[str, Any], ...] | list[dict[str, Any]],
    conv: dict[str, Any] | None = None,
) -> tuple[Handoff, ...]:
    """For the latest run: each variable it read and the earlier agent that wrote it, with
    the variable's record from ``conv`` (the state saved with that run) when given.

    Computed from the saved state (by the state contract's ``handoffs``), so it works the same
    in-process and over HTTP.
    """
    return tuple(
        Handoff(
            h["variable"],
            h["from"],
            None if conv is None else conv.get(h["variable"].removeprefix("conv.")),
        )
        for h in handoffs(runs)
    )
