"""The options of a form that a request already names.

A form asks again what the request may already have said: "Deploy 2.14.0 to production"
should open the deploy form at production, not at the agent's fixed default of staging.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .places import fold


def named_options(text: str, options: Sequence[str]) -> tuple[str, ...]:
    """The options ``text`` names as whole words (or their plural: "small businesses"), in
    the options' order.

    A longer option claims its words first, so "strong no hire" is not also read as
    "no hire" or "hire".
    """
    said = fold(text)
    claimed: list[tuple[int, int]] = []
    named: set[str] = set()
    for option in sorted(options, key=len, reverse=True):
        pattern = r"(?<![\w-])" + re.escape(fold(option)) + r"(?:e?s)?(?![\w-])"
        for found in re.finditer(pattern, said):
            if all(found.end() <= start or found.start() >= end for start, end in claimed):
                claimed.append(found.span())
                named.add(option)
    return tuple(option for option in options if option in named)


# Words too common to tell one option from another ("other", "sign-in via email").
_PLAIN_WORDS = frozenset({"other", "none", "with", "from", "only", "login", "access", "account"})


# What a request says for a switch's "on" or "off" without the word ("kill it completely").
_SWITCHED = {
    "off": re.compile(
        r"\b(?:kill|disable|deactivate|switch\s+(?:\w+\s+)?off|turn\s+(?:\w+\s+)?off"
        r"|shut\s+(?:\w+\s+)?(?:off|down)|roll\s+(?:\w+\s+)?back)\b"
    ),
    "on": re.compile(r"\b(?:enable|activate|switch\s+(?:\w+\s+)?on|turn\s+(?:\w+\s+)?on)\b"),
}


def option_by_word(text: str, options: Sequence[str]) -> str | None:
    """The one option a request names by a word only that option has ("locked out of
    Windows": "Windows login", not "single sign-on"), or a switch's state by what turns it
    on or off ("kill it": off), when no option is named whole."""
    folded = fold(text)
    switched = [o for o in options if o in _SWITCHED and _SWITCHED[o].search(folded)]
    if len(switched) == 1:
        return switched[0]
    said = set(re.findall(r"[\w-]+", folded))
    words = {o: set(re.findall(r"[\w-]+", fold(o))) for o in options}
    named = []
    for option, own in words.items():
        others = set().union(*(w for o, w in words.items() if o != option))
        distinct = {w for w in own - others if len(w) >= 4 and w not in _PLAIN_WORDS}
        # Said whole, or cut short as people do ("prod" for production, "approx").
        short = {w for w in said if len(w) >= 4}
        if distinct & said or any(d.startswith(w) for d in distinct for w in short):
            named.append(option)
    return named[0] if len(named) == 1 else None


def labelled_value(text: str, label: str, name: str = "") -> str | None:
    """A value the request gives under the field's own label ("Username r.koh", "username
    is r_koh"): an identifier (with a digit, a dot, an @ or an underscore), so that
    "username is wrong" gives none."""
    phrases = {p.strip() for p in re.split(r"\s+or\s+|/|,", label.casefold()) if p.strip()}
    if name:
        phrases.add(name.replace("_", " ").casefold())
    for phrase in sorted(phrases, key=len, reverse=True):
        if len(phrase) < 4:
            continue
        pattern = rf"\b{re.escape(phrase)}\s*(?:is\s+|was\s+|[:=]\s*|\s)(?P<value>[^\s,;]+)"
        found = re.search(pattern, text, re.IGNORECASE)
        if found:
            value = found.group("value").rstrip(".!?)")
            if re.search(r"[\d.@_]", value) and re.search(r"[A-Za-z0-9]", value):
                return value
    return None
