"""The mock language model: deterministic, and it remembers the prompt's history.

The answer is the agent's reply template (already filled) followed by what the model
recalls from earlier turns of the same named prompt: the last answer given there
(by whichever agent gave it) and the facts that tool results put there. The same
history always gives the same answer, so tests and benchmarks are repeatable, and a
second agent using the shared ``chat`` prompt visibly continues the first one's work.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

_SENTENCE = re.compile(r"^(.{1,200}?[.!?])(\s|$)")
_FACT_KEYS = ("destination", "name", "id", "number", "subject", "service", "counterparty", "role")


class LanguageModel(Protocol):
    def answer(self, *, agent: str, system: str, messages: list[dict[str, Any]], reply: str) -> str:
        """The model's answer to a prompt whose history is `messages`."""


def _first_sentence(text: str) -> str:
    match = _SENTENCE.match(text.strip())
    return match.group(1) if match else text.strip()[:200]


def _facts(messages: list[dict[str, Any]]) -> list[str]:
    facts: list[str] = []
    for message in messages:
        content = message.get("content")
        if message.get("role") != "tool_result" or not isinstance(content, dict):
            continue
        for key in _FACT_KEYS:
            value = content.get(key)
            if isinstance(value, (str, int, float)) and f"{key} {value}" not in facts:
                facts.append(f"{key} {value}")
                break
    return facts[-3:]


class MockModel:
    """Deterministic stand-in for a language model."""

    def answer(self, *, agent: str, system: str, messages: list[dict[str, Any]], reply: str) -> str:
        text = reply.strip() or "Done."
        earlier = [m for m in messages if m.get("role") == "assistant"]
        if earlier:
            last = earlier[-1]
            who = last.get("agent") or "an earlier agent"
            if who == agent:
                text += f' (As I said before: "{_first_sentence(str(last.get("content", "")))}")'
            else:
                text += (
                    f" (Picking up from {who}, who said: "
                    f'"{_first_sentence(str(last.get("content", "")))}")'
                )
        facts = _facts(messages[:-1] if messages else messages)
        if facts and earlier:
            text += " Known so far: " + "; ".join(facts) + "."
        return text
