"""The wire models of the HTTP API: request bodies (strict) and documented response bodies.

Field names are camelCase on the wire. Request models refuse unknown fields and coerce types the
way the Search2o agent server does (``"5"`` is read as 5, ``"true"`` as true), so a client
written for it works unchanged. Every string and value that reaches the account is also checked
for what JSON allows but the conversation state cannot keep (lone surrogates, NaN, deep nesting).
The response models follow SPEC §5 exactly: keys a client reads are always present (``null``
when empty).
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from agents_catalog.agent_format import NAME_PATTERN, TAG_PATTERN
from mock_account.channels.sealing import IDENTITY_ID_LENGTH
from mock_account.conversations.vault import CONVID_LENGTH, TITLE_LIMIT
from mock_account.engine.state import ResultCode

CONVID_PATTERN = rf"^[0-9A-Za-z]{{{CONVID_LENGTH}}}$"
#: A channel identity id (a keyed hash of the sender), as the channel and workflow extras take it.
IDENTITY_PATTERN = rf"^[0-9a-f]{{{IDENTITY_ID_LENGTH}}}$"
QUERY_MIN, QUERY_MAX = 8, 10_000
PAGE_MAX = 25
PAGE_DEFAULT = 10
MAX_INPUT_DEPTH = 32
CURSOR_MAX = 1000
PING_NOTE_MAX = 200
IDEMPOTENCY_KEY_PATTERN = r"^[\x21-\x7e]{1,255}$"

#: Plain words for the patterns, used in 422 messages instead of the regular expression.
PATTERN_WORDS = {
    CONVID_PATTERN: f"must be {CONVID_LENGTH} letters or digits",
    NAME_PATTERN: (
        "must start with a letter, contain only letters, digits and '_', "
        "and end with a letter or digit"
    ),
    TAG_PATTERN: "must be lower-case words of letters and digits joined by '_'",
    IDEMPOTENCY_KEY_PATTERN: "must be 1 to 255 visible ASCII characters",
}


def json_value_problem(value: Any, path: str, depth: int = 0) -> str | None:
    """Why a parsed JSON value cannot go into a conversation state, or ``None`` if it can."""
    if depth > MAX_INPUT_DEPTH:
        return f"{path}: nested more than {MAX_INPUT_DEPTH} levels deep"
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return f"{path}: contains an invalid character (a lone surrogate)"
    elif isinstance(value, float) and not math.isfinite(value):
        return f"{path}: must be a finite number (not NaN or Infinity)"
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = json_value_problem(key, f"{path} key", depth + 1) or json_value_problem(
                item, f"{path}.{key}", depth + 1
            )
            if problem:
                return problem
    elif isinstance(value, list):
        for index, item in enumerate(value):
            problem = json_value_problem(item, f"{path}[{index}]", depth + 1)
            if problem:
                return problem
    return None


class WireModel(BaseModel):
    """camelCase on the wire."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class RequestModel(BaseModel):
    """A request body: camelCase only, no unknown fields, lax coercion of scalars."""

    model_config = ConfigDict(alias_generator=to_camel, extra="forbid")

    @model_validator(mode="after")
    def _storable_strings(self) -> RequestModel:
        for name, value in self.model_dump(by_alias=True).items():
            problem = json_value_problem(value, name)
            if problem:
                raise ValueError(problem)
        return self


Convid = Field(
    pattern=CONVID_PATTERN,
    description=f"The conversation id: {CONVID_LENGTH} letters or digits.",
    examples=["Xk3r9QpLm2TzVb7NcW4sYa"],
)


# --- requests -----------------------------------------------------------------------------


class SearchRequest(RequestModel):
    """Search the account's agents for a request."""

    query: str = Field(
        min_length=QUERY_MIN,
        max_length=QUERY_MAX,
        description=f"What the user asks for, {QUERY_MIN} to {QUERY_MAX} characters.",
        examples=["I need to fly to Berlin next week for the client workshop"],
    )
    tag: str | None = Field(
        default=None,
        max_length=16,
        pattern=TAG_PATTERN,
        description='Only agents of this department (tag); omitted, null or "" searches all.',
        examples=["travel"],
    )

    @field_validator("tag", mode="before")
    @classmethod
    def _empty_tag_is_every_tag(cls, value: Any) -> Any:
        return None if value == "" else value


