"""Checks of the agent's own fields (name, title, tag) and of the agent format.

The name, title and tag rules are checked on the raw YAML data first, so each breach is
a finding of its own rule at its line; the format validation then reports everything
else as invalid-agent-file, without repeating those three fields.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from ..agent_format import NAME_PATTERN, TAG_PATTERN, AgentDefinition
from ..loader import problems_from_validation
from .context import FileCheck

NAME_RE = re.compile(NAME_PATTERN)
TAG_RE = re.compile(TAG_PATTERN)
NAME_LENGTH = (2, 32)
TITLE_LENGTH = (1, 80)
TAG_LENGTH = (1, 16)
OWN_FIELDS = ("name", "title", "tag")


def _kind(value: Any) -> str:
    return "nothing" if value is None else f"a {type(value).__name__}"


def suggest_name(name: str) -> str | None:
    """A valid CamelCase name close to ``name`` (``book-trip`` -> ``BookTrip``)."""
    words = re.findall(r"[A-Za-z0-9]+", name)
    camel = "".join(w[:1].upper() + w[1:] for w in words).lstrip("0123456789")
    camel = camel[: NAME_LENGTH[1]]
    return camel if NAME_RE.fullmatch(camel) and camel != name else None


def suggest_tag(tag: str) -> str | None:
    """A valid tag close to ``tag`` (``Customer-Support`` -> ``customer_support``)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", tag).lower()
    candidate = "_".join(re.findall(r"[a-z0-9]+", spaced))[: TAG_LENGTH[1]].rstrip("_")
    return candidate if TAG_RE.fullmatch(candidate) and candidate != tag else None


def check_own_fields(check: FileCheck, data: dict[str, Any]) -> None:
    if "name" in data:
        _check_name(check, data["name"])
    if "title" in data:
        _check_title(check, data["title"])
    if "tag" in data:
        _check_tag(check, data["tag"])


def _check_name(check: FileCheck, name: Any) -> None:
    _check_identifier(
        check,
        "NS008",
        "name",
        name,
        NAME_LENGTH,
        NAME_RE,
        "must start with a letter, use only letters, digits and _, and end with a letter or digit",
        suggest_name,
    )


def _check_title(check: FileCheck, title: Any) -> None:
    low, high = TITLE_LENGTH
    if not isinstance(title, str):
        check.add("NS009", ("title",), f"agent title must be text, not {_kind(title)}")
    elif len(title) < low:
        check.add("NS009", ("title",), "agent title is empty")
    elif len(title) > high:
        check.add(
            "NS009", ("title",), f"agent title is {len(title)} characters; the limit is {high}"
        )


def _check_tag(check: FileCheck, tag: Any) -> None:
    _check_identifier(
        check,
        "NS010",
        "tag",
        tag,
        TAG_LENGTH,
        TAG_RE,
        "must be lowercase letters and digits, words joined by _",
        suggest_tag,
    )


def _check_identifier(
    check: FileCheck,
    rule: str,
    field: str,
    value: Any,
    length: tuple[int, int],
    pattern: re.Pattern[str],
    pattern_says: str,
    suggest: Callable[[str], str | None],
) -> None:
    """A name or a tag: text of the allowed length that ``pattern`` matches (``pattern_says``
    how, for the message); ``suggest`` offers a valid one close to it."""
    low, high = length
    if not isinstance(value, str):
        check.add(rule, (field,), f"agent {field} must be text, not {_kind(value)}")
    elif not low <= len(value) <= high:
        message = f"agent {field} '{value}' is {len(value)} characters; it must be {low} to {high}"
        check.add(rule, (field,), message, suggest(value))
    elif not pattern.fullmatch(value):
        check.add(rule, (field,), f"agent {field} '{value}' {pattern_says}", suggest(value))


def check_format(check: FileCheck, data: dict[str, Any]) -> None:
    """Validate against the agent format; each problem becomes an invalid-agent-file finding."""
    try:
        AgentDefinition.model_validate(data)
    except ValidationError as exc:
        for problem in problems_from_validation(exc, check.source.lines, check.source.name):
            if problem.path in OWN_FIELDS and problem.path in data:
                continue  # reported by the field's own rule
            where = f" (at {problem.path})" if problem.path else ""
            message = f"invalid agent file: {problem.message}{where}"
            check.add_at("NS011", problem.line, problem.column, message)
