"""The wire models of the HTTP API: request bodies (strict) and documented response bodies.

Field names are camelCase on the wire. Request models refuse unknown fields and do not coerce
types (``"25"`` is not a number, ``"true"`` is not a boolean), so a client's mistake is reported
instead of guessed at. Every string and value that reaches the account is also checked for what
JSON allows but the conversation state cannot keep (lone surrogates, NaN, deep nesting).
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from agents_catalog.agent_format import NAME_PATTERN, TAG_PATTERN
from mock_account.conversations.vault import CONVID_LENGTH, TITLE_LIMIT
from mock_account.engine.state import ResultCode

CONVID_PATTERN = rf"^[0-9A-Za-z]{{{CONVID_LENGTH}}}$"
QUERY_MIN, QUERY_MAX = 8, 10_000
PAGE_MAX = 25
MAX_INPUT_DEPTH = 32
CURSOR_MAX = 1000
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
    """A request body: camelCase only, no unknown fields, no type coercion."""

    model_config = ConfigDict(alias_generator=to_camel, extra="forbid", strict=True)

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
        description="Only agents of this department (tag); omitted or null searches all.",
        examples=["travel"],
    )


class ExecInputs(BaseModel):
    """The inputs of a run: ``query`` for a new request, or the answers of an ``ask``.

    Answers come flat, one field per input name of the ``askInput`` being answered.
    """

    model_config = ConfigDict(extra="allow", strict=True)

    query: str | None = Field(
        default=None,
        min_length=QUERY_MIN,
        max_length=QUERY_MAX,
        description=(
            f"The user's request, {QUERY_MIN} to {QUERY_MAX} characters. Required to start a "
            "conversation; a follow-up carries its own query; answers to an ask need none."
        ),
    )

    def as_dict(self) -> dict[str, Any]:
        """The inputs as sent, without a null query (which means "no query")."""
        sent = self.model_dump(exclude_unset=True)
        if sent.get("query", "") is None:
            del sent["query"]
        return sent


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
    inputs: ExecInputs = Field(
        description="``query`` and/or the flat answers to the pending ask.",
        examples=[{"query": "I need to fly to Berlin next week"}, {"seat": "aisle"}],
    )
    stream: bool = Field(
        default=False, description="Must be false: this server answers in one response."
    )

    @field_validator("stream")
    @classmethod
    def _no_streaming(cls, value: bool) -> bool:
        if value:
            raise ValueError('streaming is not supported by this server; send "stream": false')
        return value

    @model_validator(mode="after")
    def _new_conversation_needs_query(self) -> ExecAgentRequest:
        if self.convid is None and self.inputs.query is None:
            raise ValueError(
                f"inputs.query: is required to start a conversation ({QUERY_MIN} to {QUERY_MAX} "
                "characters)"
            )
        return self


class ConversationRequest(RequestModel):
    """Names one of the caller's conversations."""

    convid: str = Convid


class PinnedRequest(RequestModel):
    """No fields: the caller's pinned conversations."""


class UnpinnedRequest(RequestModel):
    """One page of the caller's unpinned conversations, most recently used first."""

    next_cursor: str | None = Field(
        default=None,
        min_length=1,
        max_length=CURSOR_MAX,
        description="The nextCursor of the previous page; omitted or null for the first page.",
    )
    limit: int = Field(
        default=PAGE_MAX, ge=1, le=PAGE_MAX, description=f"Page size, 1 to {PAGE_MAX}."
    )


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


# --- responses ----------------------------------------------------------------------------


class ErrorDetail(WireModel):
    message: str = Field(description="What went wrong, in one readable line.")
    fields: list[FieldProblem] | None = Field(
        default=None, description="For 422: each offending field and what is wrong with it."
    )


class FieldProblem(WireModel):
    field: str = Field(description="The field, dotted (``inputs.query``), or ``body``.")
    message: str = Field(description="What is wrong with it (``must be at least 8 characters``).")


ErrorDetail.model_rebuild()


class ErrorResponse(WireModel):
    """Every non-2xx answer (and a few 200 refusals) has this shape."""

    success: Literal[False] = Field(description="Always false.")
    error: ErrorDetail = Field(description="Why the request was refused.")


class SuccessResponse(WireModel):
    success: Literal[True] = Field(description="Always true: the change was made.")


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
    name: str = Field(description="The name the answer is sent back under, flat in ``inputs``.")
    type: str = Field(description="str, password, text, chooseOne or chooseMany.")
    label: str = Field(description="The question's label.")
    description: str | None = Field(default=None, description="Help text.")
    options: list[str] | None = Field(default=None, description="The choices (choose types).")
    default: str | list[str] | None = Field(default=None, description="The default answer.")
    hidden: bool | None = Field(default=None, description="Whether the input is not shown.")


class AskInput(WireModel):
    message: str = Field(description="What the agent asks.")
    inputs: list[AskInputField] = Field(description="The answers it needs.")


class ExecAgentResponse(WireModel):
    """Always sent with HTTP 200; ``resultCode`` says what happened."""

    success: bool = Field(description="True for ``success`` and ``ask``.")
    convid: str | None = Field(description="The conversation id; null on failure.")
    agent_name: str = Field(description="The agent that was asked to run.")
    output: AgentOutput | None = Field(description="The output; null on failure.")
    result_code: ResultCode = Field(description="What happened.")
    ask_input: AskInput | None = Field(
        default=None, description="With ``ask``: the questions; answer them flat in ``inputs``."
    )
    error: ErrorDetail | None = Field(default=None, description="On failure: why.")


class Conversation(WireModel):
    convid: str = Field(description="The conversation id.")
    title: str = Field(description="The first query (cut at 200 characters) or the new title.")
    last_executed: str = Field(description="When an agent last ran in it (ISO 8601, UTC).")
    pinned: bool = Field(description="Whether it is pinned.")


class ConversationResponse(WireModel):
    success: bool = Field(description="Always true.")
    conversation: Conversation = Field(description="The conversation.")


class ConversationsResponse(WireModel):
    success: bool = Field(description="Always true.")
    conversations: list[Conversation] = Field(description="Most recently used first.")


class UnpinnedResponse(ConversationsResponse):
    next_cursor: str | None = Field(
        description="Pass it as nextCursor for the next page; null when this is the last page."
    )


class StateRecord(WireModel):
    size: int = Field(description="Bytes of the encrypted record as stored.")
    key_id: str = Field(description="The id of the key that encrypted it.")
    format_version: int = Field(description="The record format version.")
    state_version: int = Field(description="The compare-and-swap version of the state.")
    hex_preview: str = Field(description="The first 48 bytes of the record, hex.")


class StateViewResponse(WireModel):
    """Harness extra: what the server keeps for a conversation, decrypted for its owner."""

    success: bool = Field(description="Always true.")
    convid: str = Field(description="The conversation id.")
    state: dict[str, Any] = Field(description="The decrypted state: runs, prompts, conv, agents.")
    record: StateRecord | None = Field(
        description="The encrypted record as stored; null when the state is kept elsewhere."
    )


class HealthResponse(BaseModel):
    status: Literal["ok"] = Field(description="Always ``ok`` when the server answers.")
    agents: int = Field(description="How many agents the account has.")
    store: str = Field(description="The store backend: sqlite, memory, postgresql or redis.")
