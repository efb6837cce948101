"""The mock language model: deterministic, and it speaks once.

The answer is the agent's reply template, already filled from the record the agent worked on
and the conversation variables it read. That is how a follow-up visibly remembers the earlier
exchange: its answer names the saved values it used ("I used the trip to Berlin …"), and the
hand-off itself is a structured part of the result that an interface shows (agent, variable,
record), not prose. Quoting earlier answers after every reply read as clutter. The same
prompt history and template always give the same answer, so tests and benchmarks repeat.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

# An optional sentence left empty ("{handoff_trip} {handoff_customer}") leaves no gap.
_GAPS = re.compile(r" {2,}")
_SPACE_BEFORE_STOP = re.compile(r"\s+([.,;:])")
# Money is written with its cents, as a person would ("84.50 EUR", not "84.5 EUR").
_ONE_DECIMAL_MONEY = re.compile(r"(?<![\d.])(\d+\.\d)(?= [A-Z]{3}\b)")


class LanguageModel(Protocol):
    def answer(self, *, agent: str, system: str, messages: list[dict[str, Any]], reply: str) -> str:
        """The model's answer to a prompt whose history is `messages`."""


class MockModel:
    """Deterministic stand-in for a language model."""

    def answer(self, *, agent: str, system: str, messages: list[dict[str, Any]], reply: str) -> str:
        text = _GAPS.sub(" ", reply).strip()
        text = _ONE_DECIMAL_MONEY.sub(r"\g<1>0", text)
        return _SPACE_BEFORE_STOP.sub(r"\1", text) or "Done."
