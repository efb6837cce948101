"""People a request names by their role: "forward his mailbox to his manager, Clara Wong",
"contact person Tom Lim", "Priya Nair (the assignee)". A record made from the request has each
of them in the field of that role, rather than someone made up for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .stated import Stated

# Role words, by the record field they fill.
_ROLES: dict[str, str] = {
    "manager": r"(?:line\s+)?manager|boss|supervisor|reports?\s+to",
    "contact": r"contact(?:\s+person)?|point\s+of\s+contact",
    "assignee": r"assignee|assigned\s+to|owner",
    "assigned_to": r"assigned\s+to",
}
_POSSESSIVE = r"(?:(?:his|her|their|our|my|the|your)\s+)?"


def people_in_roles(stated: Stated, fields: Iterable[str]) -> dict[str, str]:
    """Each field of ``fields`` that a person of the request is named as (by the role word
    right before the name, or right after it)."""
    out: dict[str, str] = {}
    text = stated.text
    for field in fields:
        role = _ROLES.get(field)
        if role is None:
            continue
        for person in stated.people:
            name = re.escape(person.text)
            before = rf"\b{_POSSESSIVE}(?:{role})\s*(?:[,:(-]|\bis\b|\bwill\s+be\b)?\s*{name}\b"
            after = rf"\b{name}\s*(?:,|\(|\bas\b)\s*{_POSSESSIVE}(?:{role})\b"
            if re.search(before, text, re.IGNORECASE) or re.search(after, text, re.IGNORECASE):
                out[field] = person.shown
                break
    return out