class ExecAgentRequest(RequestModel):
    """Run (or resume) an agent in a new or existing conversation."""

    agent_name: str = Field(
        min_length=2,
        max_length=32,
        pattern=NAME_PATTERN,
        description="The agent to run, as found by /api/exec/search.",
        examples=["BookBusinessTrip"],
    )
    convid: str | None = Field(
        default=None,
        pattern=CONVID_PATTERN,
        description="The conversation to continue; omitted or null starts a new one.",
    )
    inputs: dict[str, Any] = Field(
        default_factory=dict,
        description="Any JSON values: ``query`` carries the request; the answers to a pending "
        'ask come flat by input name (a short answer such as ``"yes"`` is valid).',
        examples=[{"query": "I need to fly to Berlin next week"}, {"seat": "aisle"}],
    )
    stream: bool = Field(
        default=False,
        description="true: answer with ``application/x-ndjson`` lines as the run goes "
        "(progress, data, trace, noop heartbeats, then the ``agent`` line).",
    )


class ConversationRequest(RequestModel):
    """Names one of the caller's conversations."""

    convid: str = Convid


class PinnedRequest(RequestModel):
    """No fields: the caller's pinned conversations."""


class UnpinnedRequest(RequestModel):
    """One page of the caller's unpinned conversations, most recently used first."""

    next_cursor: str | None = Field(
        default=None,
        max_length=CURSOR_MAX,
        description='The nextCursor of the previous page; omitted, null or "" for the first page.',
    )
    limit: int = Field(
        default=PAGE_DEFAULT,
        ge=1,
        le=PAGE_MAX,
        description=f"Page size, 1 to {PAGE_MAX} (default {PAGE_DEFAULT}).",
    )

    @field_validator("next_cursor", mode="before")
    @classmethod
    def _empty_cursor_is_first_page(cls, value: Any) -> Any:
        return None if value == "" else value

    @field_validator("limit", mode="before")
    @classmethod
    def _not_a_boolean(cls, value: Any) -> Any:
        if isinstance(value, bool):  # lax coercion reads "5" as 5, but true is not a page size
            raise ValueError("must be a whole number")
        return value


class SetTitleRequest(RequestModel):
    """Rename a conversation."""

    convid: str = Convid
    title: str = Field(
        min_length=1,
        max_length=TITLE_LIMIT,
        description=f"The new title, 1 to {TITLE_LIMIT} characters, not blank.",
    )

    @field_validator("title")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value


class SetPinnedRequest(RequestModel):
    """Pin or unpin a conversation."""

    convid: str = Convid
    pinned: bool = Field(description="true to pin, false to unpin.")


class PingRequest(RequestModel):
    """A small body, read and validated like any call's, then ignored (the body may be empty)."""

    note: str = Field(
        default="",
        max_length=PING_NOTE_MAX,
        description=f"Anything up to {PING_NOTE_MAX} characters; ignored.",
        examples=["ceiling"],
    )


# --- responses ----------------------------------------------------------------------------


class FieldProblem(WireModel):
    field: str = Field(description="The field, dotted (``inputs.query``), or ``body``.")
    message: str = Field(description="What is wrong with it (``must be at least 8 characters``).")


class ErrorData(WireModel):
    """Empty, as the agent server sends it; on 422 the harness adds the offending fields."""

    fields: list[FieldProblem] | None = Field(
        default=None, description="Harness extra, on 422 only: each offending field and why."
    )


class ErrorDetail(WireModel):
    message: str = Field(description="What went wrong, in one readable line.")
    data: ErrorData = Field(description="``{}`` (on 422 the harness extra ``fields``).")


class ErrorResponse(WireModel):
    """Every non-2xx answer has this shape."""

    success: Literal[False] = Field(description="Always false.")
    error: ErrorDetail = Field(description="Why the request was refused.")


class SuccessResponse(WireModel):
    success: Literal[True] = Field(description="Always true: the change was made.")


class AnswerResponse(WireModel):
    """An answer that carries what was asked for; a refusal is an ``ErrorResponse`` instead."""

    success: bool = Field(description="Always true.")


class SearchResult(WireModel):
    agent_name: str = Field(description="The agent's name, to pass to execAgent.")
    agent_title: str = Field(description="The agent's title, for people.")
    score: float = Field(
        description="Harness extra: how much of the request the agent covers, 0 to 1."
    )


class SearchResponse(WireModel):
    success: bool = Field(description="True when the search ran.")
    search_results: list[SearchResult] = Field(description="The matches, best first.")
    search_behavior: Literal["executeTopMatch", "executeOnlyMatch", "showResults"] = Field(
        description="The account's setting: ``executeTopMatch`` (an interface runs the best "
        "match), ``executeOnlyMatch`` (it runs a sole match, else shows the matches) or "
        "``showResults`` (it shows the matches for the user to choose)."
    )
    followup_behavior: str = Field(
        description="Always ``executeTopMatch``: a follow-up runs the best match, or the agent "
        "that answered last when nothing matches."
    )


