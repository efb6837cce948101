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

# A sentence ends at . ! or ? before a space, but not at the dot of a company's legal form
# ("Rodriguez Media Corp. (VEN-0188) is…") or of a single letter ("S.A.").
_SENTENCE = re.compile(
    r"^(.{1,200}?(?<!\bCorp)(?<!\bInc)(?<!\bLtd)(?<!\bCo)(?<!\b[A-Z])[.!?])(\s|$)"
)
# Where an earlier answer's own recollections begin: a quote of it quotes what it said.
_RECALLED = re.compile(
    r"\s*(?:\((?:Earlier in this conversation, |As I said before: |Before the change: )|"
    r"Known so far: )"
)
_GAPS = re.compile(r" {2,}")
_FACT_KEYS = ("destination", "name", "id", "number", "subject", "service", "counterparty", "role")


class LanguageModel(Protocol):
    def answer(self, *, agent: str, system: str, messages: list[dict[str, Any]], reply: str) -> str:
        """The model's answer to a prompt whose history is `messages`."""


def _first_sentence(text: str) -> str:
    """The first sentence of what an answer said itself, not of what it recalled."""
    said = _RECALLED.split(text.strip(), maxsplit=1)[0].strip()
    match = _SENTENCE.match(said)
    if match:
        return match.group(1)
    if len(said) <= 200:
        return said
    # Cut at a word, and say so: a quote ending "225.96 EUR i" read as a typo.
    return said[:200].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def _facts(messages: list[dict[str, Any]], current: Any = None) -> list[str]:
    """The latest value of each fact the tool results put in the history, but none that the
    record this answer is about (``current``) says otherwise: a flight to Lisbon does not
    recall "destination Berlin" as known; nor any of the user's own record (``own``)."""
    latest: dict[str, str] = {}
    for message in messages:
        content = message.get("content")
        if message.get("role") != "tool_result" or not isinstance(content, dict):
            continue
        if message.get("own"):
            continue  # the user's own record ("name Mario Hernandez" under an invoice)
        for key in _FACT_KEYS:
            value = content.get(key)
            if isinstance(value, (str, int, float)):
                latest.pop(key, None)  # re-inserted last: the order is the latest mention
                latest[key] = f"{key} {value}"
                break
    if isinstance(current, dict):
        for key in list(latest):
            if key in current and latest[key] != f"{key} {current[key]}":
                del latest[key]
    return list(latest.values())[-3:]


def _changes_its_own(messages: list[dict[str, Any]], agent: str) -> bool:
    """Whether this answer is about a record the agent changed (its data call of this turn
    names the fields changed: "move it to Friday" after its booking)."""
    if len(messages) < 2 or messages[-1].get("role") != "tool_result":
        return False
    call = messages[-2]
    arguments = call.get("arguments")
    return (
        call.get("role") == "tool_call"
        and call.get("agent") == agent
        and isinstance(arguments, dict)
        and bool(arguments.get("changed"))
    )


class MockModel:
    """Deterministic stand-in for a language model."""

    def answer(self, *, agent: str, system: str, messages: list[dict[str, Any]], reply: str) -> str:
        # An optional sentence left empty ("{handoff_trip} {handoff_customer}") leaves no gap.
        text = _GAPS.sub(" ", reply).strip() or "Done."
        earlier = [m for m in messages if m.get("role") == "assistant"]
        if earlier:
            last = earlier[-1]
            who = last.get("agent") or "an earlier agent"
            if who == agent and _changes_its_own(messages, agent):
                # The same record changed: what was said of it is what it was, not a second one.
                text += f' (Before the change: "{_first_sentence(str(last.get("content", "")))}")'
            elif who == agent:
                text += f' (As I said before: "{_first_sentence(str(last.get("content", "")))}")'
            else:
                text += (
                    f" (Earlier in this conversation, {who} said: "
                    f'"{_first_sentence(str(last.get("content", "")))}")'
                )
        current = messages[-1] if messages and messages[-1].get("role") == "tool_result" else {}
        facts = _facts(messages[:-1] if messages else messages, current.get("content"))
        if facts and earlier:
            text += " Known so far: " + "; ".join(facts).rstrip(".") + "."
        return text
