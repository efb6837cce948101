"""Template substitution: ``{dotted.path}`` placeholders, nothing else.

A template never evaluates code. A placeholder is a dotted path of identifiers
(``{conv.trip.destination}``, ``{record.id}``, ``{items.0}``); anything else between
braces stays as written. ``{{`` and ``}}`` are literal braces.

A string that is exactly one placeholder renders to the value itself (a dict stays
a dict, a number a number), so ``var: {name: conv.trip, value: "{record}"}`` copies a
record. Inside longer text, values are written as text (JSON for lists and dicts)
and a missing path renders as the empty string.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}")
WHOLE = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}$")
MAX_DEPTH = 32
MAX_RENDERED_CHARS = 1_000_000

Resolver = Callable[[str], Any]
_MISSING = object()


class TemplateError(ValueError):
    """A template could not be rendered (too deep or too large)."""


def lookup(root: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path in nested dicts / lists, or ``None`` when absent."""
    value: Any = root
    for part in path.split("."):
        if isinstance(value, Mapping):
            value = value.get(part, _MISSING)
        elif isinstance(value, list) and part.isdigit():
            index = int(part)
            value = value[index] if index < len(value) else _MISSING
        else:
            return None
        if value is _MISSING:
            return None
    return value


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        # Choices a person picked read as words ("flight, hotel near the venue"), not JSON.
        return ", ".join(value)
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (RecursionError, ValueError, TypeError) as exc:
        # Too deep for the encoder, circular, or not JSON at all: refused like any other
        # value a template cannot write, instead of escaping as an unexpected error.
        raise TemplateError(f"a value cannot be written as text: {exc}") from exc


def render_text(template: str, resolve: Resolver) -> str:
    """Render a template as text."""

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "{{":
            return "{"
        if token == "}}":
            return "}"
        return _as_text(resolve(match.group(1)))

    rendered = PLACEHOLDER.sub(replace, template)
    if len(rendered) > MAX_RENDERED_CHARS:
        raise TemplateError(f"rendered text is over {MAX_RENDERED_CHARS} characters")
    return rendered


def render_value(value: Any, resolve: Resolver, _depth: int = 0) -> Any:
    """Render every string inside a value (dicts and lists are walked, keys kept)."""
    if _depth > MAX_DEPTH:
        raise TemplateError(f"value is nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        whole = WHOLE.match(value)
        if whole:
            return resolve(whole.group(1))
        return render_text(value, resolve)
    if isinstance(value, dict):
        return {str(k): render_value(v, resolve, _depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [render_value(v, resolve, _depth + 1) for v in value]
    return value
