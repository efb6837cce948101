"""Durations ("for three nights", "a week", "2 hours") and shifts of a saved date ("push back
by a week", "bring forward two days", "extend by two days", "leave a day later").

A duration becomes a shift when a moving word is near it in the same clause: "push", "move",
"postpone", "delay", "bring", "reschedule", "extend", "shorten", "add"... or a direction right
after it ("two days later", "a day early"). The sign: later, back, out, postpone, delay, extend,
more/extra are +; earlier, forward, up, sooner, shorten are -. What moves: "extend", "shorten",
"add", "return", "come back", "check out" move the end; "leave", "depart", "start", "arrive",
"check in" the start; anything else both ends.
"""

from __future__ import annotations

import re
from decimal import Decimal

from .facts import DurationFact, ShiftFact
from .numbers import NUMBER, parse_number
from .text import Analysis

_DURATION_RE = re.compile(
    rf"(?<![\w.,])(?P<n>{NUMBER}|half\s+an?|an?|a\s+couple\s+of|a\s+few)"
    r"(?:\s+(?P<more>more|extra|additional|fewer|less))?\s*[-\s]\s*"
    r"(?P<u>nights?|days?|weeks?|fortnights?|months?|years?|hours?|hrs?|minutes?|mins?"
    r"|business\s+days?|working\s+days?)\b"
    r"|(?<![\w.,])(?P<fortnight>a\s+fortnight)\b",
    re.IGNORECASE,
)
_UNIT_DAYS = {"night": 1, "day": 1, "week": 7, "fortnight": 14, "month": 30, "year": 365}
_UNIT_NAMES = {
    "hr": "hour",
    "min": "minute",
    "fortnight": "week",
    "business day": "day",
    "working day": "day",
}

_LATER = frozenset("later after back out postpone postponed postponing delay delayed".split())
_EARLIER = frozenset("earlier early sooner forward up ahead before".split())
_MOVERS = frozenset(
    """
    push pushed pushing move moved moving put postpone postponed postponing delay delayed
    delaying shift shifted shifting bump bumped reschedule rescheduled bring brought bringing
    advance
    """.split()
)
_LONGER = frozenset("extend extended extending lengthen prolong add adding".split())
_SHORTER = frozenset("shorten shortened shortening cut reduce".split())
_START_MOVERS = frozenset("leave leaving depart departing start starting arrive arriving".split())
_END_MOVERS = frozenset("return returning come coming fly flying get getting".split())
# Right after a duration only these say which way ("a day back" is a day off, not a move).
_DIRECTIONS_AFTER = frozenset({"later", "earlier", "early", "sooner", "late"})
_WORD_AFTER_RE = re.compile(r"\s+(\w+)")
_PLAIN_RE = re.compile(r"[a-z\s'’-]*")
_FEWER = frozenset({"fewer", "less"})
# The end of a price ("150 EUR", "€150", "150 euros") right before "a night", "a day".
_AFTER_PRICE = re.compile(
    r"(?:\b[A-Z]{3}|[€$£¥]\s?\d[\d.,]*|\d[\d.,]*\s?(?:[€$£¥]|euros?|dollars?|pounds?))\s*$"
)


# A slip right before a length of time: "slipped by a week", "slips two days" (not "slipped a
# disc, need 3 days off").
_SLIPPED = re.compile(r"\bsli(?:p|ps|pped|pping|d)\s+(?:by\s+)?$", re.IGNORECASE)

# "Make it the week after", "the day before": a move of a saved date by one unit (a date of
# its own, "the day after tomorrow", was read before and is not free any more).
_ONE_AFTER_RE = re.compile(r"\bthe\s+(?P<u>day|week|month)\s+(?P<way>after|before)\b(?!\s+\w)")


