"""Split a message that holds several requests into requests of their own.

"Book me a flight to Oslo on Monday and file last week's taxi receipt" is two requests, for
two agents; "Book a hotel in Rome and Milan" and "a report for Q3 in euros" are one each.
The rules are deterministic (no model) and deliberately cautious: a wrong split sends half
a request to an agent, while a missed split only leaves the best match to do what it can.

1. **Where a split may happen** (the boundary kinds):

   - a *joiner*: ``and``, ``and then``, ``and also``, ``then``, ``after that``;
   - a bare *comma*;
   - a *sentence* end: ``.``, ``!`` or ``?`` followed by a space, ``;``, a line break.

2. **When it happens**: both sides must be requests of their own.

   - The text after the boundary *opens a request*: an imperative verb of ``VERBS``
     followed by its object (``file last week's…``, ``book a…``, ``pull up the…``: a
     determiner, pronoun, number, name or id, or a particle the verb takes, then one of
     those). After a joiner, an asking phrase opens a request too (``and I need a car``,
     ``and can you file…``); after a sentence end, only when it says ``also``, ``too`` or
     ``as well`` ("Can you also file my receipt?"), because a second sentence usually
     elaborates the first ("I want to hire Ahmed. Can we advertise the role?").
   - After a sentence end or a comma, text that points back (``it``, ``them``, ``her``,
     ``that``, ``there``…) elaborates what came before: no split; after a sentence end, a
     question does too. After ``and`` a pointer is fine: "book a flight to Berlin and file
     the expenses for it" is two requests, the second continuing from the first's state.
   - The text before the boundary (since the last split) *holds a request*: a clause that
     starts with a verb of ``VERBS`` and has words after it; or, except before a comma, an
     asking phrase (``I need…``, ``can you…``); or, before a sentence end, a question.
   - A verb that is as often a noun is not a request when a finite verb follows it ("Order
     ORD-1 has shipped, please send the bill" stays one).
   - A part that depends on the outcome of the one before (``if not``, ``if so``,
     ``otherwise``…) is not a request of its own.
   - One exception without a verb: after ``and``, another thing booked *for the place of the
     first* ("Book me a flight to Paris on Friday and a rental car there") is a request of its
     own, with the first part's verb ("Book me a rental car there"). Only a booking (a car, a
     hotel, a taxi, a train, a flight) that points back (``there``, ``for it``, ``for the
     trip``), or one that names no place after a first part that goes to one ("a flight to
     Lisbon on 14 December and a hotel for 3 nights": the first part takes the length too,
     "... for 3 nights", so the trip lasts as long as the stay): "a flight and a hotel in
     Oslo" stays one, since cut it would leave the flight without its city.

   So "Rome and Milan" stays (``Milan`` is no verb), "Send the invoice and report to
   finance" stays (``report to`` is no verb with an object), "Check and approve the
   invoice" stays (``Check`` alone is no request) and "how should we position and announce
   the tablet" stays (a question only counts as a request when it is a whole sentence).

3. **What each part is**: its own words; the joiner (and a leading ``also``) is dropped
   and a later part's first letter capitalised. A part is at least ``MIN_PART_CHARS`` long
   (what search accepts), and at most ``MAX_PARTS`` parts are made (the rest stays in the
   last part).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, cast

MIN_PART_CHARS = 8
MAX_PARTS = 5

Boundary = Literal["start", "joiner", "comma", "sentence"]

# Imperative verbs that open a request to an agent: the leading verbs of the account's agent
# names and their everyday synonyms. Deliberately absent: words that mostly continue a
# sentence ("let", "tell", "make", "help", "ask") rather than start a new request.
VERBS = frozenset(
    """
    add amend announce answer apply approve arrange assess assign attach authorise authorize
    block book build buy calculate call cancel change charge chase check choose claim clear
    close compare compute confirm contact copy correct create deactivate decline declare
    delete deploy diagnose disable dispute download draft email enable enrol enroll escalate
    estimate expedite explain export extend fetch file find fix fly forecast forward fulfil
    fulfill generate get give grant hire import increase invite invoice issue launch list
    locate lodge log look lower move notify offboard onboard open order organise organize
    page pause pay place plan post prepare print process pull purchase put qualify quote
    raise rebook recalculate reconcile record refer refund register reimburse reject release
    remind remove rename renegotiate renew rent reorder replace report request research
    reschedule reserve reset resend resolve restart restore resume retrieve return review
    revoke roll run schedule screen search sell send set ship show sign silence source
    sponsor start stop submit summarise summarize suspend swap switch terminate text toggle
    track transfer translate troubleshoot unblock update upgrade upload verify withdraw
    write
    """.split()
)

# Verbs that are as often nouns ("the order", "a report"): followed by a finite verb they
# are the subject of a statement ("Order ORD-1 has shipped"), not a request.
NOUN_LIKE = frozenset(
    """
    book call change charge check claim copy email file fix forecast invoice issue list log
    order page pay place plan post print process quote record reorder report request
    research return review schedule screen search set ship show sign source switch text
    track transfer update
    """.split()
)

FINITE = frozenset(
    """
    is are was were has have had hasn't haven't hadn't isn't aren't wasn't weren't does did
    doesn't didn't don't got keeps needs seems looks went came arrived shipped failed broke
    will won't can't
    """.split()
)

# Words a verb's object may start with (besides numbers, names and ids).
OBJECT_START = frozenset(
    """
    a an the my our your his her their its me us him them it this that these those last
    next all any some every each another both one two three four five six seven eight nine
    ten twenty fifty hundred today tomorrow tonight yesterday what whether how when where
    which who new whatever
    """.split()
)

# Particles between a verb and its object ("pull up the account"); per verb where it takes
# others than the generic ones.
GENERIC_PARTICLES = frozenset("up out off back down over".split())
PARTICLES = GENERIC_PARTICLES | frozenset("in on through into for to with about at".split())
VERB_PARTICLES: dict[str, frozenset[str]] = {
    "apply": frozenset({"for"}),
    "check": frozenset({"in", "on", "up", "out", "for", "whether", "if"}),
    "look": frozenset({"up", "into", "for", "at"}),
    "pay": frozenset({"for", "back", "off", "out"}),
    "register": frozenset({"for"}),
    "search": frozenset({"for"}),
    "sign": frozenset({"up", "off", "in", "for"}),
    "switch": frozenset({"to", "off", "on"}),
    "write": frozenset({"to", "up"}),
    "move": frozenset({"to"}),
}

# Phrases that ask for something whatever follows ("I need a hotel", "can you check…").
ASKING: tuple[tuple[str, ...], ...] = (
    ("i", "need"),
    ("i", "want"),
    ("i'd", "like"),
    ("i", "would", "like"),
    ("i'll", "need"),
    ("we", "need"),
    ("we", "want"),
    ("we'd", "like"),
    ("can", "you"),
    ("could", "you"),
    ("would", "you"),
    ("will", "you"),
    ("can", "we"),
    ("could", "we"),
    ("can", "i"),
    ("could", "i"),
    ("may", "i"),
    ("let's",),
    ("lets",),
)
# Words that mark a second sentence as another request rather than an elaboration.
ANOTHER = frozenset({"also", "too", "additionally", "another"})

QUESTION_START = frozenset(
    """
    what what's whats where where's when which who who's whose how how's is are was were do
    does did has have any
    """.split()
)

# Words that point back at an earlier sentence ("Approve it", "Give her a week").
BACK_REFERENCES = frozenset(
    """
    it its them they their theirs him his her hers that those these this there same such
    above former latter
    """.split()
)

# Words that may come before the verb of a request without changing it.
FILLERS = frozenset(
    """
    and then also please kindly so now first next finally lastly additionally afterwards just
    ok okay oh hi hello hey
    """.split()
)

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d[\w.,:/-]*|[^\sA-Za-z\d]")
# Longest joiners first, so ", and then " is one boundary, not three.
_BOUNDARY = re.compile(
    r"""
    (?P<sentence>(?<=[.!?])\s+|\s*;\s*|\s*\n+\s*)
    | (?P<joiner>
        ,?\s+and\s+then\s+
      | ,?\s+and\s+also\s+
      | ,?\s+and\s+after\s+that,?\s+
      | ,?\s+after\s+that,?\s+
      | ,?\s+and\s+
      | ,\s*then\s+
      | \s+then\s+
    )
    | (?P<comma>,\s+)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_JOINER_AT_START = re.compile(
    r"^(?:and\s+then|and\s+also|and\s+after\s+that,?|after\s+that,?|and|then|also)\s+",
    re.IGNORECASE,
)
# A part that depends on the outcome of the one before it is not a request of its own.
_CONDITIONAL = re.compile(
    r"\b(?:if\s+not|if\s+so|otherwise|in\s+that\s+case|if\s+(?:it|they|that)\b)", re.IGNORECASE
)


