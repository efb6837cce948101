"""The phrases an outcome's record carries for its answer (" to Brazil", " for Lindqvist
AB", " from X to Y"), from the request that found or made it."""

from __future__ import annotations

import re

from .recipe import Record
from .stated import Stated

_UNTIL = re.compile(r"\b(?:until|till|through to)\b", re.IGNORECASE)
# The phrases an outcome's record carries for its answer, from the request that found it.
PHRASES = frozenset({"when", "to", "for"})


def to_phrase(stated: Stated) -> str:
    """The place a request goes to, as a phrase an answer can insert (" to Brazil")."""
    place = stated.destination
    return f" to {place.name}" if place is not None else ""


# The user travelling with others ("for me and two colleagues").
_WITH_OTHERS = re.compile(
    r"\bfor\s+me\s+and\s+(?P<others>(?:my\s+)?(?:\w+\s+)?(?:colleagues?|teammates?|"
    r"co-?workers?|others|people|managers?|boss))\b",
    re.IGNORECASE,
)


def for_phrase(stated: Stated, record: Record) -> str:
    """Whom a record is for, as a phrase an answer can insert (" for Lindqvist AB", " for
    Anna Schmidt"): the company or else the person the request names, else the customer the
    record was made for."""
    named = next(iter((*stated.organisations, *stated.people)), None)
    if named is not None:
        return f" for {named.shown}"
    together = _WITH_OTHERS.search(stated.text)
    if together:
        # "for me and two colleagues": a booking that said nothing of the three of them.
        others = re.sub(r"^my\b", "your", together.group("others").lower())
        return f" for you and {others}"
    return f" for {record['customer']}" if record.get("customer") else ""


def when_phrase(stated: Stated) -> str:
    """The dates a request states, as a phrase an answer can insert (" from X to Y")."""
    start, end = stated.first_date, stated.last_day
    if start and end and end != start:
        return f" from {start.isoformat()} to {end.isoformat()}"
    if start or end:
        day = (start or end).isoformat()  # type: ignore[union-attr]
        # "Out until Friday" is every day up to then, not Friday alone.
        return f" until {day}" if _UNTIL.search(stated.text) else f" on {day}"
    return ""