def find_durations(analysis: Analysis) -> tuple[list[DurationFact], list[ShiftFact]]:
    text = analysis.text
    durations: list[DurationFact] = []
    shifts: list[ShiftFact] = []
    for m in _ONE_AFTER_RE.finditer(text.lower()):
        if not analysis.is_free(m.start(), m.end()):
            continue
        days = _days(Decimal(1), m.group("u"))
        if days:
            sign = 1 if m.group("way") == "after" else -1
            analysis.claim(*m.span())
            shifts.append(ShiftFact(sign * days, "both", text[m.start() : m.end()], m.span()))
    for m in _DURATION_RE.finditer(text):
        if not analysis.is_free(m.start(), m.end()):
            continue
        if m.group("fortnight"):
            amount: Decimal | None = Decimal(2)
            unit = "week"
        else:
            amount = _amount(m.group("n"))
            unit = " ".join(m.group("u").lower().split())
            unit = "hr" if unit == "hrs" else unit.rstrip("s")
            if unit == "fortnight" and amount is not None:
                amount *= 2  # "two fortnights" is four weeks
            unit = _UNIT_NAMES.get(unit, unit)
        if amount is None:
            continue
        if (
            m.group("n")
            and m.group("n").lower() in ("a", "an")
            and _AFTER_PRICE.search(text[: m.start()])
        ):
            continue  # "150 EUR a night" is a rate, not a stay of one night
        days = _days(amount, unit)
        if days and _SLIPPED.search(text[: m.start()]):
            # "Kickoff slipped by a week": everything moves that much later.
            start = _SLIPPED.search(text[: m.start()]).start()  # type: ignore[union-attr]
            shifts.append(ShiftFact(days, "both", text[start : m.end()], (start, m.end())))
            analysis.claim(start, m.end())
            continue
        shift = _shift(analysis, m, days)
        if shift is not None:
            shifts.append(shift)
            analysis.claim(*shift.span)
            continue
        analysis.claim(m.start(), m.end())
        durations.append(DurationFact(float(amount), unit, days, m.group(), m.span()))
    return durations, shifts


def _amount(text: str) -> Decimal | None:
    lowered = " ".join(text.lower().split())
    if lowered in ("a", "an"):
        return Decimal(1)
    if lowered.startswith("half"):
        return Decimal("0.5")
    if lowered == "a couple of":
        return Decimal(2)
    if lowered == "a few":
        return None
    return parse_number(text)


def _days(amount: Decimal, unit: str) -> int | None:
    if unit not in _UNIT_DAYS:
        return None
    days = amount * _UNIT_DAYS[unit]
    return int(days) if days == days.to_integral_value() else None


def _shift(analysis: Analysis, m: re.Match[str], days: int | None) -> ShiftFact | None:
    """The duration as a change of a saved date, or None when nothing moves."""
    if not days:
        return None
    text = analysis.text
    before = analysis.words_before(m.start(), 7)
    folded = [w.folded for w in before]
    after = _WORD_AFTER_RE.match(text, m.end())
    direction = after.group(1).lower() if after else ""
    direction = direction if direction in _DIRECTIONS_AFTER else ""
    more = (m.group("more") or "").lower()
    # The verb that moves: "extend"/"shorten" win over a later "stay" ("extend my stay by").
    mover = next((w for w in reversed(folded) if w in _LONGER | _SHORTER), None) or next(
        (w for w in reversed(folded) if w in _MOVERS | _START_MOVERS | _END_MOVERS or w == "check"),
        None,
    )
    if folded and folded[-1] == "for" and not direction:
        return None  # "for two days" is how long
    if mover is None and not direction and not more:
        return None
    if mover in _START_MOVERS | _END_MOVERS | {"check"} and not direction and not more:
        return None  # "leave for two days", "fly back in two days" say nothing of a change
    after_mover = folded[folded.index(mover) + 1 :] if mover else folded
    if more in _FEWER or mover in _SHORTER:
        sign = -1
    elif direction in _EARLIER or any(w in _EARLIER for w in after_mover) and direction != "later":
        sign = -1
    elif mover in ("bring", "brought", "bringing", "advance") and direction not in _LATER:
        sign = -1
    else:
        sign = 1
    if more or mover in _LONGER | _SHORTER:
        applies_to = "end"
    elif mover in _START_MOVERS or mover == "check" and "in" in after_mover:
        applies_to = "start"
    elif mover in _END_MOVERS or mover == "check":
        applies_to = "end"
    else:
        applies_to = "both"
    start = m.start()
    if mover is not None:
        mover_start = next(w.start for w in reversed(before) if w.folded == mover)
        # From the verb when only plain words stand between ("push it back by"), so that the
        # shift never covers a place or a name ("push the Lisbon trip back by a week").
        between = text[mover_start : m.start()]
        if _PLAIN_RE.fullmatch(between) and analysis.is_free(mover_start, m.start()):
            start = mover_start
    end = after.end() if after and direction else m.end()
    return ShiftFact(sign * days, applies_to, text[start:end], (start, end))
