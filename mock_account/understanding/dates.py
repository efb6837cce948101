"""Dates, date ranges and clock times, relative to a given *today*.

How it works: one regular expression finds the candidate phrases ("next Tuesday", "7 December",
"14-16 December", "next week", "in March"), tried only from the few words before an anchor word
(a digit, a month or weekday name, "tomorrow", "week"...), so text without one costs a scan of
its words and nothing more. Absolute phrases are parsed by python-dateutil (month names and their
abbreviations, ordinals, numeric day-first and ISO forms) after a light clean-up; relative ones
("tomorrow", "next Tuesday", "in 3 days") are computed with dateutil's relativedelta. A second
pass joins neighbouring phrases into ranges ("from X to Y", "between X and Y", "three nights from
X", "X for two days", "leaving X ... returning Y").

dateparser was the first choice. It reads these phrases too (not all the same way: "next
Tuesday" is tomorrow's Tuesday for it, "a week from today" goes back a week, "the 4th" is in the
past), but it costs a median of 550-750 µs a phrase warm, 5 ms at p99, against about 45 µs for
this whole date pass: its cost alone would be the budget of an agent run. `python -m
mock_account.understanding.bench --dateparser` prints the comparison on the benchmark corpus.

Rules, with *today* 2026-11-30 (a Monday):

- A date without a year is the next one on or after today ("7 December" -> 2026-12-07,
  "January 5" -> 2027-01-05, "30 November" -> today), or the last one on or before today when the
  phrase points back ("last", "ago", "yesterday") or the clause is in the past tense ("I flew out
  on Sunday", "the taxi I took on 3 November").
- "Tuesday", "on Tuesday", "this coming Tuesday": the first Tuesday after today (2026-12-01);
  "this Tuesday": the Tuesday of this week, or of next week once passed; "next Tuesday": the
  Tuesday of next week (2026-12-08); "last Friday": the last Friday before today (2026-11-27);
  "Tuesday next week", "Tuesday after next".
- "next week", "this week", "last week": Monday to Friday of that week; "this weekend", "next
  weekend" (the one of next week), "last weekend": Saturday and Sunday; "next month", "in March"
  (the next March that has not ended, or the last one in the past), "Q3 2026", "next quarter",
  "Q3" alone (the last Q3 that has begun, since quarters are mostly reported on).
- Ranges keep both ends: "14-16 December" -> 14..16; "three nights from 9 December" -> 9..12 (the
  end is the check-out day); "for two days from Thursday" and "for a week from Monday" count days
  inclusively (Thu..Fri, Mon..Sun); "two days from now" and "a week from Monday" are single days.
- "tomorrow morning", "Monday afternoon", "tonight": the day with a part of day; "tomorrow at
  3pm", "Friday 10:30": the day with a time. A time with no day ("at 3pm") is a `TimeFact`.
- A day's role: "from/starting/leaving X" start, "until/returning X" end, "by/before X" deadline.
"""

from __future__ import annotations

import calendar
import datetime as dt
import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

from dateutil import parser as date_parser
from dateutil.relativedelta import relativedelta

from .facts import DateFact, DateRangeFact, TimeFact
from .lexicon import PAST_BREAKERS, PAST_VERBS
from .numbers import NUMBER, parse_number
from .text import Analysis

