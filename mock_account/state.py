"""The conversation state (SPEC §2) and the checks it passes before every save.

A state is plain JSON, because it must survive an exact JSON round trip and is
handed as-is to enterprise state hooks::

    {
      "runs":    [{"agent", "version", "inputs", "output", "ranAt", "resultCode",
                   "paused": null | {"stack": [...], "ask": {...}, "localPrompts": {...}},
                   "reads": ["trip"], "writes": ["expense"]}],
      "prompts": {"chat": {"name", "scope", "agent": null, "system", "messages": [...]},
                  "BookTrip/notes": {... "scope": "agent", "agent": "BookTrip" ...}},
      "conv":    {"trip": {...}},
      "agents":  {"BookTrip": {"x": ...}}
    }

Conversation-scoped prompts are keyed by name; agent-scoped ones by ``agent/name``
(names are identifiers, so the key is unambiguous). Local prompts are never here.
"""

from __future__ import annotations

import json
import math
from typing import Any

DEFAULT_MAX_STATE_BYTES = 4 * 1024 * 1024
STATE_PARTS = ("runs", "prompts", "conv", "agents")


class StateInvalid(ValueError):
    """The state cannot be saved; the message names the place (``conv.trip.dates``)."""


def empty_state() -> dict[str, Any]:
    return {"runs": [], "prompts": {}, "conv": {}, "agents": {}}


def prompt_key(name: str, scope: str, agent: str) -> str:
    return f"{agent}/{name}" if scope == "agent" else name


def paused_run(state: dict[str, Any]) -> dict[str, Any] | None:
    """The run this conversation is waiting on (paused on ``ask``), if any."""
    runs = state.get("runs") or []
    if runs and runs[-1].get("paused"):
        return runs[-1]
    return None


def serialize_state(state: dict[str, Any]) -> bytes:
    """The state as compact UTF-8 JSON (the bytes that get encrypted)."""
    return json.dumps(state, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def parse_state(data: bytes) -> dict[str, Any]:
    state = json.loads(data)
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


def _find_problem(value: Any, path: list[str | int]) -> tuple[list[str | int], str] | None:
    """Depth-first search for the first value that does not survive a JSON round trip."""
    if value is None or isinstance(value, (bool, int)):
        return None
    if isinstance(value, float):
        return (path, "is not a finite number") if not math.isfinite(value) else None
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path, "contains a lone surrogate character"
        return None
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _find_problem(item, [*path, index])
            if found:
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return path, f"has a non-string key {key!r}"
            found = _find_problem(item, [*path, key])
            if found:
                return found
        return None
    return path, f"holds a {type(value).__name__}, which JSON cannot represent exactly"


def check_state(state: dict[str, Any], max_bytes: int = DEFAULT_MAX_STATE_BYTES) -> bytes:
    """Serialize a state that is about to be saved, or raise StateInvalid naming the place.

    The fast path is the round trip itself; the slow walk only runs to explain a failure.
    """
    data: bytes | None = None
    try:
        data = serialize_state(state)
        exact = json.loads(data) == state
    except (TypeError, ValueError):
        exact = False
    if not exact or data is None:
        for root in STATE_PARTS:
            found = _find_problem(state.get(root), [])
            if found:
                path, problem = found
                raise StateInvalid(f"{_place(root, path)} {problem}")
        raise StateInvalid("the state does not survive an exact JSON round trip")
    if len(data) > max_bytes:
        raise StateInvalid(f"the state is {len(data)} bytes, over the limit of {max_bytes} bytes")
    return data
