"""A value said without its unit, read in the unit of what it changes.

A follow-up that changes something often says only the new number: "make that 55 instead"
after an order of 40 ergonomic chairs is 55 ergonomic chairs, "raise the base to 102000" after
an offer of 96000 SGD is 102000 SGD, "add another 5000" to a budget is 5000 more of its
currency. The request before says the unit (its details, ``conv.request``); the follow-up is
read as if it had said it too, so every agent, form and answer sees the same value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .changes import CHANGES_IT
from .stated import Stated

# A number alone: not part of a code, a date, a time, a version or a percentage.
# ("2k" is a number alone too: two thousand.)
_NUMBER = re.compile(
    r"(?<![\w.,/:#$€£¥-])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[kK](?!\w))?(?![\w%/:°-]|[.,]\d)"
)
# A change that sets a value or moves it ("to 102000", "another 5000", "55 instead").
_SETS = re.compile(
    r"\b(?:to|another|extra|additional|by)\s+\S*\d|\d\S*\s+(?:instead|more|less|fewer)\b"
    r"|\b(?:make|set|change)\s+(?:it|that|them|the\s+\w+)\s+\S*\d",
    re.IGNORECASE,
)
# Words that say the value is money rather than a count.
_MONEY_WORDS = re.compile(
    r"\b(?:price|prices|priced|cost|costs|budget|salary|base|pay|rate|fee|fees|amount|total|"
    r"value|limit|spend|bonus|allowance|sum|invoice|quote|offer|each|apiece|per)\b",
    re.IGNORECASE,
)
_JOINED = ", "
_REPLACED = re.compile(r"\b(?:not|instead\s+of|rather\s+than|from)\s+(\S*\d\S*)", re.IGNORECASE)
_MORE = re.compile(r"\s+(?:more|extra|additional|fewer|less)\b", re.IGNORECASE)


def with_units(text: str, stated: Stated, before: Mapping[str, str] | None) -> str:
    """``text`` with the unit of the one number it says alone, taken from the details of the
    request before (``before``) when the request changes what that request asked; else
    ``text`` as it is."""
    if not before or not (CHANGES_IT.search(text) or _SETS.search(text)):
        return text
    # The value it replaces is no new value: "make it 18 not 15", "55 instead of 40".
    replaced = [m.span(1) for m in _REPLACED.finditer(text)]
    loose = [
        m
        for m in _NUMBER.finditer(text)
        if not any(start < m.end() and m.start() < end for start, end in stated.fact_spans)
        and not any(start <= m.start() < end for start, end in replaced)
    ]
    if len(loose) != 1:
        return text
    unit = _unit(text, before)
    if not unit:
        return text
    found = loose[0]
    if _MORE.match(text, found.end()):
        return text  # "add 5 more": more of the same, which the request before counted
    return f"{text[: found.end()]} {unit}{text[found.end() :]}"


def _unit(text: str, before: Mapping[str, str]) -> str | None:
    """The currency of the amount before, or the item of the count before: the one the
    request changes (money when it says so, or when nothing was counted)."""
    amount, quantity = before.get("amount", ""), before.get("quantity", "")
    currency = amount.split(" ", 1)[1] if " " in amount and _JOINED not in amount else ""
    item = quantity.split(" ", 1)[1] if " " in quantity and _JOINED not in quantity else ""
    if currency and (not item or _MONEY_WORDS.search(text)):
        return currency
    return item or None
