"""The state contract: what a conversation state holds, and the checks it passes before a save.

A state is plain JSON, because it must survive an exact JSON round trip and is handed as-is to
enterprise state hooks. Its records are typed below (``ConversationState``, ``RunRecord``,
``PausedRun``, ``PromptRecord``); the engine builds them (``run_record``), the vault saves them,
and the readers (the account, the demo, the chat) use ``last_agent`` and ``handoffs`` from here.

Conversation-scoped prompts are keyed by name; agent-scoped ones by ``agent/name`` (names are
identifiers, so the key is unambiguous). Local prompts are never in the state: they live in a
paused run's ``localPrompts`` only. ``ResultCode`` is every result an ``execAgent`` can end with;
only ``success`` and ``ask`` save the state.
"""

from __future__ import annotations

import gc
import math
from typing import Any, Literal, TypedDict, get_args

import orjson

ResultCode = Literal[
    "success",
    "ask",
    "failCommand",
    "errorInAgent",
    "callFailed",
    "unknownConversation",
    "timedOut",
    "stopped",
    "mustLogin",
    "unexpected",
]
RESULT_CODES: tuple[str, ...] = get_args(ResultCode)
#: Outcomes that mean the server, not the agent, went wrong: ``failCommand`` is an agent ending
#: on ``fail`` by design, and ``success`` and ``ask`` are the normal answers.
SERVER_FAILURES = frozenset(RESULT_CODES) - {"success", "ask", "failCommand"}


class Frame(TypedDict):
    """One call of a paused run's stack: the function, where it stopped, its locals."""

    function: str
    pc: int
    locals: dict[str, Any]
    into: str | None


class PausedRun(TypedDict):
    """Where a run paused on ``ask``: the stack, the questions, the local that gets the answers
    and the run's local prompts."""

    stack: list[Frame]
    ask: dict[str, Any]
    into: str
    localPrompts: dict[str, Any]


class AgentOutput(TypedDict):
    agentName: str
    parts: list[dict[str, Any]]


class RunRecord(TypedDict):
    """One saved run: who ran, on what, with what result, and the ``conv`` variables it read and
    wrote (what hand-offs are computed from)."""

    agent: str
    version: str
    inputs: dict[str, Any]
    output: AgentOutput
    ranAt: str
    resultCode: ResultCode
    paused: PausedRun | None
    reads: list[str]
    writes: list[str]


class PromptRecord(TypedDict):
    """A named prompt's system text and full history (user turns, answers, tool calls)."""

    name: str
    scope: Literal["conversation", "agent"]
    agent: str | None
    system: str
    messages: list[dict[str, Any]]


class ConversationState(TypedDict):
    runs: list[RunRecord]
    prompts: dict[str, PromptRecord]
    conv: dict[str, Any]
    agents: dict[str, dict[str, Any]]


#: A variable the latest run read and the earlier agent that wrote it.
Handoff = TypedDict("Handoff", {"variable": str, "from": str})

DEFAULT_MAX_STATE_BYTES = 4 * 1024 * 1024
STATE_PARTS = ("runs", "prompts", "conv", "agents")
# orjson refuses deeper nesting (counting the state itself as level 1) and integers outside
# [-2**63, 2**64), so saved states stay within what it writes and reads back exactly.
MAX_DEPTH = 254
_INT_MIN, _INT_END = -(2**63), 2**64
# Datetimes and dataclasses would be turned into strings and objects: make them fail instead.
_DUMPS_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
# The value types whose JSON reads back equal (floats too, when finite).
_PLAIN_TYPES = frozenset({str, int, bool, type(None), float, dict, list})
_referents = gc.get_referents
_isfinite = math.isfinite


class StateInvalid(ValueError):
    """The state cannot be saved; the message names the place (``conv.trip.dates``)."""


def empty_state() -> dict[str, Any]:
    return {"runs": [], "prompts": {}, "conv": {}, "agents": {}}


def run_record(
    *,
    agent: str,
    version: str,
    inputs: dict[str, Any],
    parts: list[dict[str, Any]],
    ran_at: str,
    result_code: ResultCode,
    reads: list[str],
    writes: list[str],
    paused: PausedRun | None = None,
) -> RunRecord:
    """The record of a run that is to be saved."""
    return {
        "agent": agent,
        "version": version,
        "inputs": inputs,
        "output": {"agentName": agent, "parts": parts},
        "ranAt": ran_at,
        "resultCode": result_code,
        "paused": paused,
        "reads": reads,
        "writes": writes,
    }


def last_agent(state: dict[str, Any]) -> str | None:
    """The agent of the latest saved run (the one a follow-up may go back to)."""
    runs = state.get("runs") or []
    return runs[-1]["agent"] if runs else None


