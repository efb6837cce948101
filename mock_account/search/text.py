"""Text analysis for agent search: words -> index terms.

Lower-cases, splits CamelCase agent names into words, drops stop words (including the
filler of requests: "please", "I need", "can you"), reads the facts a request states
the way `facts` says (numbers, dates and amounts left out, ``ORD-000042`` read as
"order", ``sev2`` as "severity"), and stems with the Snowball English stemmer so
"booking", "booked" and "books" meet at "book".
"""

from __future__ import annotations

import re
from collections.abc import Container
from functools import lru_cache

import snowballstemmer

from .facts import expand_facts, fact_word

# English function words plus the politeness and chat filler every request or follow-up
# carries ("thanks, great", "can you tell me", "go ahead"); they say nothing about which
# agent is meant, and a follow-up made only of them should go back to the last agent.
STOP_WORDS = frozenset(
    """
    a about above after again all also am an and any are as at be been before being below
    between both but by can could did do does doing done during each else even ever
    for from further get gets getting got had has have having he her here hers him his how
    i i'd i'll i'm i've if in into is it it's its just let me more most much my myself no
    nor not now of off on once only or other our ours out over own please quite really
    same she should so some such than thank thanks that that's the their theirs them then
    there these they this those through to too under until up us very want wants was we
    were what when where which while who whom why will with would you your yours
    hi hello hey need needs like kindly someone something somebody anyone anything
    one help don doesn didn isn aren wasn weren won wouldn couldn shouldn haven hasn can't
    thanks thank great ok okay yes yeah sure cool fine just also maybe actually anyway same
    tell say said make do go ahead know lot lots thing things stuff way still yet
    """.split()
)

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")
# What may stand between the end of a sentence and its first word.
_OPENERS = " \t\r\n\"'([*-"
_SENTENCE_ENDS = ".!?:;\n"
_STEMMER = snowballstemmer.stemmer("english")


def split_name(name: str) -> str:
    """``ResetVPNPassword_v2`` -> ``Reset VPN Password v2``."""
    return _CAMEL.sub(" ", name).replace("_", " ")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    return _STEMMER.stemWord(word)


def terms(
    text: str, *, known: Container[str] | None = None, names: Container[str] = ()
) -> list[str]:
    """The index terms of `text`, in order, repeats kept (they are term frequencies).

    With `known` (stems), a capitalised word inside a sentence whose stem is not in it is
    taken for a name, of a person, company, place or product, and left out: the agents'
    examples name such things ("The Warsaw workshop was called off") and a request naming
    the same one should not lean towards that agent for it. Words that open a sentence
    and names the agents' titles and descriptions use ("VPN", "Photoshop") are kept,
    except `names` (stems of words found as names inside other sentences): "Kestrel Energy
    called off their order" made "Order 5 for Kestrel Energy" a cancellation."""
    text = plain_verbs(expand_facts(text.replace("\u2019", "'")))
    found = []
    for match in _WORD.finditer(text):
        original = match.group(0)
        word = original.lower()
        if word in STOP_WORDS:
            continue
        # "won't", "laptop's": keep the stem of the word before the apostrophe.
        base = word.split("'", 1)[0]
        if not base or base in STOP_WORDS:
            continue
        fact = fact_word(base)
        if fact is not None:
            found.extend(stem(w) for w in fact.split())
            continue
        term = stem(base)
        if known is not None and original[0].isupper() and term not in known:
            before = text[: match.start()].rstrip(_OPENERS)
            if (before and before[-1] not in _SENTENCE_ENDS) or term in names:
                continue
        found.append(term)
    return found


# Phrasal verbs said for a plain one: their particle is a stop word, and their verb alone
# means something else ("turned up" is no "turn"; "called off" no "call"). Read on both sides,
# the agents' words and the request's.
_PHRASAL = (
    (
        re.compile(r"\b(?:turn|turns|turned|turning|show|shows|showed|shown|showing)\s+up\b", re.I),
        "arrived",
    ),
    (re.compile(r"\b(?:call|calls|called|calling)\s+(?:it\s+|them\s+)?off\b", re.I), "cancelled"),
    (re.compile(r"\b(?:sign|signs|signed|signing)\s+off\b", re.I), "approved"),
    (re.compile(r"\b(?:kick|kicks|kicked|kicking)\s+(?:it\s+)?off\b", re.I), "started"),
    (
        re.compile(r"\b(?:book|books|booked|booking)\s+(?:it|them|this|that)\s+in\b", re.I),
        "record the receipt of it",
    ),
)


# A part of a whole said in numbers ("only 34 of the 40", "60 out of 100"): a partial one.
_PART_OF = re.compile(r"\b\d[\d,]*\s+(?:of|out\s+of)\s+(?:the\s+|a\s+)?\d[\d,]*\b", re.I)


def plain_verbs(text: str) -> str:
    """``text`` with each phrasal verb of `_PHRASAL` said as its plain verb, and a part of a
    whole said in numbers as "partial"."""
    for said, plain in _PHRASAL:
        text = said.sub(plain, text)
    return _PART_OF.sub("partial", text)


def names_inside(text: str, known: Container[str]) -> set[str]:
    """The stems of the words `terms` takes for names in `text` (capitalised, inside a
    sentence, not in `known`)."""
    text = expand_facts(text.replace("\u2019", "'"))
    found: set[str] = set()
    for match in _WORD.finditer(text):
        original = match.group(0)
        base = original.lower().split("'", 1)[0]
        if not original[0].isupper() or not base or base in STOP_WORDS:
            continue
        if fact_word(base) is not None or stem(base) in known:
            continue
        before = text[: match.start()].rstrip(_OPENERS)
        if before and before[-1] not in _SENTENCE_ENDS:
            found.add(stem(base))
    return found


def content_word_count(text: str) -> int:
    """How many words of `text` say something (stop words and filler left out), the names,
    dates and amounts that `terms` leaves out included: "I need a hotel in Lisbon from the
    14th to the 16th of December" says five things, though only "hotel" is an index term."""
    return sum(
        1
        for match in _WORD.finditer(text.replace("\u2019", "'"))
        if match.group(0).lower().split("'", 1)[0] not in STOP_WORDS
    )