# "Book me a flight to Paris on Friday and a rental car there": a second thing booked for the
# place of the first ("there", "for it"), which the first part's verb books too. Only such
# bookings: "a flight and a hotel in Oslo" would leave the flight without its city.
_ANOTHER_BOOKING = re.compile(
    r"^(?:a|an|another)\s+(?:rental\s+car|hire\s+car|car|hotel(?:\s+room)?|room|taxi"
    r"|train(?:\s+ticket)?|flight|parking\s+space)\b"
    r".*\b(?:there|for\s+it|for\s+(?:the|that)\s+trip)\b",
    re.IGNORECASE,
)
# "... a flight to Lisbon on 14 December and a hotel for 3 nights": a booking that names no
# place of its own after one that goes to a place is for that place too.
_BOOKING_ALONE = re.compile(
    r"^(?:a|an|another)\s+(?:rental\s+car|hire\s+car|car|hotel(?:\s+room)?|room|taxi"
    r"|parking\s+space)\b(?!.*\b(?:in|at|near|to|from)\s+[A-Z])",
    re.IGNORECASE,
)
_GOES_TO_A_PLACE = re.compile(r"\b(?:to|in)\s+[A-Z][a-z]")
# How long a booking is ("for 3 nights", "for two days"), and a return said of a trip.
_LENGTH = re.compile(
    r"\bfor\s+(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?:nights?|days?|weeks?)\b",
    re.IGNORECASE,
)
_RETURN = re.compile(
    r"\b(?:back|return(?:ing)?|until|till|through)\b|\bto\s+(?:the\s+)?\d", re.IGNORECASE
)
_BOOKING_VERBS = frozenset({"book", "reserve", "get", "arrange", "rent", "find"})