_MONTH = (
    r"(?:(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december)\b|(?:sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)(?:\.|\b))"
)
_MONTH_FULL = (
    r"(?-i:January|February|March|April|May|June|July|August|September|October|November"
    r"|December)\b"
)
# A day of the month; not the hour of "May 3pm" or "at 3:30".
_DAY = r"(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?(?!\d)(?!\s*(?:[ap]\.?m\b|[:h]\d))"
_ORDINAL_DAY = r"(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)(?!\w)"
_YEAR = r"(?:19|20)\d\d(?!\d)"
_WEEKDAY = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)s?\b"
)
_SEP = r"\s*(?:-|–|—|to|until|till|through|thru)\s*(?:the\s+)?"
# Right after a weekday's name or short name (each look-behind has a width of its own).
_AFTER_WEEKDAY = "|".join(
    f"(?<=\\b{w}\\s)"
    for w in ("day", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun")
)
_UNIT = r"(?:days?|weeks?|months?|years?|fortnights?)"
_PART = r"(?:morning|afternoon|evening|night)"

WEEKDAY_NUMBERS = {
    "mon": 0,
    "tue": 1,
    "wed": 2,
    "thu": 3,
    "fri": 4,
    "sat": 5,
    "sun": 6,
}
MONTH_NUMBERS = {name[:3].lower(): i for i, name in enumerate(calendar.month_name) if name}

_ATOM_RE = re.compile(
    "|".join(
        [
            # "14-16 December", "the 4th to the 6th of June", "4 to 6 June 2027"
            rf"(?P<r1>(?:the\s+)?(?P<r1a>{_DAY}){_SEP}(?P<r1b>{_DAY})(?:\s+of)?\s+(?P<r1m>{_MONTH})"
            rf"(?:,?\s*(?P<r1y>{_YEAR}))?)",
            # "between 3 and 5 December"
            rf"(?P<r3>between\s+(?:the\s+)?(?P<r3a>{_DAY})\s+and\s+(?:the\s+)?(?P<r3b>{_DAY})"
            rf"(?:\s+of)?\s+(?P<r3m>{_MONTH})(?:,?\s*(?P<r3y>{_YEAR}))?)",
            # "10 and 11 December", "the 9th, 10th and 11th of June": days in a row
            rf"(?P<r4>(?:the\s+)?(?P<r4a>{_DAY})(?P<r4mid>(?:\s*,\s*(?:the\s+)?{_DAY})*)"
            rf"\s*,?\s+and\s+(?:the\s+)?(?P<r4b>{_DAY})(?:\s+of)?\s+(?P<r4m>{_MONTH})"
            rf"(?:,?\s*(?P<r4y>{_YEAR}))?)",
            # "December 7-9", "Dec 7th to 9th, 2027"
            rf"(?P<r2>(?P<r2m>{_MONTH})\s*(?:the\s+)?(?P<r2a>{_DAY}){_SEP}(?P<r2b>{_DAY})"
            rf"(?:,?\s*(?P<r2y>{_YEAR}))?)",
            # "7 December", "the 4th of June 2027", "Monday 7 December"
            rf"(?P<a1>(?:the\s+)?(?P<a1d>{_DAY})(?:\s+of)?\s*(?P<a1m>{_MONTH})"
            rf"(?:,?\s*(?P<a1y>{_YEAR}))?)",
            # "December 7", "Dec. 7th, 2027"
            rf"(?P<a2>(?P<a2m>{_MONTH})\s*(?:the\s+)?(?P<a2d>{_DAY})(?:,?\s*(?P<a2y>{_YEAR}))?)",
            # "2026-12-07"
            r"(?P<iso>(?<![\d-])(?:19|20)\d\d-[01]\d-[0-3]\d(?![\d-]))",
            # "07/12/2026", "7.12.26" (day first)
            r"(?P<num>(?<![\d/.])[0-3]?\d[/.][01]?\d[/.](?:\d\d)?\d\d(?![\d/.]))",
            # "out on 18/12, back on 22/12": day first, the year to be found (after a word
            # that introduces a day: "1/2" alone may be a half)
            r"(?P<dm>(?:on|by|from|until|till|to|due|before|after|and|through)\s+(?:the\s+)?"
            r"(?P<dmd>3[01]|[12]\d|0?[1-9])/(?P<dmm>1[0-2]|0?[1-9])(?![\d/%]|\.\d))",
            # "the day after tomorrow", "tomorrow morning", "tonight"
            rf"(?P<rel>(?:the\s+)?day\s+after\s+tomorrow|(?:the\s+)?day\s+before\s+yesterday"
            rf"|today|tonight|tomorrow|yesterday|last\s+night|this\s+(?={_PART}))",
            # "the first Monday of January", "last Friday of the month"
            rf"(?P<nth>(?:the\s+)?(?P<nthn>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+"
            rf"(?P<nthw>{_WEEKDAY})\s+(?:of|in)\s+(?:(?P<nthm>{_MONTH_FULL})|the\s+month\b)"
            rf"(?:,?\s*(?P<nthy>{_YEAR}))?)",
            # "next Tuesday", "Tuesday next week", "last Friday", "Tuesday after next"
            # ("Black Friday", "Cyber Monday", "Good Friday" are days of their own names)
            rf"(?P<wd>(?<!black\s)(?<!cyber\s)(?<!good\s)"
            rf"(?:(?P<wdq>next|this\s+coming|this|coming|last|past|previous|on)\s+)?"
            rf"(?P<wdn>{_WEEKDAY})(?:\s+(?:of\s+)?(?P<wdw>next|this|last)\s+week\b"
            r"|\s+(?P<wdan>after\s+next)\b)?)",
            # "in 3 days", "two weeks ago", "a week from today"
            # ("check in a day later" is a shift, not "in a day")
            rf"(?P<off>(?:(?<!check\s)(?<!checking\s)(?P<offin>in|within)\s+"
            rf"(?P<offn1>{NUMBER}|a|an)\s+(?P<offu1>{_UNIT})(?:'s)?(?:\s+time)?"
            r"(?!\s+(?:later|earlier|early|sooner|late)\b)"
            rf"|(?P<offn2>{NUMBER}|a|an)\s+(?P<offu2>{_UNIT})\s+"
            r"(?P<offd>ago|from\s+now|from\s+today|from\s+tomorrow|hence"
            # "we have 14 days to respond": the day it is due
            r"|to(?=\s+(?:respond|reply|answer|pay|comply|object|appeal|decide|sign|file|submit"
            r"|deliver|complete|cure|fix)\b))))",
            # "next week", "last week's", "the week after next", "this weekend", "next month"
            r"(?P<per>(?:(?P<perq>next|this|last|past|previous|coming|following)\s+"
            r"(?P<peru>week|weekend|month|year|quarter)"
            r"|the\s+(?P<peru2>week|weekend)\s+after\s+next"
            r"|(?:over\s+|at\s+)?the\s+(?P<peru3>weekend)(?!\s+of\b))(?:['’]s)?\b)",
            # "from March to May", "March-May 2027"
            rf"(?P<mr>(?:from\s+)?(?P<mra>{_MONTH_FULL})\s*(?:-|–|to|until|till|through)\s*"
            rf"(?P<mrb>{_MONTH_FULL})(?:,?\s+(?P<mry>{_YEAR}))?)",
            # "in March", "March 2027", "next March"
            rf"(?P<mon>(?:(?P<monq>in|during|for|until|till|by|from|since|through|throughout"
            rf"|over|early|mid|late|end\s+of|next|last|this)\s+(?:mid-)?)?(?P<monn>{_MONTH})"
            r"(?!\s*(?:the\s+)?(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?\b(?!\d))"
            rf"(?:,?\s+(?P<mony>{_YEAR}))?)",
            # "Q3 2026", "Q1", "the third quarter of 2026"
            rf"(?P<q>\bQ(?P<qn>[1-4])(?:\s*(?P<qy>{_YEAR})|\s*['’](?P<qy2>\d\d))?\b"
            r"|(?P<qw>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter"
            rf"(?:\s+of\s+(?P<qwy>{_YEAR}))?)",
            # "the 4th", "on the 21st" (a day of a month to be found)
            # ("the 19th and 20th", "the 3rd to 5th": the second day is one too)
            # ("Wed 16th": after a weekday, the day it confirms)
            rf"(?P<dom>(?:the\s+|(?<=\band\s)|(?<=\bto\s)|{_AFTER_WEEKDAY})"
            rf"(?P<domd>{_ORDINAL_DAY}))",
            # "end of the month", "end of next week"
            r"(?P<eom>(?:the\s+)?end\s+of\s+(?:the|this)\s+(?P<eomu>month|week|year))",
        ]
    ),
    re.IGNORECASE,
)

# A word that every date phrase contains: a digit, a month or weekday, a relative day, a unit of
# the calendar. The big pattern is only tried from the few words before such a word, rather than
# at every character (a quarter of the time of a request otherwise).
_ANCHOR_RE = re.compile(
    r"\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|today"
    r"|tonight|tomorrow|yesterday|week|month|year|quarter|q[1-4]$|day|night|fortnight|morning"
    r"|afternoon|evening|end$"
)
# How many words a phrase may have before its first anchor ("the day after tomorrow", "in
# twenty five days", "from the 4th").
_WORDS_BEFORE_ANCHOR = 4
_TIME_ANCHOR_RE = re.compile(r"\d|noon|midday|midnight", re.IGNORECASE)

_TIME_RE = re.compile(
    r"(?P<time>(?:(?:at|@|by|from|around)\s*)?(?:"
    r"(?P<h12>1[0-2]|0?[1-9])(?:[:.](?P<m12>[0-5]\d))?\s*(?P<ampm>[ap]\.?m\.?)(?![a-z])"
    r"|(?<![\d:.])(?P<h24>[01]?\d|2[0-3])[:h](?P<m24>[0-5]\d)(?![\d:])"
    r"|(?P<word>noon|midday|midnight)"
    r"|(?P<hoc>1[0-2]|0?[1-9])\s+o['’]clock))",
    re.IGNORECASE,
)

# What a day becomes from the words just before it.
_ROLE_BEFORE_RE = re.compile(
    r"(?:\b(?P<start>from|starting(?:\s+on|\s+from)?|beginning|leaving(?:\s+on)?"
    r"|starts(?:\s+on)?|begins(?:\s+on)?|joins(?:\s+us)?(?:\s+on)?|joining(?:\s+on)?"
    r"|departing(?:\s+on)?|depart(?:ure)?(?:\s+on)?|out(?:bound)?(?:\s+on)?"
    r"|check(?:ing)?[\s-]in(?:\s+on)?"
    r"|arriv(?:e|ing|al)(?:\s+on)?|as\s+of|effective)"
    r"|\b(?P<end>until|till|til|up\s+to|through|thru|returning(?:\s+on)?|return(?:\s+on)?"
    r"|back(?:\s+on)?|coming\s+back(?:\s+on)?|flying\s+back(?:\s+on)?"
    r"|check(?:ing)?[\s-]out(?:\s+on)?"
    r"|ending(?:\s+on)?|inbound(?:\s+on)?)"
    r"|\b(?P<deadline>by|before|no\s+later\s+than|due(?:\s+on|\s+by)?|deadline(?:\s+is)?"
    r"|latest(?:\s+by)?))"
    r"(?:\s+(?:on|the))?\s*$",
    re.IGNORECASE,
)
_RANGE_GAP_RE = re.compile(
    r"^\s*(?:-|–|—|to|until|till|through|thru|up\s+to|and)\s*(?:on\s+)?$", re.IGNORECASE
)
_WEEK_OF = re.compile(
    r"\b(?:the\s+)?week\s+(?P<how>of|starting|beginning|commencing)(?:\s+on)?\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_RANGE_LEAD_RE = re.compile(r"\b(?P<lead>from|between|starting|beginning)\s+(?:on\s+)?$", re.I)
# "three nights from", "for two days starting" right before a day.
_COUNT_BEFORE_RE = re.compile(
    rf"(?:\b(?P<for>for)\s+)?(?P<n>\b{NUMBER}|\ban?\b|\bone\b)\s+(?P<u>nights?|days?|weeks?)"
    r"\s+(?P<how>from|starting(?:\s+on|\s+from)?|beginning(?:\s+on)?|as\s+of)\s+(?:on\s+)?$",
    re.IGNORECASE,
)
# "9 December for three nights", "from Monday, two nights" right after a day.
_COUNT_AFTER_RE = re.compile(
    rf"\s*,?\s*(?:(?P<for>for)\s+)?(?P<n>{NUMBER}\b|an?\b)\s+(?P<u>nights?|days?|weeks?)\b",
    re.IGNORECASE,
)
_PART_AFTER_RE = re.compile(rf"\s*(?:in\s+the\s+|at\s+)?(?P<part>{_PART})\b", re.IGNORECASE)
_PLAIN_GAP_RE = re.compile(r"[a-z\s,;'’-]*")
_TIME_GAP_RE = re.compile(r"^\s*(?:,|at|@|from|around|by|on)?\s*$", re.IGNORECASE)
_NOT_DAY_AFTER_RE = re.compile(
    r"^\s*(?:floor|place|row|line|item|edition|century|time|attempt|version|option|anniversary)\b",
    re.IGNORECASE,
)


@dataclass(slots=True)
class _Atom:
    """One date phrase before the context decides what it means."""

    start: int
    end: int
    # day: one day | range: a span on its own ("next week", "14-16 December", "in March") |
    # partial: a day of a month not given ("the 4th")
    kind: str
    first: dt.date | None = None  # set when the phrase alone says which days
    last: dt.date | None = None
    day: int | None = None  # an absolute day whose year (or month) is still open
    month: int | None = None
    year: int | None = None
    end_day: int | None = None  # second day of a compact range ("14-16 December")
    end_month: int | None = None  # last month of a month range ("from March to May")
    weekday: int | None = None  # a bare weekday ("on Tuesday"), tense still open
    weekday_said: int | None = None  # the weekday said before the date ("Fri 18 Dec")
    week_named: bool = False  # a weekday of a week the phrase names ("Thursday next week")
    period: str = "dates"  # the DateRangeFact kind for range atoms
    part_of_day: str | None = None
    time: dt.time | None = None
    role: str | None = None


@dataclass(slots=True)
class DateResult:
    dates: list[DateFact]
    ranges: list[DateRangeFact]
    times: list[TimeFact]


def find_dates(analysis: Analysis, today: dt.date) -> DateResult:
    text = analysis.text
    result = DateResult([], [], [])
    # "between 2 and 4 pm": the first hour is no day of the month; nor is "after 5".
    hours = _hours(analysis) if _TIME_ANCHOR_RE.search(text) else []
    hours += [h for h in _bare_hours(analysis) if all(h.span != t.span for t in hours)]
    for hour in hours:
        analysis.claim(*hour.span)
    atoms = _atoms(analysis, today)
    times = hours + [
        t
        for t in _times(analysis)
        if not any(t.span[0] < a.end and a.start < t.span[1] for a in atoms)
    ]
    _attach_times(text, atoms, times)
    used: set[int] = set()
    # Pass 1: two neighbouring phrases joined into a range ("from X to Y").
    for a, b in zip(atoms, atoms[1:], strict=False):
        if id(a) in used or id(b) in used:
            continue
        joined = _join(analysis, today, a, b)
        if joined is not None:
            result.ranges.append(joined)
            used.update((id(a), id(b)))
    # Pass 2: a day with a count ("three nights from 9 December", "9 December for 2 nights");
    # the words of a count serve one day only.
    taken = [r.span for r in result.ranges] + [(a.start, a.end) for a in atoms]
    for atom in atoms:
        if id(atom) not in used:
            counted = _counted(analysis, today, atom, taken)
            if counted is not None:
                result.ranges.append(counted)
                taken.append(counted.span)
                used.add(id(atom))
    # Pass 3: the rest stands alone. A day that ends something and names no month or week
    # ("back on the 5th", "through Friday") counts from the day stated before it.
    singles: list[tuple[_Atom, DateFact]] = []
    for atom in atoms:
        if id(atom) in used:
            continue
        # A day something is due by is ahead, whatever tense the clause is in ("chairs
        # delivered by 26 February").
        due = (atom.role or _role(text, atom.start)) == "deadline" and bool(
            _BY_RE.search(text, max(0, atom.start - 25), atom.start)
        )
        first, last = _resolve(analysis, today, atom, False if due else None)
        if first is None or last is None:
            continue
        span = (atom.start, atom.end)
        said = text[atom.start : atom.end]
        if atom.kind == "range":
            result.ranges.append(DateRangeFact(first, last, said, span, atom.period))
            continue
        week = _WEEK_OF.search(text, max(0, atom.start - 40), atom.start)
        if week is not None and atom.kind in ("day", "partial"):
            # "the week of 21 December": its working days, Monday to Friday (it was the 21st);
            # "the week starting 9 December": five days from then.
            if week.group("how").lower() == "of":
                first = first - dt.timedelta(days=first.weekday())
            span = (week.start(), atom.end)
            result.ranges.append(
                DateRangeFact(first, first + dt.timedelta(days=4), text[span[0] : span[1]], span)
            )
            continue
        role = atom.role or _role(text, atom.start)
        if role == "end" and (atom.kind == "partial" or atom.weekday is not None):
            before = _last_day_before(atom.start, singles, result.ranges)
            if before is not None:
                first = _range_end(atom, before) or first
        singles.append((atom, DateFact(first, said, span, atom.part_of_day, atom.time, role)))
    # "leaving Monday ... returning Thursday", "on 3 March, back on the 5th": a start (or the
    # only day before an end) and an end make a range.
    ends = [pair for pair in singles if pair[1].role == "end"]
    starts = [pair for pair in singles if pair[1].role == "start"]
    if len(ends) == 1 and not starts:
        starts = [
            pair for pair in singles if pair[1].role is None and pair[0].end <= ends[0][0].start
        ]
    if len(starts) == 1 and len(ends) == 1 and not result.ranges:
        (sa, sf), (ea, ef) = starts[0], ends[0]
        end_date = ef.date if ea.first is not None else _range_end(ea, sf.date)
        # Only across a few plain words (", returning", "and back on"), so that the range never
        # swallows another fact ("leaving Chicago on 7 December, arriving in Lisbon on ...").
        gap = text[sa.end : ea.start]
        if (
            sa.start < ea.start
            and end_date is not None
            and sf.date <= end_date
            and len(gap) <= 40
            and _PLAIN_GAP_RE.fullmatch(gap)
            and analysis.is_free(sa.end, ea.start)
        ):
            span = (sa.start, ea.end)
            result.ranges.append(DateRangeFact(sf.date, end_date, text[span[0] : span[1]], span))
            singles = [pair for pair in singles if pair[0] is not sa and pair[0] is not ea]
    result.dates = [fact for _, fact in singles]
    result.ranges.sort(key=lambda f: f.span)
    for day in result.dates:
        analysis.claim(*day.span)
    for days in result.ranges:
        analysis.claim(*days.span)
    # The first end of a span of hours was claimed when read, before the days.
    result.times = [t for t in times if t in hours or analysis.is_free(*t.span)]
    for t in result.times:
        analysis.claim(*t.span)
    return result


def _last_day_before(
    pos: int, singles: list[tuple[_Atom, DateFact]], ranges: list[DateRangeFact]
) -> dt.date | None:
    """The day stated last before `pos`: a single day, or the start of a range."""
    found = [(f.span[1], f.date) for _, f in singles if f.span[1] <= pos]
    found += [(r.span[1], r.start) for r in ranges if r.span[1] <= pos]
    return max(found)[1] if found else None


# -- atoms -----------------------------------------------------------------------------------


def _atom_matches(analysis: Analysis) -> list[re.Match[str]]:
    """The date phrases, leftmost first, as `_ATOM_RE.finditer` would find them, but trying
    the pattern only at the starts of the words shortly before an anchor word."""
    words = analysis.words
    starts: set[int] = set()
    for k, w in enumerate(words):
        if _ANCHOR_RE.match(w.folded):
            for j in range(max(0, k - _WORDS_BEFORE_ANCHOR), k + 1):
                starts.add(words[j].start)
    out: list[re.Match[str]] = []
    reached = 0
    for pos in sorted(starts):
        if pos < reached:
            continue
        m = _ATOM_RE.match(analysis.text, pos)
        if m is not None and m.end() > m.start():
            out.append(m)
            reached = m.end()
    return out


def _atoms(analysis: Analysis, today: dt.date) -> list[_Atom]:
    text = analysis.text
    atoms: list[_Atom] = []
    for m in _atom_matches(analysis):
        if not analysis.is_free(m.start(), m.end()):
            continue
        atom = _atom(m, today)
        if atom is None and m.lastgroup == "r1" and _crosses_a_month(m):
            # "the 26th to 1 January": the 26th of the month before, then the day named; read
            # as two days, which the range pass joins.
            atoms.append(
                _Atom(
                    m.start(),
                    m.start("r1a") + len(m.group("r1a")),
                    "partial",
                    day=_day_number(m.group("r1a")),
                )
            )
            month = _month_number(m.group("r1m"))
            year = m.group("r1y")
            atoms.append(
                _Atom(
                    m.start("r1b"),
                    m.end(),
                    "day",
                    day=_day_number(m.group("r1b")),
                    month=month,
                    year=int(year) if year else None,
                )
            )
            continue
        if atom is None and m.lastgroup == "r4":
            # Days not in a row ("3 and 5 December"): the day that names the month stands.
            last = _ATOM_RE.match(text, m.start("r4b"))
            atom = _atom(last, today) if last is not None else None
        if atom is None:
            continue
        if atom.kind != "range" and atom.part_of_day is None:
            part = _PART_AFTER_RE.match(text, atom.end)
            if part:
                atom.part_of_day = part.group("part").lower()
                atom.end = part.end()
        # "Monday 7 December", "Tue, 8 Dec": the weekday only confirms the date after it.
        # "Friday the 9th" too: the day of the month wins over the weekday.
        if atoms and atoms[-1].weekday is not None and (atom.month or atom.kind == "partial"):
            if re.fullmatch(r"[\s,]*", text[atoms[-1].end : atom.start]):
                said = atoms.pop()
                atom.start, atom.weekday_said = said.start, said.weekday
        atoms.append(atom)
    return atoms


# A day something must be done by: ahead, whatever tense the clause is in ("delivered by 26
# February"); "was due on 30 November" is a day that passed.
_BY_RE = re.compile(r"\b(?:by|before|no\s+later\s+than)\s+(?:the\s+)?$", re.IGNORECASE)


def _crosses_a_month(m: re.Match[str]) -> bool:
    """Whether a range of days said with one month ends before it starts: it starts in the
    month before ("from the 26th to 1 January")."""
    first, last = _day_number(m.group("r1a")), _day_number(m.group("r1b"))
    return last < first and _month_number(m.group("r1m")) is not None


def _atom(m: re.Match[str], today: dt.date) -> _Atom | None:
    group = m.lastgroup
    start, end = m.span()
    if group in ("r1", "r2", "r3", "r4"):
        name = m.group(f"{group}m")
        month = _month_number(name)
        if month is None or not _month_ok(name, with_day=True):
            return None
        year = m.group(f"{group}y")
        first_day, last_day = _day_number(m.group(f"{group}a")), _day_number(m.group(f"{group}b"))
        if last_day < first_day or (group == "r4" and not _in_a_row(m, first_day, last_day)):
            return None
        return _Atom(
            start,
            end,
            "range",
            day=first_day,
            month=month,
            year=int(year) if year else None,
            end_day=last_day,
        )
    if group in ("a1", "a2"):
        if not _month_ok(m.group(f"{group}m"), with_day=True):
            return None
        parsed = _parse_absolute(_clean_absolute(m.group(group)))
        if parsed is None:
            return None
        year = m.group(f"{group}y")
        return _Atom(
            start, end, "day", day=parsed[0], month=parsed[1], year=int(year) if year else None
        )
    if group == "iso":
        try:
            value = dt.date.fromisoformat(m.group())
        except ValueError:
            return None
        return _Atom(start, end, "day", value, value)
    if group == "num":
        return _numeric(start, end, m.group())
    if group == "dm":
        day, month = int(m.group("dmd")), int(m.group("dmm"))
        if day > calendar.monthrange(today.year, month)[1]:
            return None
        return _Atom(m.start("dmd"), end, "day", day=day, month=month)
    if group == "rel":
        return _relative(start, end, m.group(), today)
    if group == "wd":
        return _weekday_atom(m, today)
    if group == "nth":
        return _nth_weekday(m, today)
    if group == "off":
        return _offset(m, today)
    if group == "per":
        return _period(m, today)
    if group == "mon":
        return _month_atom(m, today)
    if group == "mr":
        first_month, last_month = _month_number(m.group("mra")), _month_number(m.group("mrb"))
        year = int(m.group("mry")) if m.group("mry") else None
        if first_month is None or last_month is None:
            return None
        if year is not None and last_month < first_month:
            year -= 1  # "November to February 2027" starts in 2026
        return _Atom(
            start, end, "range", month=first_month, year=year, end_month=last_month, period="month"
        )
    if group == "q":
        return _quarter(m, today)
    if group == "dom":
        if _NOT_DAY_AFTER_RE.match(m.string[end:]):
            return None
        return _Atom(start, end, "partial", day=_day_number(m.group("domd")))
    if group == "eom":
        unit = m.group("eomu").lower()
        if unit == "month":
            value = today.replace(day=calendar.monthrange(today.year, today.month)[1])
        elif unit == "year":
            value = dt.date(today.year, 12, 31)
        else:  # the Friday of this week, or of next week once passed
            value = today + dt.timedelta(days=(4 - today.weekday()) % 7)
        return _Atom(start, end, "day", value, value, role="deadline")
    return None


def _in_a_row(m: re.Match[str], first_day: int, last_day: int) -> bool:
    """Whether the days listed with "and" ("10 and 11 December", "the 9th, 10th and 11th")
    follow each other: days apart ("3 and 5 December") are no range, and read as before (the
    day that names the month)."""
    middle = re.findall(_DAY, re.sub(r"\bthe\b", " ", m.group("r4mid")))
    days = [first_day, *map(_day_number, middle), last_day]
    return all(b - a == 1 for a, b in itertools.pairwise(days))


def _numeric(start: int, end: int, text: str) -> _Atom | None:
    """ "07/12/2026", "7.12.26": day first, as written outside the United States."""
    try:
        value = date_parser.parse(text, dayfirst=True).date()
    except (ValueError, OverflowError):
        return None
    return _Atom(start, end, "day", value, value)


def _relative(start: int, end: int, text: str, today: dt.date) -> _Atom | None:
    words = text.lower().split()
    if words[0] == "this":  # "this morning": the part of day follows
        return _Atom(start, end, "day", today, today)
    if words == ["last", "night"]:
        value = today - dt.timedelta(days=1)
        return _Atom(start, end, "day", value, value, part_of_day="night")
    offset = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}[words[-1]]
    if "after" in words:
        offset = 2
    elif "before" in words:
        offset = -2
    value = today + dt.timedelta(days=offset)
    part = "night" if words[-1] == "tonight" else None
    return _Atom(start, end, "day", value, value, part_of_day=part)


_FULL_WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())