def handoffs(runs: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> list[Handoff]:
    """For the latest of ``runs``: each variable it read and the earlier agent that wrote it."""
    if not runs:
        return []
    latest = runs[-1]
    found: list[Handoff] = []
    for variable in latest.get("reads") or ():
        for earlier in reversed(runs[:-1]):
            if variable in (earlier.get("writes") or ()) and earlier["agent"] != latest["agent"]:
                found.append({"variable": f"conv.{variable}", "from": earlier["agent"]})
                break
    return found


def prompt_key(name: str, scope: str, agent: str) -> str:
    return f"{agent}/{name}" if scope == "agent" else name


def paused_run(state: dict[str, Any]) -> dict[str, Any] | None:
    """The run this conversation is waiting on (paused on ``ask``), if any."""
    runs = state.get("runs") or []
    if runs and runs[-1].get("paused"):
        return runs[-1]
    return None


def serialize_state(state: dict[str, Any]) -> bytes:
    """The state as compact UTF-8 JSON (the bytes that get encrypted).

    Unchecked: NaN becomes ``null`` and a tuple an array; ``check_state`` refuses both.
    """
    return orjson.dumps(state, option=_DUMPS_OPTIONS)


def parse_state(data: bytes) -> dict[str, Any]:
    state = orjson.loads(data)
    if not isinstance(state, dict) or any(part not in state for part in STATE_PARTS):
        raise StateInvalid("stored state is not a conversation state")
    return state


def _place(root: str, path: list[str | int]) -> str:
    """Name a place the way an agent author writes it."""
    text = ".".join(str(p) for p in path)
    if root == "agents" and path:
        agent, rest = path[0], ".".join(str(p) for p in path[1:])
        return f"agent.{rest} of agent '{agent}'" if rest else f"agent variables of agent '{agent}'"
    if root == "conv":
        return f"conv.{text}" if text else "conv"
    return f"{root}.{text}" if text else root


def _find_problem(
    value: Any, path: list[str | int], depth: int = 2
) -> tuple[list[str | int], str] | None:
    """Depth-first search for the first value that does not survive a JSON round trip.

    ``depth`` is the nesting level of ``value`` (the parts of a state are at level 2).
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        if not _INT_MIN <= value < _INT_END:
            return path, "is an integer outside the 64-bit range JSON readers agree on"
        return None
    if isinstance(value, float):
        return (path, "is not a finite number") if not math.isfinite(value) else None
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path, "contains a lone surrogate character"
        return None
    if isinstance(value, (list, dict)) and depth > MAX_DEPTH:
        return path, f"nests deeper than {MAX_DEPTH} levels (or contains itself)"
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _find_problem(item, [*path, index], depth + 1)
            if found:
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return path, f"has a non-string key {key!r}"
            found = _find_problem(item, [*path, key], depth + 1)
            if found:
                return found
        return None
    return path, f"holds a {type(value).__name__}, which JSON cannot represent exactly"


def _explain(state: dict[str, Any]) -> StateInvalid:
    """The error naming the first place of ``state`` that fails the round trip (the slow path)."""
    for root in STATE_PARTS:
        found = _find_problem(state.get(root), [])
        if found:
            path, problem = found
            return StateInvalid(f"{_place(root, path)} {problem}")
    return StateInvalid("the state does not survive an exact JSON round trip")


def _plain(state: dict[str, Any]) -> bool:
    """Whether ``state`` holds nothing but exact dicts, lists, strings, integers, booleans,
    ``None`` and finite floats: the values whose JSON reads back equal without reading it.

    Only called once orjson has written the state, which proves it acyclic (this loop would not
    end otherwise), its keys strings, its integers in range and its strings valid Unicode; what
    is left to check is what orjson converts silently, and any other type says "not sure".

    The walk goes one nesting level at a time, with the iteration in C: ``gc.get_referents``
    gives the values of every dict and the items of every list of a level at once (strings and
    numbers have none), and the set of their types is checked once per level. A sum of floats
    is finite only if each one is; an overflow only says "not sure". Half the time of a loop
    over every value in Python, on the states the engine saves.
    """
    if type(state) is not dict:
        return False
    level = _referents(state)
    while level:
        kinds = set(map(type, level))
        if not kinds <= _PLAIN_TYPES:
            return False
        if float in kinds and not _isfinite(sum([v for v in level if type(v) is float])):
            return False
        level = _referents(*level)
    return True


def check_state(state: dict[str, Any], max_bytes: int = DEFAULT_MAX_STATE_BYTES) -> bytes:
    """Serialize a state that is about to be saved, or raise StateInvalid naming the place.

    orjson refuses lone surrogates, non-string keys, out-of-range integers, excessive nesting
    and types it has no JSON for. A state of plain values only (``_plain``, one walk over the
    values) then round-trips exactly, which is the common case and costs no parse. Anything
    else is decided by the round trip itself: the parsed copy must equal the state, which
    catches what orjson converts silently (NaN and infinities to ``null``, tuples to arrays,
    enums and UUIDs to their values) and accepts subclasses that compare equal. The slow walk
    only runs to explain a failure.
    """
    try:
        data = orjson.dumps(state, option=_DUMPS_OPTIONS)
        exact = _plain(state) or orjson.loads(data) == state
    except (TypeError, ValueError):
        exact = False
    if not exact:
        raise _explain(state)
    if len(data) > max_bytes:
        raise StateInvalid(f"the state is {len(data)} bytes, over the limit of {max_bytes} bytes")
    return data
