"""Realistic conversation states of a chosen size, for benchmarks and store load.

A state built here has the shape the engine saves (``mock_account.engine.state``): ``runs`` with
inputs, output parts and the variables each run read and wrote, the shared ``chat`` prompt with
user turns, tool calls, tool results and model answers, conversation variables handed between
departments, and per-agent variables. It grows one exchange at a time until its compact JSON
reaches the requested size, then the last answer is padded so the size is exact. The text is
seeded, so a size always gives the same state.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from mock_account.engine.state import serialize_state

_WORDS = (
    "trip booking flight hotel customer invoice order expense ticket incident contract vendor "
    "campaign candidate approval budget quarter delivery status payment refund schedule meeting "
    "workshop client office travel policy receipt amount total currency review priority owner "
    "update summary follow-up request confirmed pending escalated resolved shipped signed"
).split()
_AGENTS = (
    ("BookBusinessTrip", "trip"),
    ("FileTravelExpense", "expense"),
    ("CheckInvoiceStatus", "invoice"),
    ("OpenSupportTicket", "ticket"),
    ("AmendOpenOrder", "order"),
    ("ReviewVendorContract", "contract"),
)
_SIZE_RE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kKmM]?)[bB]?\s*")
_START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def parse_size(text: str) -> int:
    """``"16KB"`` -> 16384; plain numbers are bytes; ``KB``/``MB`` are powers of 1024."""
    match = _SIZE_RE.fullmatch(text)
    if match is None:
        raise ValueError(f"invalid size {text!r}: use a number of bytes, or e.g. 16KB, 1MB")
    number, unit = float(match.group(1)), match.group(2).upper()
    size = int(number * {"": 1, "K": 1024, "M": 1024 * 1024}[unit])
    if size < 1024:
        raise ValueError(f"invalid size {text!r}: a state is at least 1KB")
    return size


def size_label(size: int) -> str:
    """16384 -> ``"16KB"``; the inverse of :func:`parse_size` for whole units."""
    if size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)}MB"
    if size % 1024 == 0:
        return f"{size // 1024}KB"
    return f"{size}B"


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _record(rng: random.Random, variable: str, turn: int, words: int) -> dict[str, Any]:
    return {
        "id": f"{variable[:3].upper()}-{rng.randrange(10**6):06d}",
        "owner": f"user{turn % 7}@acme.example",
        "status": rng.choice(("open", "pending", "approved", "closed")),
        "amount": round(rng.uniform(10, 5000), 2),
        "currency": "EUR",
        "note": _sentence(rng, words),
    }


def _exchange(state: dict[str, Any], rng: random.Random, turn: int, scale: float) -> None:
    """Append one run: its prompt messages, its run record and the variables it wrote.

    ``scale`` (0..1] shortens the texts and below 0.25 the run looks nothing up (no tool call),
    so that even a 1KB state holds a whole exchange.
    """
    agent, writes = _AGENTS[turn % len(_AGENTS)]
    reads = _AGENTS[(turn - 1) % len(_AGENTS)][1] if turn else None
    query = _sentence(rng, max(2, round(12 * scale)))
    record = _record(rng, writes, turn, max(1, round(8 * scale)))
    answer = _sentence(rng, max(2, round(40 * scale)))
    messages = state["prompts"]["chat"]["messages"]
    messages.append({"role": "user", "content": query, "agent": agent})
    if scale >= 0.25:
        messages.append(
            {
                "role": "tool_call",
                "name": f"data.{writes}s",
                "agent": agent,
                "arguments": {"source": f"{writes}s", "match": query, "where": None, "limit": 1},
            }
        )
        messages.append(
            {"role": "tool_result", "name": f"data.{writes}s", "content": record, "agent": agent}
        )
    messages.append({"role": "assistant", "content": answer, "agent": agent})
    state["conv"][writes] = record
    state["agents"].setdefault(agent, {})["lastId"] = record["id"]
    state["runs"].append(
        {
            "agent": agent,
            "version": "1.0.0",
            "inputs": {"query": query},
            "output": {"agentName": agent, "parts": [{"contentType": "text", "text": answer}]},
            "ranAt": (_START + timedelta(minutes=3 * turn)).isoformat(),
            "resultCode": "success",
            "paused": None,
            "reads": [reads] if reads else [],
            "writes": [writes],
        }
    )


def build_state(size: int, seed: int = 7) -> dict[str, Any]:
    """A conversation state whose serialized form is exactly ``size`` bytes (``size`` >= 1024)."""
    if size < 1024:
        raise ValueError(f"a state is at least 1024 bytes, not {size}")
    rng = random.Random(seed)
    state: dict[str, Any] = {
        "runs": [],
        "prompts": {
            "chat": {
                "name": "chat",
                "scope": "conversation",
                "agent": None,
                "system": "Role: help the user across departments.",
                "messages": [],
            }
        },
        "conv": {},
        "agents": {},
    }
    scale = min(1.0, size / 16384)
    _exchange(state, rng, 0, scale)
    turn, current = 1, len(serialize_state(state))
    per_exchange = float(current)
    # Add exchanges while the next one still fits, then pad the last answer to the exact size.
    # Serializing a 1MB state after every exchange would dominate the build, so exchanges go in
    # batches sized from the measured growth, re-measured as the target gets near.
    while current + 2 * per_exchange <= size:
        steps = max(1, int((size - current) / (2 * per_exchange)))
        for _ in range(steps):
            _exchange(state, rng, turn, scale)
            turn += 1
        grown = len(serialize_state(state))
        per_exchange = max(1.0, (grown - current) / steps)
        current = grown
    # Trim or pad the last answer so the serialized state is exactly ``size`` bytes (ASCII text).
    last = state["prompts"]["chat"]["messages"][-1]
    missing = size - len(serialize_state(state))
    if missing < 0:
        raise ValueError(f"cannot build a state of exactly {size} bytes")
    # The filler is plain ASCII words, so every character adds exactly one byte of JSON.
    filler = ""
    while len(filler) < missing:
        filler += " " + _sentence(rng, 8)
    last["content"] += filler[:missing]
    return state