def _weekday_atom(m: re.Match[str], today: dt.date) -> _Atom | None:
    name = m.group("wdn")
    lowered = name.lower()
    qualifier = (m.group("wdq") or "").lower()
    week = (m.group("wdw") or "").lower()
    if lowered.endswith("s") and lowered[:-1] in _FULL_WEEKDAYS:
        return None  # "on Mondays" is a habit, not a day
    # Said with "next", "last", "this" it is a day in any case ("last fri").
    qualified = qualifier not in ("", "on")
    if lowered not in _FULL_WEEKDAYS and not (
        qualified or (name[0].isupper() and (qualifier or week or _among_days(m)))
    ):
        return None  # "Sat", "Sun", "Wed" are words too: only "on Sat", "next Wed", "Wed 16th"
    weekday = WEEKDAY_NUMBERS[lowered[:3]]
    start, end = m.span()
    if qualifier == "on":
        start, qualifier = m.start("wdn"), ""
    this_monday = today - dt.timedelta(days=today.weekday())
    if week or m.group("wdan"):
        offset = 14 if m.group("wdan") else {"next": 7, "this": 0, "last": -7}[week]
        value = this_monday + dt.timedelta(days=offset + weekday)
    elif qualifier == "next":
        value = this_monday + dt.timedelta(days=7 + weekday)
    elif qualifier == "this":
        value = this_monday + dt.timedelta(days=weekday)
        if value < today:
            value += dt.timedelta(days=7)
    elif qualifier in ("last", "past", "previous"):
        value = _weekday_before(today, weekday)
    else:  # "Tuesday", "coming Tuesday": the tense of the clause decides (see _resolve)
        return _Atom(start, end, "day", weekday=weekday)
    named = bool(week or m.group("wdan")) or qualifier == "next"
    return _Atom(start, end, "day", value, value, week_named=named)


