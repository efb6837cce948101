"""What a request states, kept as the details of what an agent did, and said back.

An answer is read against what was typed: a company, a time, a model number or a percentage
that the answer leaves out reads as not listening. Every fact the request states is kept here
as a detail (a key saying what it is, and the value as an answer says it), saved with the
conversation (``conv.request``) so that the next turn finds it, and said in the answer when the
agent's own reply did not already say it.

A follow-up carries the details of the request before it when it points back at it ("raise
that rollout to 60%", "invite her", "a press release from that announcement") or comes back
to the same agent: what it states replaces the detail of the same key ("60%" for "25%", said
as a change), the rest stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from .changes import How, changed_value, how_changed
from .recipe import shown_money
from .roles import people_beside
from .stated import Stated

#: Where the details of a request keep what earlier requests said (``Details.kept``).
EARLIER = "earlier"

#: Keys whose values are joined when a request states several ("Maria Lopez, Daniel Weber").
_JOINED = ", "

# A request that points back at what the conversation is about: a pronoun, "that X", "the same".
_POINTS_BACK = re.compile(
    r"\b(?:it|its|it's|that|this|those|these|them|they|their|theirs|he|him|his|she|her|hers|"
    r"same|there|instead|also|too|again)\b",
    re.IGNORECASE,
)

_QUARTER = re.compile(r"\bQ[1-4]\b|\bquarter\b", re.IGNORECASE)

# How each kind of detail is introduced when it is said back alone.
_INTRO = {
    "due": "due {}",
    "time": "at {}",
    "duration": "for {}",
    "percentage": "{}",
    "dates": "{}",
    "date": "on {}",
    "from": "from {}",
    "to": "to {}",
    "about": "about {}",
    "with": "with {}",
}
# What a request is about is said anew by each request: a follow-up's subject is no change of
# the one before ("the receipt" after "a taxi from Haneda").
_NOT_CHANGED = frozenset({"about"})


@dataclass(frozen=True)
class Details:
    """The details of one request, with what it carried over and what it changed."""

    values: dict[str, str] = field(default_factory=dict)
    # Keys whose values came from the request before, unchanged.
    carried: frozenset[str] = frozenset()
    # Keys this request changed: key -> the value before.
    changed: Mapping[str, str] = field(default_factory=dict)
    # What earlier requests of the conversation stated that this one, about something else,
    # neither repeats nor replaces: kept in the conversation (the next agent may need the
    # service or the reference said two turns ago) under ``earlier``, apart from this
    # request's, so that a follow-up never carries it on as its own ("make it 15k" after a
    # budget is not "for Ravi", the colleague of the request before).
    kept: Mapping[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {**self.values, EARLIER: dict(self.kept)} if self.kept else dict(self.values)


def details_of(stated: Stated, known: frozenset[str] = frozenset()) -> dict[str, str]:
    """Every fact a request states, by what it is, in a stable order. ``known``: the words
    the agent uses of itself (folded, singular), which its subject need not repeat."""
    out: dict[str, list[str]] = {}

    def add(key: str, value: object) -> None:
        text = " ".join(str(value).split())
        if text and text not in out.setdefault(key, []):
            out[key].append(text)

    for org in stated.organisations:
        add("company", org.shown)
    beside = people_beside(stated)
    for person in stated.people:
        # A panel or a buddy is with the record's person, not in their place.
        add("with" if person.shown in beside else "person", person.shown)
    for place in stated.places:
        key = {"origin": "from", "destination": "to"}.get(place.role, "place")
        add(key, place.name)
    if stated.start and stated.end and stated.end != stated.start:
        add("dates", f"{stated.start.isoformat()} to {stated.end.isoformat()}")
    elif stated.start or stated.end:
        add("date", (stated.start or stated.end).isoformat())  # type: ignore[union-attr]
    for day in stated.dates:
        if day != stated.deadline and day not in (stated.start, stated.end):
            add("date", day.isoformat())
    if stated.deadline:
        add("due", stated.deadline.isoformat())
    for first, last in stated.period_spans:
        # A quarter keeps its name as typed ("Q4"), beside the days it stands for.
        if _QUARTER.search(stated.text[first:last]):
            add("period", stated.text[first:last])
    for time in stated.times:
        add("time", time)
    for duration in stated.durations:
        add("duration", duration)
    for money in stated.amounts:
        add("amount", shown_money(money.amount, money.currency))
    for quantity in stated.quantities:
        count = int(quantity.count) if float(quantity.count).is_integer() else quantity.count
        add("quantity", quantity.said or f"{count} {quantity.item}")
    for percent in stated.percents:
        add("percentage", f"{int(percent) if float(percent).is_integer() else percent}%")
    for kind, ids in stated.ids.items():
        for value in ids:
            add(kind.lower(), stated.typed_id(value))
    if stated.severity:
        add("severity", stated.levels_said.get("severity", stated.severity))
    if stated.priority:
        add("priority", stated.levels_said.get("priority", stated.priority))
    for email in stated.emails:
        add("email", email)
    for version in stated.versions:
        add("version", version)
    for thing in stated.things:
        if thing.kind == "subject":
            phrase = _beyond(thing.value, known)
            if phrase:
                add("about", phrase)
        else:
            add(thing.kind, thing.value)
    return {key: _JOINED.join(values) for key, values in out.items()}


def word_key(word: str) -> str:
    """A word as vocabularies compare it: lower case, singular ("modules" -> "module")."""
    folded = word.casefold().strip("'’-")
    if len(folded) > 4 and folded.endswith("ies"):
        return folded[:-3] + "y"
    if len(folded) > 3 and folded.endswith("s") and not folded.endswith("ss"):
        return folded[:-1]
    return folded


def _beyond(phrase: str, known: frozenset[str]) -> str:
    """The phrase, when it says something the agent does not say of itself ("replication lag
    alert" to an agent about alerts; not "invoice" to the invoicing agent); else nothing."""
    words = phrase.split()
    if all(word_key(w) in known or len(w) < 3 for w in words):
        return ""
    return phrase


def points_back(text: str) -> bool:
    """Whether a request refers to what was asked before rather than only to itself."""
    return bool(_POINTS_BACK.search(text))


_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?")


def _number(value: str) -> float | None:
    found = _NUMBER.match(value.strip())
    return float(found.group()) if found else None


def _shown_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")


def _adjusted(key: str, before: str, now: str, how: How) -> str:
    """A number said as a difference ("up by 5000", "10% more"), applied to the value before
    it; a value said as the new one stays as said."""
    old, said = _number(before), _number(now)
    if how == "set" or old is None or said is None or _JOINED in before:
        return now
    if key == "percentage":
        return f"{_shown_number(changed_value(old, said, how))}%"
    unit, said_unit = before.split(" ", 1)[1:], now.split(" ", 1)[1:]
    if unit != said_unit:
        return now  # another currency or unit: said as it is
    return " ".join([_shown_number(changed_value(old, said, how)), *unit])


def _moved(value: str, days: int, target: str | None) -> str:
    """A day, or a range of days, moved by a shift ("push it back by a day")."""
    try:
        if " to " in value:
            first, last = (date.fromisoformat(v) for v in value.split(" to ", 1))
            if target != "end":
                first += timedelta(days=days)
            if target != "start":
                last += timedelta(days=days)
            return f"{first.isoformat()} to {last.isoformat()}"
        return (date.fromisoformat(value) + timedelta(days=days)).isoformat()
    except ValueError:
        return value


# A value said alone as the new one of "it" ("take it up to 50", "make that 30"): a number
# with no unit, date or time of its own.
_BARE_VALUE = re.compile(
    r"\b(?:to|it|that|make\s+it|make\s+that)\s+(\d+(?:\.\d+)?(?:k|K)?)\b(?![.,:/]?\d|\s*(?:%|percent|"
    r"am\b|pm\b|st\b|nd\b|rd\b|th\b|[a-z]))",
    re.IGNORECASE,
)
_MEASURED = ("percentage", "amount", "quantity")


def carried_over(
    stated: Stated,
    before: Mapping[str, Any] | None,
    *,
    same_agent: bool,
    known: frozenset[str] = frozenset(),
) -> Details:
    """This request's details over those of the request before it, when it follows on from
    it (it points back, or it is the same agent's again); else its own alone."""
    now = details_of(stated, known)
    if not before:
        return Details(now)
    before = dict(before)
    older = before.pop(EARLIER, None)
    older = {k: str(v) for k, v in older.items()} if isinstance(older, Mapping) else {}
    if not (same_agent or points_back(stated.text)):
        kept = {**older, **{k: str(v) for k, v in before.items()}}
        return Details(now, kept={k: v for k, v in kept.items() if k not in now})
    earlier = {k: str(v) for k, v in before.items()}
    how = how_changed(stated.text)
    bare = _BARE_VALUE.search(stated.text)
    measured = [k for k in _MEASURED if k in earlier]
    if bare and len(measured) == 1 and not any(k in now for k in _MEASURED):
        # "Take it up to 50" after "for 10% of users": 50%, in the unit of what it changes.
        key, before_value = measured[0], earlier[measured[0]]
        # What follows the number before is its unit: "%", " USD", " x VX-900 monitors".
        number = _NUMBER.match(before_value)
        if number and _JOINED not in before_value:
            said = bare.group(1)
            if said[-1] in "kK":  # "make it 2k"
                said = _shown_number(float(said[:-1]) * 1000)
            now[key] = f"{said}{before_value[number.end() :]}"
    for key in ("amount", "percentage"):
        if key in now and key in earlier:
            now[key] = _adjusted(key, earlier[key], now[key], how)
    if stated.shift_days and not (stated.start or stated.end or stated.dates):
        # "Push it back by a day": the days it was on, moved.
        for key in ("date", "dates", "due"):
            if key in earlier and key not in now:
                now[key] = _moved(earlier[key], stated.shift_days, stated.shift_target)
    if "about" in earlier and "about" in now:
        # What each request is about adds up; neither replaces the other.
        said = [a for a in earlier["about"].split(_JOINED) if a not in now["about"].split(_JOINED)]
        now["about"] = _JOINED.join([*said, now["about"]])
    values = {**earlier, **now}
    changed = {
        k: str(before[k])
        for k in now
        if k in before and str(before[k]) != now[k] and k not in _NOT_CHANGED
    }
    carried = frozenset(k for k in before if k not in now)
    return Details(values, carried, changed, {k: v for k, v in older.items() if k not in values})


# What a request is about, of what it carried over: said again so a follow-up answer shows
# whom or what it worked for ("Invite her": Anjali Desai). Amounts, dates and codes of the
# request before are kept, not repeated: the answer says its own.
_IDENTIFYING = ("company", "person", "title", "product")


def noted(details: Details, answer: str) -> str:
    """What the answer must add so that nothing the request stated is left out: each detail
    the answer does not say yet, a change with its value before ("60% (was 25%)"), and whom
    or what a follow-up is for when the answer does not name it."""
    said = _folded(answer)
    new: list[str] = []
    for key, value in details.values.items():
        if key in details.carried or _says(said, key, value):
            continue
        if _JOINED in value and key not in details.changed:
            # Of several ("Jonas Weber, Clara Wong"), those the answer does not say yet.
            value = _JOINED.join(v for v in value.split(_JOINED) if not _says(said, key, v))
            if not value:
                continue
        shown = _INTRO.get(key, "{}").format(value)
        if key in details.changed:
            shown += f" (was {details.changed[key]})"
        new.append(shown)
    carried = [
        details.values[k]
        for k in _IDENTIFYING
        if k in details.carried and not _says(said, k, details.values[k])
    ]
    sentences = []
    if new:
        opening = "Also noted" if "noted - " in said else "Noted"
        sentences.append(f"{opening}: {'; '.join(new)}.")
    if carried:
        sentences.append(f"This is for {' and '.join(carried)}.")
    return " ".join(sentences)


def _says(said: str, key: str, value: str) -> bool:
    """Whether the answer says a detail; a range of days when it says the first of them (a
    car "for three days" is dropped off the day after the third)."""
    if key in ("date", "dates", "due"):
        # The day said in another year is the day the answer placed ("a charge on 2 December":
        # last December's), not another one.
        first = value.split(" to ")[0]
        return _folded(first) in said or re.search(rf"\b\d{{4}}-{first[5:10]}\b", said) is not None
    return _folded(value) in said


_SEPARATORS = re.compile(r"(?<=\d)[,\u202f\u00a0'](?=\d{3}\b)")
_TRAILING_ZERO = re.compile(r"(?<=\d)\.0+\b")


def _folded(text: str) -> str:
    """Text as a detail is looked for in an answer: lower case, no thousands separators."""
    text = _SEPARATORS.sub("", text.casefold())
    return " ".join(_TRAILING_ZERO.sub("", text).split())


def said_in(values: Iterable[str], answer: str) -> list[str]:
    """The values an answer says (for tests and reports)."""
    folded = _folded(answer)
    return [v for v in values if _folded(v) in folded]
