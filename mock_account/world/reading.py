"""How a request reads: a question or a request for something; about the record the
conversation holds, the one the agent made, or another."""

from __future__ import annotations

import re
from typing import Any

from mock_account.business.data import tokens

from .recipe import Record, starts_name

# "There" as a place ("book me a train there", "a hotel there for two nights"), not "is there
# an outage", "there are two of us" or "over there".
THERE = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bover )\bthere\b"
    r"(?!\s+(?:is|are|was|were|will|be|has|have|had)\b|['’]s)",
    re.IGNORECASE,
)


# Fields that say what state a record is in, not which record it is: "the incident is
# resolved" names no ticket whose status is resolved.
_STATE_FIELDS = frozenset({"status", "priority", "severity", "stage", "tier", "currency"})


def shares_words(record: Record, text: str) -> bool:
    """Whether the request describes the record: it says most words of one of the values that
    say what the record is ("the data analyst", "the damaged order"). One word in common with
    a longer subject ("the desks arrived scratched" and "Order arrived damaged") is not it."""
    said = tokens(text)
    for key, value in record.items():
        if key in _STATE_FIELDS or not isinstance(value, str):
            continue
        words = tokens(value)
        if words and 2 * len(said & words) > len(words):
            return True
    return False


# A question ("When will it arrive?", "How do I set up a vendor?", "Can I get a loaner?"),
# not a request; "can you..." and "could you..." ask for something.
QUESTION = re.compile(
    r"^\s*(?:when|what|which|where|who|why|how|is|are|has|have|did|does|do|will|(?:can|could|may)\s+i)\b",
    re.IGNORECASE,
)


# A request that points back at what the agent made ("open an incident for it") is about
# that record too; "for" a person or a thing named is not ("a laptop for Sofia").
_POINTS_BACK = re.compile(r"\b(?:for|about|on)\s+(?:it|that|this)\b", re.I)


# How a record stands: its status, whether it is done or approved.
_STANDING = re.compile(
    r"\b(?:status|progress|ready|done|finished|fixed|resolved|approved|update on|news on|"
    r"happens next)\b",
    re.IGNORECASE,
)


ASKING_FOR = re.compile(r"^\s*(?:can|could|may)\s+i\b", re.IGNORECASE)


# A question that asks for something to be done, or how to do it: no question of how a
# record stands ("can you send them a reminder?", "how do I chase them?").
_ASKS_FOR_ACTION = re.compile(
    r"^\s*(?:(?:please|so|ok|okay)[,\s]+)*(?:(?:can|could|would|will)\s+(?:you|we|i)|how\b|"
    r"what\s+(?:do|should)\s+(?:i|we)\b|should\s+(?:i|we)\b)",
    re.IGNORECASE,
)


def asks_how_it_is(text: str) -> bool:
    """Whether a request only asks how a record is ("Is it paid?", "Has INV-000318 been
    paid yet?", "When is it due?"), not for something to be done to it."""
    return bool(QUESTION.match(text)) and not _ASKS_FOR_ACTION.match(text)


def asks_how_it_stands(text: str) -> bool:
    """Whether a request is a question about how a record stands ("When will my laptop
    repair be done?"), not a request for one ("Can I get a loaner?")."""
    asking = QUESTION.match(text) and not ASKING_FOR.match(text)
    return bool(asking) and bool(_STANDING.search(text))


def asks_about(made: Record, text: str, stated: Record, worded: frozenset[str]) -> bool:
    """Whether a request is about ``made`` rather than for another: a question, or a
    request that points back to it, that states nothing that differs from it (its wording
    aside)."""
    about = QUESTION.match(text) or _POINTS_BACK.search(text)
    return bool(about) and states_nothing_else(made, stated, worded)


def states_nothing_else(made: Record, stated: Record, worded: frozenset[str]) -> bool:
    """Whether what a request states (its wording aside) is all as ``made`` has it; a name
    said short is the same name ("our NDA with Zephyr" after one with Zephyr Analytics)."""
    return all(
        same(v, made[k]) or starts_name(v, made[k])
        for k, v in stated.items()
        if k in made and k not in worded
    )


def says_instead(text: str, held: Any, asked: str) -> bool:
    """Whether the request says the held record's name itself and only part of the name it
    was matched to: with the new hire Sofia saved, "give Sofia access" is about her, not
    about Sofia Marin, whom "Sofia" alone would otherwise find."""
    if not held or same(held, asked):
        return False

    def says(name: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None

    return says(str(held)) and not says(asked)


def same(a: Any, b: Any) -> bool:
    return str(a or "").casefold() == str(b or "").casefold()