# What says a short weekday name ("Sun") is a day: a day of the month after it ("Wed 16th"),
# or another weekday just before it ("Sat and Sun").
_DAY_AFTER_RE = re.compile(r"\s*,?\s*(?:the\s+)?(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?\b")
_DAY_BEFORE_RE = re.compile(rf"\b{_WEEKDAY}\s*(?:,|and|&|or|-|to)\s*$", re.IGNORECASE)


def _among_days(m: re.Match[str]) -> bool:
    text = m.string
    return bool(
        _DAY_AFTER_RE.match(text, m.end())
        or _DAY_BEFORE_RE.search(text[max(0, m.start() - 20) : m.start()])
    )


def _nth_weekday(m: re.Match[str], today: dt.date) -> _Atom | None:
    """ "the first Monday of January": that weekday's n-th (or last) day in the month, the
    next such month from today (this month when it has not passed)."""
    weekday = WEEKDAY_NUMBERS[m.group("nthw").lower()[:3]]
    which = m.group("nthn").lower()
    n = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4}.get(which)
    month = _month_number(m.group("nthm")) if m.group("nthm") else today.month
    if month is None:
        return None
    year = int(m.group("nthy")) if m.group("nthy") else today.year

    def day_in(y: int) -> dt.date:
        days = [
            dt.date(y, month, d)
            for d in range(1, calendar.monthrange(y, month)[1] + 1)
            if dt.date(y, month, d).weekday() == weekday
        ]
        return days[-1] if n is None else days[n - 1]

    value = day_in(year)
    if value < today and not m.group("nthy") and m.group("nthm"):
        value = day_in(year + 1)
    return _Atom(m.start(), m.end(), "day", value, value)


