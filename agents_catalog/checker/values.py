"""The naming scheme prepared for checking: sub-schemas and compiled validators.

Values in agent files are templates. A string that is exactly one placeholder
(``"{record.total}"``) becomes whatever the path holds at run time, so its type,
format, enum and pattern cannot be judged; only what surrounds it (required keys,
literal siblings) is. A string with text around a placeholder is known to be a string,
so only its type is checked. Validators are compiled once per (variable, sub-path).
"""

from __future__ import annotations

import datetime
import reprlib
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator

from ..agent_format import TEMPLATE_PATH_RE
from ..scheme import NamingScheme

_SCALAR_TYPES = {"string", "number", "integer", "boolean", "null"}
# Keywords whose effect on sub-paths this module does not follow; it stays silent there.
_OPAQUE = ("$ref", "$dynamicRef", "anyOf", "oneOf", "allOf", "if", "patternProperties")
_short = reprlib.Repr()
_short.maxstring = 60
_short.maxother = 60


def is_placeholder(value: Any) -> bool:
    return isinstance(value, str) and TEMPLATE_PATH_RE.fullmatch(value) is not None


def has_placeholder(value: Any) -> bool:
    return isinstance(value, str) and TEMPLATE_PATH_RE.search(value) is not None


def _types(schema: dict[str, Any]) -> set[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {str(k) for k in kind}
    if isinstance(schema.get("properties"), dict):
        return {"object"}
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(not isinstance(v, dict | list) for v in enum):
        return {"string"}  # an enum of plain values holds no fields
    return set()


@dataclass(frozen=True)
class FieldLookup:
    """The schema at a sub-path, or why the sub-path does not exist.

    ``schema`` is None when the path cannot be followed with certainty (then nothing is
    reported). ``bad_field`` names the first part that does not exist, ``known`` lists the
    fields that do at that level, and ``holder`` says what the parent holds.
    """

    schema: dict[str, Any] | None
    bad_field: str | None = None
    known: tuple[str, ...] = ()
    holder: str = ""
    depth: int = 0


@dataclass(frozen=True)
class ValueProblem:
    path: tuple[str | int, ...]
    message: str

    @property
    def json_path(self) -> str:
        return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path)


def _message(error: Any) -> str:
    instance = error.instance
    if isinstance(instance, datetime.date):
        return (
            f"{instance.isoformat()} is read by YAML as a date, not text: quote it "
            f'("{instance.isoformat()}")'
        )
    if error.validator == "type":
        return f"{_short.repr(instance)} is not of type {error.validator_value!r}"
    if error.validator == "enum":
        return f"{_short.repr(instance)} is not one of {error.validator_value!r}"
    message = str(error.message)
    return message if len(message) <= 200 else message[:197] + "..."


class CompiledScheme:
    """A NamingScheme with lazily compiled validators; reuse one across many files."""

    def __init__(self, scheme: NamingScheme) -> None:
        self.scheme = scheme
        self._validators: dict[tuple[str, tuple[str, ...]], Draft202012Validator | None] = {}

    def lookup(self, variable: str, fields: tuple[str, ...]) -> FieldLookup:
        """Follow ``fields`` into the schema of ``variable`` (an agreed variable)."""
        schema: Any = self.scheme.variables[variable].schema
        for depth, part in enumerate(fields):
            if not isinstance(schema, dict) or any(k in schema for k in _OPAQUE):
                return FieldLookup(None)
            types = _types(schema)
            props = schema.get("properties")
            if "array" in types and part.isdigit():
                schema = schema.get("items")
                continue
            if isinstance(props, dict) and part in props:
                schema = props[part]
                continue
            extra = schema.get("additionalProperties")
            if "object" in types and isinstance(props, dict) and not isinstance(extra, dict):
                return FieldLookup(None, part, tuple(sorted(props)), "an object", depth)
            if types and types <= _SCALAR_TYPES:
                holder = "a " + "/".join(sorted(types)) if "enum" not in schema else "one value"
                return FieldLookup(None, part, (), holder, depth)
            return FieldLookup(None)
        return FieldLookup(schema if isinstance(schema, dict) else None)

    def _validator(self, variable: str, fields: tuple[str, ...]) -> Draft202012Validator | None:
        key = (variable, fields)
        if key not in self._validators:
            schema = self.lookup(variable, fields).schema
            self._validators[key] = (
                Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
                if schema is not None
                else None
            )
        return self._validators[key]

    def value_problems(
        self, variable: str, fields: tuple[str, ...], value: Any
    ) -> list[ValueProblem]:
        """Schema violations of a templated value written to ``conv.variable.fields``."""
        validator = self._validator(variable, fields)
        if validator is None or is_placeholder(value):
            return []
        problems = []
        for error in validator.iter_errors(value):
            instance = error.instance
            if is_placeholder(instance):
                continue
            if has_placeholder(instance) and error.validator != "type":
                continue
            problems.append(ValueProblem(tuple(error.absolute_path), _message(error)))
        return sorted(problems, key=lambda p: (p.json_path, p.message))

    def extra_fields(
        self, variable: str, fields: tuple[str, ...], value: Any
    ) -> list[tuple[tuple[str | int, ...], str, tuple[str, ...]]]:
        """Keys of a written mapping that the schema does not define: (path, key, known)."""
        found: list[tuple[tuple[str | int, ...], str, tuple[str, ...]]] = []
        self._extra(self.lookup(variable, fields).schema, value, (), found)
        return found

    def _extra(
        self,
        schema: Any,
        value: Any,
        path: tuple[str | int, ...],
        found: list[tuple[tuple[str | int, ...], str, tuple[str, ...]]],
    ) -> None:
        if not isinstance(schema, dict) or not isinstance(value, dict):
            return
        if any(k in schema for k in _OPAQUE):
            return
        props = schema.get("properties")
        if not isinstance(props, dict):
            return
        # additionalProperties: false is a schema error already; a schema allows anything.
        extra_allowed = schema.get("additionalProperties")
        for key, item in value.items():
            if key in props:
                self._extra(props[key], item, (*path, key), found)
            elif extra_allowed is None or extra_allowed is True:
                found.append(((*path, key), str(key), tuple(sorted(props))))