class OutputPart(WireModel):
    content_type: Literal["text", "html", "image"] = Field(description="What ``text`` holds.")
    text: str = Field(description="The content (for an image, its URL or data URI).")
    mime_type: str | None = Field(default=None, description="The MIME type, where it matters.")


class AgentOutput(WireModel):
    agent_name: str = Field(description="The agent that produced the output.")
    parts: list[OutputPart] = Field(description="The output, in order.")


class AskInputField(WireModel):
    """One question of an ask; all seven keys are always present."""

    name: str = Field(description="The name the answer is sent back under, flat in ``inputs``.")
    type: Literal["str", "password", "text", "chooseOne", "chooseMany"] = Field(
        description="What kind of answer it takes."
    )
    label: str = Field(description="The question's label.")
    description: str | None = Field(description="Help text, or null.")
    options: list[str] | None = Field(description="The choices (choose types), or null.")
    default: Any = Field(description="The default answer, or null.")
    hidden: bool = Field(description="Whether the input is not shown.")


class AskInput(WireModel):
    message: str = Field(description="What the agent asks.")
    inputs: list[AskInputField] = Field(description="The answers it needs.")


class ExecError(WireModel):
    message: str = Field(description="Why the run failed or was refused.")
    data: dict[str, Any] = Field(description="Always ``{}``.")


class ExecAgentResponse(WireModel):
    """Always sent with HTTP 200; ``resultCode`` says what happened. Every key is present."""

    success: bool = Field(description="True for ``success`` and ``ask``.")
    convid: str | None = Field(description="The conversation id; null on failure.")
    agent_name: str = Field(description="The agent that was asked to run.")
    output: AgentOutput | None = Field(
        description="The output; null on failure (and in the final line of a stream)."
    )
    result_code: ResultCode = Field(description="What happened (``mustLogin``: no valid token).")
    ask_input: AskInput | None = Field(
        description="With ``ask``: the questions, answered flat in ``inputs``; null otherwise."
    )
    error: ExecError | None = Field(description="On failure: why; null otherwise.")


class ConversationItem(WireModel):
    convid: str = Field(description="The conversation id.")
    title: str = Field(description="The first query (cut at 200 characters) or the new title.")
    last_executed: int = Field(description="When an agent last ran in it (epoch milliseconds).")
    pinned: bool = Field(description="Whether it is pinned.")


class AgentResponse(WireModel):
    agent_name: str = Field(description="The agent that answered.")
    parts: list[OutputPart] = Field(description="Its output, in order.")


class ConversationTurn(WireModel):
    query: str = Field(description='The request of the run ("" when it had none).')
    response: AgentResponse = Field(description="What the agent answered.")
    result_code: Literal["success", "ask"] = Field(description="How the run ended.")
    responded_at: int = Field(description="When it answered (epoch milliseconds).")


class ConversationResponse(AnswerResponse):
    convid: str = Field(description="The conversation id.")
    conversation: list[ConversationTurn] = Field(
        description="One element per saved run, oldest first."
    )


class PinnedResponse(AnswerResponse):
    pinned_conversations: list[ConversationItem] = Field(description="Most recently used first.")


class UnpinnedResponse(AnswerResponse):
    unpinned_conversations: list[ConversationItem] = Field(description="Most recently used first.")
    next_cursor: str | None = Field(
        description="Pass it as nextCursor for the next page; null when this is the last page."
    )


class StateRecord(WireModel):
    size: int = Field(description="Bytes of the encrypted record as stored.")
    key_id: str = Field(description="The id of the key that encrypted it.")
    format_version: int = Field(description="The record format version.")
    state_version: int = Field(description="The compare-and-swap version of the state.")
    hex_preview: str = Field(description="The first 48 bytes of the record, hex.")


class StateViewResponse(AnswerResponse):
    """Harness extra: what the server keeps for a conversation, decrypted for its owner."""

    convid: str = Field(description="The conversation id.")
    state: dict[str, Any] = Field(description="The decrypted state: runs, prompts, conv, agents.")
    record: StateRecord | None = Field(
        description="The encrypted record as stored; null when the state is kept elsewhere."
    )


class HealthResponse(BaseModel):
    status: Literal["ok"] = Field(description="Always ``ok`` when the server answers.")
    agents: int = Field(description="How many agents the account has.")
    store: str = Field(description="The store backend: sqlite, memory, postgresql or redis.")