def _weekday_before(today: dt.date, weekday: int) -> dt.date:
    return today - dt.timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)


def _weekday_after(today: dt.date, weekday: int, include_today: bool = False) -> dt.date:
    if include_today:
        return today + dt.timedelta(days=(weekday - today.weekday()) % 7)
    return today + dt.timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)


def _offset(m: re.Match[str], today: dt.date) -> _Atom | None:
    """ "in 3 days", "within two weeks" (a deadline), "2 days ago", "a week from today"."""
    role = None
    if m.group("offin"):
        amount, unit, sign = m.group("offn1"), m.group("offu1"), 1
        if m.group("offin").lower() == "within":
            role = "deadline"
        base = today
    else:
        amount, unit = m.group("offn2"), m.group("offu2")
        direction = m.group("offd").lower()
        sign = -1 if direction == "ago" else 1
        if direction == "to":
            role = "deadline"
        base = today + dt.timedelta(days=1) if direction.endswith("tomorrow") else today
    n = _count(amount)
    if n is None:
        return None
    value = base + _delta(unit, sign * n)
    return _Atom(m.start(), m.end(), "day", value, value, role=role)


def _period(m: re.Match[str], today: dt.date) -> _Atom | None:
    """ "next week" (Monday to Friday), "this weekend", "last month", "next quarter"."""
    qualifier = (m.group("perq") or "").lower()
    unit = (m.group("peru") or m.group("peru2") or m.group("peru3") or "").lower()
    shift = {"next": 1, "following": 1, "last": -1, "past": -1, "previous": -1}.get(qualifier, 0)
    if qualifier == "coming" and unit != "weekend":
        shift = 1  # "the coming week" is next week; "the coming weekend" is this one
    if m.group("peru2"):
        shift = 2
    this_monday = today - dt.timedelta(days=today.weekday())
    if unit == "week":
        first = this_monday + dt.timedelta(weeks=shift)
        last = first + dt.timedelta(days=4)
    elif unit == "weekend":
        first = this_monday + dt.timedelta(days=5, weeks=shift)
        last = first + dt.timedelta(days=1)
    elif unit == "month":
        first = today.replace(day=1) + relativedelta(months=shift)
        last = first + relativedelta(months=1, days=-1)
    elif unit == "year":
        first, last = dt.date(today.year + shift, 1, 1), dt.date(today.year + shift, 12, 31)
    else:  # quarter
        index = (today.month - 1) // 3 + shift
        first = dt.date(today.year + index // 4, 3 * (index % 4) + 1, 1)
        last = first + relativedelta(months=3, days=-1)
    return _Atom(m.start(), m.end(), "range", first, last, period=unit)


_MONTH_PREPOSITIONS = frozenset(
    "in during for until till by from since through throughout over".split()
)


_TIME_OF_MONTH = frozenset(
    ("end of", "mid", "early", "late", "next", "last", "this", "until", "till", "through", "since")
)


def _month_atom(m: re.Match[str], today: dt.date) -> _Atom | None:
    """ "in March", "March 2027", "next March", "end of March" (a day)."""
    name = m.group("monn")
    qualifier = " ".join((m.group("monq") or "").lower().split())
    year = int(m.group("mony")) if m.group("mony") else None
    bare = name.lower().rstrip(".")
    if year is None:
        # Without a year a month needs a word before it ("in March", not "May I"), a capital
        # for the two that are verbs ("we march on", "it may rain"), and its full name ("for
        # Jan" could be a person).
        # A word of time before a short name makes it a month ("end of Feb", "mid Jan").
        abbreviated = (
            len(bare) <= 4
            and bare not in ("may", "june", "july")
            and qualifier not in _TIME_OF_MONTH
        )
        if not qualifier or not _month_ok(name) or abbreviated:
            return None
    month = _month_number(name)
    if month is None:
        return None
    start = m.start("monn") if qualifier in _MONTH_PREPOSITIONS else m.start()
    if qualifier == "next":
        year = today.year if month > today.month else today.year + 1
    elif qualifier == "last":
        year = today.year if month < today.month else today.year - 1
    elif qualifier == "this":
        year = today.year
    atom = _Atom(start, m.end(), "range", month=month, year=year, period="month")
    if qualifier == "end of":
        atom.kind = "day"
    return atom


def _quarter(m: re.Match[str], today: dt.date) -> _Atom | None:
    if m.group("qn"):
        q = int(m.group("qn"))
        year_text = m.group("qy") or (f"20{m.group('qy2')}" if m.group("qy2") else None)
    else:
        q = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3}.get(
            m.group("qw").lower(), 4
        )
        year_text = m.group("qwy")
    if year_text:
        year = int(year_text)
    else:
        # The last such quarter that has begun: "a report for Q3" is about the past one.
        year = today.year if dt.date(today.year, 3 * q - 2, 1) <= today else today.year - 1
    first = dt.date(year, 3 * q - 2, 1)
    last = first + relativedelta(months=3, days=-1)
    return _Atom(m.start(), m.end(), "range", first, last, period="quarter")


