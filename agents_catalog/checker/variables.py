"""Conversation-variable checks: unknown variables and fields, and written values.

Works on the located references of ``graph.variable_refs``: every ``conv.X`` read (in
templates, ``if`` conditions, ``for`` loops) and written (``var`` names).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..graph import VarRef
from .context import FileCheck, value_at
from .suggest import did_you_mean
from .values import FieldLookup


def check_variables(check: FileCheck, data: dict[str, Any]) -> None:
    known = check.scheme.scheme.variables
    for ref in check.source.refs:
        verb = "written" if ref.access == "write" else "read"
        if ref.variable not in known:
            guess = did_you_mean(ref.variable, known)
            message = f"unknown conversation variable 'conv.{ref.variable}' {verb}"
            check.add_ref("NS003", ref, message, f"conv.{guess}" if guess else None)
            continue
        lookup = check.scheme.lookup(ref.variable, ref.fields)
        if lookup.bad_field:
            _report_bad_field(check, ref, lookup)
            continue
        if ref.access == "write":
            _check_written_value(check, data, ref)


def _report_bad_field(check: FileCheck, ref: VarRef, lookup: FieldLookup) -> None:
    parent = ".".join(["conv", ref.variable, *ref.fields[: lookup.depth]])
    bad = lookup.bad_field or ""
    if lookup.known:
        message = f"'{parent}' has no field '{bad}' in the naming scheme"
        guess = did_you_mean(bad, lookup.known)
        check.add_ref("NS004", ref, message, f"{parent}.{guess}" if guess else None)
    else:
        check.add_ref("NS004", ref, f"'{parent}' holds {lookup.holder}; it has no field '{bad}'")


def _check_written_value(check: FileCheck, data: dict[str, Any], ref: VarRef) -> None:
    args_where = ref.where[:-1]
    args = value_at(data, args_where)
    if not isinstance(args, Mapping) or args.get("value") is None:
        return  # no value (or null) clears the variable: nothing to match against a schema
    value = args["value"]
    value_where = (*args_where, "value")
    for problem in check.scheme.value_problems(ref.variable, ref.fields, value):
        message = (
            f"value written to {ref.path} does not match its schema at "
            f"{problem.json_path}: {problem.message}"
        )
        check.add("NS005", (*value_where, *problem.path), message)
    for path, key, fields in check.scheme.extra_fields(ref.variable, ref.fields, value):
        where = ".".join([ref.path, *(str(p) for p in path[:-1])])
        guess = did_you_mean(key, fields)
        message = f"field '{key}' written to {where} is not in its schema"
        check.add("NS004", (*value_where, *path), message, guess)
