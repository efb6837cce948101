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