# -- resolution ------------------------------------------------------------------------------


def _resolve(
    analysis: Analysis, today: dt.date, atom: _Atom, past: bool | None = None
) -> tuple[dt.date | None, dt.date | None]:
    """First and last day of a phrase on its own, its tense decided from its clause."""
    if atom.first is not None and atom.last is not None:
        return atom.first, atom.last
    if past is None:
        past = _in_past(analysis, atom.start)
    if atom.weekday is not None:
        value = (
            _weekday_before(today, atom.weekday) if past else _weekday_after(today, atom.weekday)
        )
        return value, value
    if atom.kind == "partial":
        value = _day_of_month(today, atom.day or 1, past)
        return value, value
    if atom.period == "month":
        first = _month_start(today, atom.month or 1, atom.year, past)
        last = first + relativedelta(months=1, days=-1)
        if atom.end_month is not None:
            last = _month_start(first, atom.end_month, None, False) + relativedelta(
                months=1, days=-1
            )
        return (last, last) if atom.kind == "day" else (first, last)
    if atom.day is None or atom.month is None:
        return None, None
    first_day = _infer(today, atom.day, atom.month, atom.year, past)
    if first_day is None:
        return None, None
    if atom.year is None and atom.weekday_said not in (None, first_day.weekday()):
        # "Fri 18 Dec", said in a sentence in the past tense ("I missed that I'm on call from
        # Fri 18 Dec"): the year in which the 18th is a Friday.
        for year in (first_day.year + 1, first_day.year - 1):
            other = _infer(today, atom.day, atom.month, year, past)
            if other is not None and other.weekday() == atom.weekday_said:
                first_day = other
                break
    if atom.end_day is None:
        return first_day, first_day
    try:
        return first_day, first_day.replace(day=atom.end_day)
    except ValueError:
        return None, None


def _month_start(today: dt.date, month: int, year: int | None, past: bool) -> dt.date:
    """The first day of the month meant: this year's if not over (or, in the past, begun)."""
    if year is None:
        if past:
            year = today.year if month <= today.month else today.year - 1
        else:
            year = today.year if month >= today.month else today.year + 1
    return dt.date(year, month, 1)


