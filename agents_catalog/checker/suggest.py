""" "Did you mean" suggestions for prompt, variable and field names.

A *near miss* is a name equal to a known one once both are normalised: lowercase,
separators removed, a version suffix or trailing digits dropped (``chat_v2``), and a
plural made singular (``chats``, ``companies``, ``addresses``). Anything else falls back
to ``difflib`` similarity.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

_VERSION_SUFFIX_RE = re.compile(r"(?:[_\-. ]?v?[0-9]+)+$", re.IGNORECASE)
_SEPARATORS_RE = re.compile(r"[_\-. ]+")


def _singulars(word: str) -> set[str]:
    forms = {word}
    if word.endswith("ies") and len(word) > 4:
        forms.add(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3:
        forms.add(word[:-2])
    if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        forms.add(word[:-1])
    return forms


def normal_forms(name: str) -> set[str]:
    """The normalised spellings a name may stand for (a plural has several candidates)."""
    base = _VERSION_SUFFIX_RE.sub("", name.strip()) or name.strip()
    base = _SEPARATORS_RE.sub("", base).lower()
    return _singulars(base)


def near_miss(name: str, known: Iterable[str]) -> str | None:
    """The known name that ``name`` is a near miss of (not itself), or None."""
    forms = normal_forms(name)
    for candidate in sorted(known):
        if candidate != name and _base(candidate) in forms:
            return candidate
    return None


def _base(name: str) -> str:
    return _SEPARATORS_RE.sub("", _VERSION_SUFFIX_RE.sub("", name) or name).lower()


def did_you_mean(name: str, known: Iterable[str], cutoff: float = 0.75) -> str | None:
    """The best suggestion for an unknown ``name``: a near miss first, then difflib."""
    names = sorted(set(known))
    found = near_miss(name, names)
    if found:
        return found
    lowered = {n.lower(): n for n in names}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=cutoff)
    return lowered[close[0]] if close else None