def _booking_lead(text: str) -> str | None:
    """The verb a part books with, as written ("Book me", "reserve"), if it opens with one."""
    words = _skip_fillers(_words(text))
    if not words or words[0].lower() not in _BOOKING_VERBS:
        return None
    lead = words[:2] if len(words) > 1 and words[1].lower() in ("me", "us") else words[:1]
    return " ".join(lead)


@dataclass(frozen=True)
class _Piece:
    start: int
    end: int
    before: Boundary  # the kind of boundary this piece follows


def _words(text: str) -> list[str]:
    return [w.replace("’", "'") for w in _WORD.findall(text)]


def _lower(words: list[str]) -> list[str]:
    return [w.lower() for w in words]


def _skip_fillers(words: list[str]) -> list[str]:
    index = 0
    while index < len(words) and (words[index].lower() in FILLERS or words[index] == ","):
        index += 1
    return words[index:]


def _asks(lowered: list[str]) -> bool:
    """Starts with an asking phrase followed by more words ("I also need a…" counts)."""
    compact = [w for w in lowered if w not in ("also", "really", "just", "then", "too")]
    return any(
        tuple(compact[: len(phrase)]) == phrase and len(compact) > len(phrase) for phrase in ASKING
    )


def _is_object(word: str) -> bool:
    """Whether ``word`` can start a verb's object: a determiner, a number, a name, an id."""
    if word.lower() in OBJECT_START:
        return True
    if word[0].isdigit() or word[0] in "\"'“‘$€£#":
        return True
    return word[0].isupper() and word.lower() not in FILLERS


def _verb_with_object(words: list[str]) -> bool:
    """``words`` start with a lexicon verb, then its object (or a particle, then the object)."""
    if len(words) < 2:
        return False
    verb, second = words[0].lower(), words[1]
    if verb not in VERBS:
        return False
    if _is_object(second):
        return True
    if second.lower() in VERB_PARTICLES.get(verb, GENERIC_PARTICLES):
        return len(words) >= 3 and _is_object(words[2])
    return False


def _is_statement(words: list[str]) -> bool:
    """A noun-like verb that is the subject of a finite verb: "Order ORD-1 has shipped"."""
    if not words or words[0].lower() not in NOUN_LIKE:
        return False
    for word in _lower(words[1:]):
        if word in (",", "that", "which", "who", "if", "because", "when", "so"):
            return False
        if word in FINITE:
            return True
    return False


def _imperative(words: list[str]) -> bool:
    return _verb_with_object(words) and not _is_statement(words)


def opens_request(text: str, after: Boundary) -> bool:
    """Whether ``text``, which follows a boundary of kind ``after``, begins a request."""
    words = _skip_fillers(_words(text))
    if not words or _CONDITIONAL.search(text):
        return False
    lowered = _lower(_words(text))
    if after == "comma":
        # "start 3 June, give her a week": a comma clause that points back elaborates.
        return _imperative(words) and not BACK_REFERENCES & set(lowered)
    if after == "joiner":
        return _asks(_lower(words)) or _imperative(words)
    # After a sentence end: another request only when it neither asks about nor points back
    # at the sentence before, unless it says it is another one.
    another = bool(ANOTHER & set(lowered)) or "as well" in " ".join(lowered)
    if BACK_REFERENCES & set(lowered):
        return False
    if text.rstrip().endswith("?") and not another:
        return False
    return _imperative(words) or (another and _asks(_lower(words)))


