"""Forms over email and IM: the questions as a message, and the answers read from a reply.

A sender on email or IM has no form to fill. When their conversation waits on an agent's
``ask``, the reply they are sent lists the questions one per line (``Label: ``); what they
write back answers the form: ``Label: value`` lines first, then what the words say, field by
field (a date for a date, an address for an e-mail, an amount for a field in EUR, the one
option named for a choice, "I signed the contract" for "Have you signed your contract?"). A
question the reply does not answer is asked again; nothing is guessed.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from typing import Any

from mock_account.understanding import extract_facts

_STOP = frozenset(
    "a an and are at be by did do does for have has i in is it me my of on or our the to "
    "was we what when where which who will with you your yours".split()
)
_NEGATION = re.compile(r"\b(?:not|never|no|n't|nope)\b|n't\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[.;!?\n]|,\s*(?:and|but)\b|\bbut\b")
_LINE = re.compile(r"^\s*([^:\n]{1,80}?)\s*:\s*(.+?)\s*$", re.MULTILINE)
_VALUE_END = r"(?=\s*(?:[,;.!?\n]|\band\b|\bbut\b|$))"
# A field that takes an amount of money: its label names a currency or a kind of amount.
_MONEY_LABEL = re.compile(
    r"\b(?:eur|usd|gbp|chf|amount|cover|budget|price|cost|fee|salary|limit)\b", re.IGNORECASE
)
_TEXT_END = r"(?=\s*(?:[;!?\n]|\.(?:\s|$)|$))"


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.casefold())


def _key(text: str) -> str:
    """A label or a written label, compared without case, punctuation and hints."""
    text = re.sub(r"\(.*?\)", " ", text)
    return " ".join(w for w in _words(text) if w not in _STOP)


def _content_words(spec: dict[str, Any]) -> list[str]:
    label = re.sub(r"\(.*?\)", " ", str(spec.get("label") or spec["name"]))
    return [w.removesuffix("'s") for w in _words(label) if w not in _STOP]


def questions(ask: dict[str, Any]) -> str:
    """The ask as a message to reply to: its message, then one ``Label:`` line per input."""
    lines = [str(ask.get("message") or "").strip(), "Reply with one line per answer:"]
    for spec in ask.get("inputs") or []:
        label = str(spec.get("label") or spec["name"]).rstrip(":?")
        options = spec.get("options") or []
        hint = f" ({' / '.join(map(str, options))})" if options else ""
        lines.append(f"{label}{hint}: ")
    return "\n".join(line for line in lines if line)


def answers_from_reply(
    inputs: Iterable[dict[str, Any]], reply: str, today: dt.date
) -> dict[str, Any]:
    """The answers a reply gives to an ask's inputs (only those it gives)."""
    specs = list(inputs)
    found: dict[str, Any] = {}
    by_key = {_key(str(s.get("label") or s["name"])): s for s in specs}
    by_key.update({_key(s["name"].replace("_", " ")): s for s in specs})
    for written, value in _LINE.findall(reply):
        spec = by_key.get(_key(written))
        if spec is not None and value.strip():
            found[spec["name"]] = _as_option(spec, value.strip())
    facts = extract_facts(reply, today)
    for spec in specs:
        if spec["name"] in found:
            continue
        value = _from_words(spec, reply, facts)
        if value is not None:
            found[spec["name"]] = value
    return found


def _as_option(spec: dict[str, Any], value: str) -> Any:
    """A written choice as the option it names (``Yes`` is ``yes``), else as written."""
    for option in spec.get("options") or []:
        if str(option).casefold() == value.casefold():
            return option
    return value


def _from_words(spec: dict[str, Any], reply: str, facts: Any) -> Any:
    kind = spec.get("type") or "str"
    name = spec["name"]
    label = str(spec.get("label") or name).casefold()
    options = [str(o) for o in spec.get("options") or []]
    if kind == "email" or "email" in label or name.endswith("email"):
        return facts.emails[0].address if facts.emails else None
    if "date" in name or "date" in label:
        return facts.date.date.isoformat() if facts.date is not None else None
    if _MONEY_LABEL.search(label) and facts.amounts:
        amount = facts.amounts[0].amount
        return int(amount) if amount == int(amount) else float(amount)
    if options:
        return _choice(spec, options, reply)
    return _stated(spec, reply)


def _choice(spec: dict[str, Any], options: list[str], reply: str) -> str | None:
    """One option named in the reply; for yes / no, what the reply says of the question."""
    named = {o for o in options if re.search(rf"\b{re.escape(o)}\b", reply, re.IGNORECASE)}
    if len(named) == 1:
        return named.pop()
    if {o.casefold() for o in options} != {"yes", "no"}:
        return None
    topic = [w for w in _content_words(spec) if len(w) > 3]
    for clause in _CLAUSE.split(reply):
        words = _words(clause)
        if any(_same_word(t, w) for t in topic for w in words):
            said = "no" if _NEGATION.search(clause) else "yes"
            return next(o for o in options if o.casefold() == said)
    return None


def _same_word(topic: str, word: str) -> bool:
    """``signed`` for ``signed``, ``attended`` for ``attend``, ``remote`` for ``remotely``."""
    stem = min(len(topic), len(word), 6)
    return stem >= 4 and topic[:stem] == word[:stem]


def _stated(spec: dict[str, Any], reply: str) -> str | None:
    """``<the label's words> is <value>`` ("my legal name is Ann Lee"), or without the verb
    what looks like a value ("tax id DE123456789", "contact email sales@…"); else nothing."""
    words = _content_words(spec)
    # Free text (an address) may hold commas; a short answer ends at one.
    end = _TEXT_END if spec.get("type") == "text" else _VALUE_END
    for size in range(len(words), 0, -1):
        phrase = r"\W+".join(re.escape(w) for w in words[-size:])
        found = re.search(
            rf"\b{phrase}(?:'s)?\s+(?P<verb>(?:is|are|will be|:)\s+)?(?P<value>.+?){end}",
            reply,
            re.IGNORECASE,
        )
        if found is None:
            continue
        value = found["value"].strip()
        if found["verb"] or re.match(r"[A-Z0-9]", value) or "@" in value:
            return value
    return None