def _infer(today: dt.date, day: int, month: int, year: int | None, past: bool) -> dt.date | None:
    """The date of `day` `month`, in `year` or else the next (or last) one around today."""
    if year is not None:
        try:
            return dt.date(year, month, day)
        except ValueError:
            return None
    step = -1 if past else 1
    for k in range(9):  # 29 February may be 8 years away
        try:
            value = dt.date(today.year + step * k, month, day)
        except ValueError:
            continue
        if (value <= today) if past else (value >= today):
            return value
    return None


def _day_of_month(today: dt.date, day: int, past: bool) -> dt.date:
    """ "the 4th": this month's if not passed (in the past: if passed), else the next month's."""
    first = today.replace(day=1)
    step = -1 if past else 1
    for k in range(13):
        month_start: dt.date = first + relativedelta(months=step * k)
        if day > calendar.monthrange(month_start.year, month_start.month)[1]:
            continue
        value = month_start.replace(day=day)
        if (value <= today) if past else (value >= today):
            return value
    return today


def _in_past(analysis: Analysis, pos: int) -> bool:
    """Whether the clause points back: a past-tense verb shortly before the day (within twelve
    words of its clause: "I paid 184.50 EUR for a client dinner in Milan on the 22nd") with no
    word of intent in between ("I flew out on Sunday": yes; "I was told to book Friday": no)."""
    before = analysis.words_before(pos, 12)
    for k in range(len(before) - 1, -1, -1):
        w = before[k]
        if w.folded == "due" and k > 0 and before[k - 1].folded in ("was", "were"):
            return True  # "was due on 30 November"
        if w.folded in PAST_BREAKERS:
            return False
        if w.folded in PAST_VERBS:
            return True
    return False


def _role(text: str, start: int) -> str | None:
    m = _ROLE_BEFORE_RE.search(text, max(0, start - 30), start)
    return m.lastgroup if m and m.lastgroup in ("start", "end", "deadline") else None


# -- joining ---------------------------------------------------------------------------------


def _join(analysis: Analysis, today: dt.date, a: _Atom, b: _Atom) -> DateRangeFact | None:
    """ "from X to Y", "X - Y", "X until Y", "between X and Y", "from March to May"."""
    text = analysis.text
    if not _RANGE_GAP_RE.match(text[a.end : b.start]):
        return None
    lead = _RANGE_LEAD_RE.search(text, max(0, a.start - 15), a.start)
    # "Thursday and Friday" are two days in a row: a range, as "between Monday and Friday" is.
    # Days apart ("Monday and Wednesday") are two days, not the days between them.
    in_a_row = text[a.end : b.start].strip().lower() == "and" and not (
        lead and lead.group("lead").lower() == "between"
    )
    months = a.period == "month" and b.period == "month" and "range" == a.kind == b.kind
    if not months and (a.kind == "range" or b.kind == "range"):
        return None  # "next week to Friday" and the like are not read as one range
    past = _in_past(analysis, a.start)
    first = _range_start(analysis, today, a, b, past)
    if first is None:
        return None
    last = _range_end(b, first)
    if last is None or last < first:
        return None
    if in_a_row and (months or (last - first).days != 1):
        return None
    span = (lead.start() if lead else a.start, b.end)
    return DateRangeFact(first, last, text[span[0] : span[1]], span, "month" if months else "dates")


def _range_start(
    analysis: Analysis, today: dt.date, a: _Atom, b: _Atom, past: bool
) -> dt.date | None:
    """The first day of a range, completed from its end ("the 4th to the 6th of June" takes
    June from the end; "28 December to 3 January 2027" is in the year before the end's)."""
    if a.first is not None:
        return a.first
    if a.weekday is not None and b.week_named and b.first is not None:
        # "from Tuesday to Thursday next week": both days are in the week the end names.
        back = b.first.weekday() - a.weekday
        if back >= 0 and b.first - dt.timedelta(days=back) >= today:
            return b.first - dt.timedelta(days=back)
    if a.kind == "partial" and b.month is not None:
        if b.day is not None and (a.day or 1) > b.day:
            # "from the 26th to 1 January": the 26th of the month before.
            month = 12 if b.month == 1 else b.month - 1
            year = None if b.year is None else (b.year - 1 if b.month == 1 else b.year)
            return _infer(today, a.day or 1, month, year, past)
        return _infer(today, a.day or 1, b.month, b.year, past)
    year = a.year
    if year is None and b.year is not None and a.month is not None and b.month is not None:
        year = b.year if (a.month, a.day or 1) <= (b.month, b.day or 31) else b.year - 1
    if year is not None and a.month is not None:
        a = _Atom(a.start, a.end, a.kind, day=a.day, month=a.month, year=year, period=a.period)
    return _resolve(analysis, today, a, past)[0]


def _range_end(b: _Atom, start: dt.date) -> dt.date | None:
    """The last day of a range: the first such day on or after its start."""
    if b.last is not None:
        return b.last
    if b.weekday is not None:
        return _weekday_after(start, b.weekday, include_today=True)
    if b.kind == "partial":
        return _day_of_month(start, b.day or 1, False)
    if b.period == "month" and b.month is not None:
        last: dt.date = _month_start(start, b.month, b.year, False) + relativedelta(
            months=1, days=-1
        )
        return last
    if b.day is not None and b.month is not None:
        return _infer(start, b.day, b.month, b.year, False)
    return None


def _counted(
    analysis: Analysis, today: dt.date, atom: _Atom, taken: list[tuple[int, int]]
) -> DateRangeFact | None:
    """ "three nights from 9 December", "for two days from Thursday", "9 December for 3 nights";
    and the single days "two days from Thursday", "a week from Monday" (the atom moves)."""
    if atom.kind == "range":
        return None
    text = analysis.text

    def free(start: int, end: int) -> bool:
        return not any(start < b and a < end for a, b in taken if (a, b) != (atom.start, atom.end))

    before = _COUNT_BEFORE_RE.search(text, max(0, atom.start - 40), atom.start)
    if before is not None and not free(before.start(), atom.start):
        before = None
    after = None if before else _COUNT_AFTER_RE.match(text, atom.end)
    if after is not None and (
        not free(atom.end, after.end())
        or (not after.group("for") and not after.group("u").lower().startswith("night"))
    ):
        after = None  # "9 December, 3 nights" but "for 2 days": a bare "3 weeks" may be other
    found = before or after
    if found is None:
        return None
    n = _count(found.group("n"))
    unit = found.group("u").lower().rstrip("s")
    first, _ = _resolve(analysis, today, atom)
    if n is None or n <= 0 or first is None:
        return None
    if before is not None and unit != "night" and not before.group("for"):
        # "two days from Thursday" is one day, not a stay.
        atom.first = atom.last = first + _delta(unit, n)
        atom.weekday = None
        atom.start = before.start()
        return None
    span = (before.start(), atom.end) if before else (atom.start, found.end())
    if unit == "night":
        last, kind = first + dt.timedelta(days=n), "nights"
    else:
        last, kind = first + dt.timedelta(days=(7 if unit == "week" else 1) * n - 1), "days"
    return DateRangeFact(first, last, text[span[0] : span[1]], span, kind)