def holds_request(text: str, before: Boundary) -> bool:
    """Whether ``text``, which precedes a boundary of kind ``before``, holds a request.

    A clause of it (the text, or a part after a comma) that starts, past fillers, with a
    lexicon verb and has words after it other than bare particles; or, except before a
    comma, an asking phrase; or, before a sentence end, a question.
    """
    clauses = re.split(r",\s*", text)
    if before == "comma":
        clauses = clauses[-1:]  # "X, do Y": only an imperative X is a request of its own
    for clause in clauses:
        words = _skip_fillers(_words(clause))
        if not words:
            continue
        lowered = _lower(words)
        if before != "comma" and _asks(lowered):
            return True
        if before == "sentence" and lowered[0] in QUESTION_START and len(words) > 2:
            return True
        if lowered[0] in VERBS and not _is_statement(words):
            if any(w not in PARTICLES and w.isalnum() for w in lowered[1:]):
                return True
    return False


def _pieces(text: str) -> list[_Piece]:
    pieces: list[_Piece] = []
    start: int = 0
    before: Boundary = "start"
    for match in _BOUNDARY.finditer(text):
        if match.start() == 0 or match.end() >= len(text):
            continue
        pieces.append(_Piece(start, match.start(), before))
        start, before = match.end(), cast(Boundary, match.lastgroup)
    pieces.append(_Piece(start, len(text), before))
    return pieces


def _tidy(part: str, *, first: bool) -> str:
    """The part without trailing separators; after the first, without its joiner, capitalised."""
    words = part.strip().strip(",;").strip()
    if first:
        return words
    words = _JOINER_AT_START.sub("", words)
    return words[:1].upper() + words[1:]


def split_request(text: str) -> list[str]:
    """The requests in ``text``, in order; one element when it is a single request.

    Input without words (blank, or only separators) gives ``[]``. Nothing else is ever
    lost: the parts hold every word of the text except the joiners between them (and a
    booking verb a part borrows is said again in it, as is the length of a stay the first
    booking of a trip takes from it).
    """
    stripped = text.strip()
    if not stripped:
        return []
    # (start, end) of each part in ``stripped``, the verb it borrows from the part before, and
    # the length it borrows from the part after
    spans: list[tuple[int, int, str, str]] = []
    for piece in _pieces(stripped):
        if not spans:
            spans.append((piece.start, piece.end, "", ""))
            continue
        current = stripped[spans[-1][0] : spans[-1][1]]
        following = stripped[piece.start : piece.end]
        fits = (
            len(spans) < MAX_PARTS
            and len(_tidy(following, first=False)) >= MIN_PART_CHARS
            and len(_tidy(current, first=True)) >= MIN_PART_CHARS
        )
        lead = _booking_lead(current) if piece.before == "joiner" else None
        if fits and opens_request(following, piece.before) and holds_request(current, piece.before):
            spans.append((piece.start, piece.end, "", ""))
        elif fits and lead and _another_booking(current, _tidy(following, first=True)):
            # "a flight to Lisbon on the 14th and a hotel for 3 nights": a trip of 3 nights.
            length = _LENGTH.search(following)
            if length and not _LENGTH.search(current) and not _RETURN.search(current):
                spans[-1] = (*spans[-1][:3], length.group(0))
            spans.append((piece.start, piece.end, lead, ""))
        else:
            spans[-1] = (spans[-1][0], piece.end, *spans[-1][2:])
    parts = (
        _lengthened(_borrowing(lead, _tidy(stripped[a:b], first=index == 0)), length)
        for index, (a, b, lead, length) in enumerate(spans)
    )
    return [part for part in parts if part]  # "," alone is no request at all


def _lengthened(part: str, length: str) -> str:
    """``part`` with the length of stay it borrows from the booking after it."""
    if not length or not part:
        return part
    return f"{part.rstrip('.!')} {length}"


def _another_booking(current: str, following: str) -> bool:
    """Whether ``following`` books another thing for the place of ``current``: it points
    back to it ("a rental car there"), or names no place while ``current`` goes to one ("a
    flight to Lisbon ... and a hotel for 3 nights"; "a flight and a hotel in Oslo" stays one)."""
    if _ANOTHER_BOOKING.match(following):
        return True
    return bool(_GOES_TO_A_PLACE.search(current)) and bool(_BOOKING_ALONE.match(following))


def _borrowing(lead: str, part: str) -> str:
    """``part`` with the verb it borrows ("Book me" + "a rental car there…")."""
    if not lead:
        return part
    return f"{lead[:1].upper()}{lead[1:]} {part[:1].lower()}{part[1:]}"
