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


# Roles beside the record's own person: who interviews, mentors or approves, or a relative
# given as a contact, is not whom the record is about ("her final round, panel Wei Ling Tan and
# Rajesh Menon", "her buddy is Arjun Pillai", "my emergency contact: my sister, Mei Ling Goh").
_BESIDE = (
    r"\b(?:panel(?:lists?)?|interviewers?|interviewed\s+by|buddy|mentor|approver|approved\s+by|"
    r"cc|copy\s+in|shadowing|"
    # Family and contacts: "change my emergency contact to my sister, Mei Ling Goh".
    r"emergency\s+contact|next\s+of\s+kin|sister|brother|wife|husband|partner|spouse|mother"
    r"|father|mum|mom|dad|son|daughter)\b"
)
# What may stand between such a role word and the names it introduces, and between names.
_THEN = r"(?:\s*(?:is|are|will\s+be|of|with|:|,|-|–)\s*)*"
_NAMES_BEFORE = r"(?:[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2}\s*(?:,\s*|\s+and\s+|\s*&\s*))*"


def people_beside(stated: Stated) -> set[str]:
    """The people a request names in a role beside the record's own person (a panel, a
    buddy, an approver), as they are shown: the record is not about them."""
    text = stated.text
    out: set[str] = set()
    for person in stated.people:
        name = re.escape(person.text)
        if re.search(rf"{_BESIDE}{_THEN}\s*{_NAMES_BEFORE}{name}\b", text, re.IGNORECASE):
            out.add(person.shown)
    return out
