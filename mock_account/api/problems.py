"""Validation errors in plain words: ``query: must be at least 8 characters``.

FastAPI reports pydantic's errors with a location (``("body", "inputs", "query")``) and a type
(``string_too_short``); this module turns each into one line naming the field the way a client
wrote it, and never echoes the offending input back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from mock_account.api.models import PATTERN_WORDS

_SOURCES = {"header": "header", "query": "query parameter", "cookie": "cookie", "path": "path"}


def field_name(loc: Sequence[Any]) -> str:
    """The dotted field a location points at (``inputs.query``), or ``body`` for the whole."""
    parts = list(loc)
    source = parts.pop(0) if parts and parts[0] in ("body", *_SOURCES) else "body"
    dotted = ""
    for part in parts:
        if isinstance(part, int):
            dotted += f"[{part}]"
        else:
            dotted += f".{part}" if dotted else str(part)
    if source != "body":
        return f"{dotted} {_SOURCES[source]}" if dotted else _SOURCES[source]
    return dotted or "body"


def _plural(count: Any, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _words(error: Mapping[str, Any]) -> str:
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return "is required"
    if kind == "string_too_short":
        return f"must be at least {_plural(ctx.get('min_length'), 'character')}"
    if kind == "string_too_long":
        return f"must be at most {_plural(ctx.get('max_length'), 'character')}"
    if kind == "string_pattern_mismatch":
        return PATTERN_WORDS.get(ctx.get("pattern", ""), f"must match {ctx.get('pattern')}")
    if kind == "string_type":
        return "must be a string"
    if kind == "string_unicode":
        return "contains an invalid character (a lone surrogate)"
    if kind in ("bool_type", "bool_parsing"):
        return "must be true or false"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "must be a whole number"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "must be a JSON object"
    if kind == "value_error":
        return str(ctx.get("error") or error.get("msg", "is invalid"))
    message = str(error.get("msg") or "is invalid")
    return message[:1].lower() + message[1:]


class Problem(NamedTuple):
    """One offending field: ``field`` (dotted), ``message`` (about it) and the whole ``line``."""

    field: str
    message: str
    line: str


def _about(field: str, message: str) -> Problem:
    return Problem(field, message, f"{field}: {message}")


def printable(text: str) -> str:
    """``text`` with unprintable characters (newlines, controls, lone surrogates) escaped as
    ``\\n`` or ``\\ud800``, so a field name sent by a client cannot break the one-line message."""
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def describe(error: Mapping[str, Any]) -> Problem:
    """The plain-words problem of one FastAPI / pydantic validation error, on one line."""
    found = _describe(error)
    return Problem(printable(found.field), printable(found.message), printable(found.line))


def _describe(error: Mapping[str, Any]) -> Problem:
    loc = tuple(error.get("loc") or ())
    kind = error.get("type", "")
    field = field_name(loc)
    if kind == "json_invalid":
        reason = (error.get("ctx") or {}).get("error", "malformed")
        position = f" at character {loc[-1]}" if loc and isinstance(loc[-1], int) else ""
        message = f"is not valid JSON ({reason}{position})"
        return Problem("body", message, f"the body {message}")
    if kind == "extra_forbidden":
        return Problem(field, "is not a known field", f"unknown field '{field}'")
    if field == "body" and kind == "missing":
        message = "is required: a JSON object"
        return Problem(field, message, f"the body {message}")
    if field == "body" and kind in ("dict_type", "model_type", "model_attributes_type"):
        if isinstance(error.get("input"), bytes | bytearray):
            message = "must be JSON, sent with Content-Type: application/json"
        else:
            message = "must be a JSON object"
        return Problem(field, message, f"the body {message}")
    words = _words(error)
    if field == "body" and kind == "value_error" and ": " in words:
        # Model-level checks name their own field: "inputs.query: is required ...".
        named, _, message = words.partition(": ")
        return Problem(named, message, words)
    return _about(field, words)


def describe_all(errors: Sequence[Mapping[str, Any]]) -> list[Problem]:
    """Every problem once, in the order reported."""
    seen: dict[Problem, None] = {}
    for error in errors:
        seen.setdefault(describe(error), None)
    return list(seen)
