"""Inline suppressions: ``# agents-catalog: ignore[NS003]`` in a YAML comment.

A suppression comment silences the named rules (ids or names, comma-separated:
``ignore[NS003, variable-schema]``) for findings on its own line and on the line below,
so it can trail the offending line or stand on its own line above it.
"""

from __future__ import annotations

import re

from .findings import Finding
from .rules import find_rule

# A YAML comment starts at line start or after whitespace; '#' inside a word is text.
_COMMENT_RE = re.compile(r"(?:^|\s)#\s*agents-catalog:\s*ignore\[([^\]]*)\]", re.IGNORECASE)

Suppressions = dict[int, frozenset[str]]


def parse_suppressions(text: str) -> Suppressions:
    """Line number (1-based) -> rule ids silenced on that line (from its own or the one above)."""
    found: dict[int, set[str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if "agents-catalog" not in line:
            continue
        for match in _COMMENT_RE.finditer(line):
            ids = set()
            for token in match.group(1).split(","):
                rule = find_rule(token) if token.strip() else None
                if rule:
                    ids.add(rule.id)
            for target in (number, number + 1):
                found.setdefault(target, set()).update(ids)
    return {line: frozenset(ids) for line, ids in found.items() if ids}


def is_suppressed(finding: Finding, suppressions: Suppressions) -> bool:
    return finding.rule_id in suppressions.get(finding.line, frozenset())
