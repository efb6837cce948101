"""How a request changes a value it names: set it, or move it up or down by what it says.

"Raise its budget to 26,000" sets the budget; "bump the budget up by 5,000", "add another 5,000"
and "5,000 more" adjust it; "cut it by 10%" takes off. The same wording rules serve every record
and every detail a request changes, so an edit reads the same whatever agent answers it.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

from dateutil.relativedelta import relativedelta

from mock_account.understanding.numbers import NUMBER, parse_number

How = Literal["set", "up", "down"]

# A request that changes what is there rather than asks for something new.
CHANGES_IT = re.compile(
    r"\b(?:instead|make\s+(?:it|that|them)|change\s+(?:it|that|them|the)|move\s+(?:it|that|the)|"
    r"push\s+(?:it|that|the)|postpone|bring\s+(?:it\s+|that\s+)?forward|reschedule|"
    r"(?:raise|lower|increase|reduce|bump|cut|extend|shorten)\s+(?:it|that|its|the)|"
    # A value said before, corrected ("the total was actually 196.40"), or moved ("her start
    # date just moved to the 11th").
    r"(?:was|is|were|are)\s+actually|should\s+(?:have\s+been|be)|I\s+meant|"
    r"it(?:'s|’s|\s+is|\s+was)\s+[^,.!?]+,\s*not|"
    r"(?:moved|changed|shifted|slipped|pushed)\s+(?:back\s+|forward\s+)?to|"
    # A count more or fewer of what it holds ("add two more", "15 more on that").
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple(?:\s+of)?)"
    r"\s+(?:more|fewer|less|extra)(?!\s+than))\b",
    re.IGNORECASE,
)

# "by 5,000", "another 5,000", "5,000 more", "an extra 10%": the value said is a difference.
_BY = re.compile(
    r"\b(?:by|another|extra|additional|further)\s+[-+$€£¥]?\d|\d[\d,.]*\s*(?:%|[a-z]{0,3})?\s+"
    r"(?:more|less|fewer|extra)\b|\b(?:add|top\s+up|plus|minus)\b",
    re.IGNORECASE,
)
_DOWN = re.compile(
    r"\b(?:cut|reduce|lower|decrease|drop|less|fewer|down|minus|shorten|trim|take\s+off|"
    r"knock\s+off|shave)\b",
    re.IGNORECASE,
)


def how_changed(text: str) -> How:
    """Whether a request sets a value or moves it up or down by what it says."""
    if _BY.search(text) and not re.search(r"\bto\s+[-+$€£¥]?\d", text, re.IGNORECASE):
        return "down" if _DOWN.search(text) else "up"
    return "set"


def changed_value(before: float, said: float, how: How) -> float:
    """The new value: ``said`` itself, or ``before`` moved by it."""
    if how == "up":
        return before + said
    if how == "down":
        return max(before - said, 0.0)
    return said


# "Add two more", "15 more on that", "three fewer": a count more or fewer of what is there.
_COUNT_MORE = re.compile(
    rf"(?<![\w.,$€£¥])(?P<count>{NUMBER})\s+(?P<way>more|extra|additional|fewer|less)\b"
    r"(?!\s+than\b)",
    re.IGNORECASE,
)


def count_more(text: str) -> int | None:
    """How many more (or, negative, fewer) of what is there a request asks for, if it says."""
    found = _COUNT_MORE.search(text)
    if found is None:
        return None
    count = parse_number(found.group("count"))
    if count is None or count != int(count) or count <= 0:
        return None
    return -int(count) if found.group("way").lower() in ("fewer", "less") else int(count)


# A day of the month said alone ("push the start to the 11th"), no month named with it.
_DAY_ALONE = re.compile(r"\bthe\s+(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\b(?!\s+of\b)", re.I)
_MONTH_NAMED = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b", re.IGNORECASE
)
_LATER = re.compile(r"\b(?:push|postpone|delay|later|back)\b", re.IGNORECASE)


def day_of_its_month(said: date | None, text: str, before: date | None) -> date | None:
    """The day a change means by a day of the month said alone: of the month of the day it
    changes ("push the start to the 11th" of a campaign starting 4 January is 11 January, not
    11 December, the next 11th from today), the month after when it pushes later past it."""
    if said is None or before is None or said.day == before.day and said.month == before.month:
        return said
    if not _DAY_ALONE.search(text) or _MONTH_NAMED.search(text):
        return said
    try:
        day = before.replace(day=said.day)
    except ValueError:
        return said
    if day < before and _LATER.search(text):
        day = day + relativedelta(months=1)
    return day