# -- times -----------------------------------------------------------------------------------


# A span of hours whose first end borrows the second's am/pm ("between 2 and 4 pm", "2-4pm").
_HOURS_RE = re.compile(
    r"\b(?:between\s+|from\s+)?(?P<h1>1[0-2]|0?[1-9])(?:[:.](?P<m1>[0-5]\d))?\s*"
    r"(?:-|–|to|and|until)\s*(?P<h2>1[0-2]|0?[1-9])(?:[:.](?P<m2>[0-5]\d))?\s*"
    r"(?P<ampm>[ap]\.?m\.?)(?![a-z])",
    re.IGNORECASE,
)


def _hours(analysis: Analysis) -> list[TimeFact]:
    """The two ends of a span of hours said with one am/pm; the first is claimed here, so the
    second is read as a time of its own."""
    text = analysis.text
    out: list[TimeFact] = []
    for m in _HOURS_RE.finditer(text):
        if not analysis.is_free(m.start("h1"), m.end("h1")):
            continue
        afternoon = m.group("ampm").lower().startswith("p")
        first, second = int(m.group("h1")), int(m.group("h2"))
        hour = first % 12 + (12 if afternoon and first <= second else 0)
        end = m.end("m1") if m.group("m1") else m.end("h1")
        analysis.claim(m.start("h1"), end)
        said = text[m.start("h1") : end]
        out.append(TimeFact(dt.time(hour, int(m.group("m1") or 0)), said, (m.start("h1"), end)))
    return out


# An hour said alone after its preposition ("after 5 works better", "at 9 tomorrow"): in
# working hours, 1 to 7 is the afternoon and 8 to 11 the morning.
_BARE_HOUR_RE = re.compile(
    r"\b(?:at|after|before|around|from|until|till)\s+(?P<h>1[0-2]|[1-9])"
    # "around 2,100" is an amount, not two o'clock.
    r"(?![.,]\d)(?=\s*(?:$|[,.;!?)]|\s(?:works|is|would|should|tomorrow|today|tonight|on|sharp|latest|"
    r"or|and|then|instead)\b))",
    re.IGNORECASE,
)


def _bare_hours(analysis: Analysis) -> list[TimeFact]:
    out: list[TimeFact] = []
    for m in _BARE_HOUR_RE.finditer(analysis.text):
        start, end = m.span("h")
        if not analysis.is_free(start, end):
            continue
        hour = int(m.group("h"))
        hour = hour + 12 if hour <= 7 else hour
        out.append(TimeFact(dt.time(hour, 0), m.group("h"), (start, end)))
    return out


def _times(analysis: Analysis) -> list[TimeFact]:
    text = analysis.text
    out: list[TimeFact] = []
    if not _TIME_ANCHOR_RE.search(text):
        return out
    for m in _TIME_RE.finditer(text):
        if not analysis.is_free(m.start(), m.end()):
            continue
        if m.group("h12"):
            hour = int(m.group("h12")) % 12 + (12 if m.group("ampm").lower().startswith("p") else 0)
            minute = int(m.group("m12") or 0)
        elif m.group("h24"):
            hour, minute = int(m.group("h24")), int(m.group("m24"))
            if 1 <= hour <= 6 and not m.group("h24").startswith("0"):
                # "4:30" said of a working day is half past four in the afternoon; "04:30"
                # written so is early morning.
                hour += 12
        elif m.group("hoc"):
            hour, minute = int(m.group("hoc")), 0
        else:
            word = m.group("word").lower()
            hour, minute = (0, 0) if word == "midnight" else (12, 0)
        start = m.start()
        # The leading "at"/"by" is part of the phrase but not of the time itself.
        lead = re.match(r"(?:at|@|by|from|around)\s*", m.group(), re.IGNORECASE)
        if lead:
            start += lead.end()
        out.append(TimeFact(dt.time(hour, minute), text[start : m.end()], (start, m.end())))
    return out


def _attach_times(text: str, atoms: list[_Atom], times: list[TimeFact]) -> None:
    """ "tomorrow at 3pm", "Friday 10:30", "3pm tomorrow": the time belongs to that day."""
    for t in list(times):
        for atom in atoms:
            if atom.kind == "range" or atom.time is not None:
                continue
            if t.span[0] >= atom.end and _TIME_GAP_RE.match(text[atom.end : t.span[0]]):
                atom.time, atom.end = t.time, t.span[1]
            elif t.span[1] <= atom.start and _TIME_GAP_RE.match(text[t.span[1] : atom.start]):
                atom.time, atom.start = t.time, t.span[0]
            else:
                continue
            times.remove(t)
            break


# -- small helpers ---------------------------------------------------------------------------


def _count(text: str) -> int | None:
    text = text.strip().lower()
    if text in ("a", "an"):
        return 1
    value = parse_number(text)
    if value is None or value != value.to_integral_value():
        return None
    return int(value)


def _delta(unit: str, n: int) -> relativedelta:
    unit = unit.lower().rstrip("s")
    if unit in ("day", "night"):
        return relativedelta(days=n)
    if unit == "week":
        return relativedelta(weeks=n)
    if unit == "fortnight":
        return relativedelta(weeks=2 * n)
    if unit == "month":
        return relativedelta(months=n)
    return relativedelta(years=n)


def _day_number(text: str) -> int:
    return int(re.match(r"\d+", text).group())  # type: ignore[union-attr]


def _month_number(text: str) -> int | None:
    return MONTH_NUMBERS.get(text.lower().rstrip(".")[:3])


def _month_ok(name: str, with_day: bool = False) -> bool:
    """ "may" and "march" in lower case are verbs unless a day number stands next to them."""
    return with_day or name[0].isupper() or name.lower().rstrip(".") not in ("may", "march")


def _clean_absolute(text: str) -> str:
    """ "the 4th of June, 2027" -> "4 June 2027": the form dateutil reads without guessing."""
    text = re.sub(r"\b(?:the|of)\b", " ", text, flags=re.IGNORECASE)
    text = re.sub(r"(\d)(?:st|nd|rd|th)\b", r"\1", text, flags=re.IGNORECASE)
    return re.sub(r"[,\s]+", " ", text.replace(".", " ")).strip()


@lru_cache(maxsize=4096)
def _parse_absolute(text: str) -> tuple[int, int] | None:
    """(day, month) of a cleaned absolute phrase, read by dateutil in a leap year so that
    29 February parses; the year is decided afterwards."""
    try:
        value = date_parser.parse(text, default=dt.datetime(2000, 1, 1), dayfirst=True)
    except (ValueError, OverflowError):
        return None
    return value.day, value.month
