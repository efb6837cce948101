"""The naming-scheme conformance checker (docs/naming-scheme.md).

    from agents_catalog.checker import check_paths, check_text, default_account_dir
    report = check_paths(["agents/"], account_dir=default_account_dir())
    print(render(report, "text")); exit_code = 1 if report.fails(Severity.ERROR) else 0

Rules live in ``rules`` (ids NS001...), per-file checks in ``checks``, cross-file checks
in ``account``, output formats in ``formats``.
"""

from __future__ import annotations

from ..loader import default_account_dir
from .account import AccountIndex
from .engine import (
    check_paths,
    check_sources,
    check_text,
    discover,
    load_account_index,
)
from .findings import Finding, Report, Severity, Summary
from .formats import FORMATS, render
from .rules import BY_ID, RULES, Rule, find_rule, select_rules
from .source import InputError
from .values import CompiledScheme

__all__ = [
    "BY_ID",
    "FORMATS",
    "RULES",
    "AccountIndex",
    "CompiledScheme",
    "Finding",
    "InputError",
    "Report",
    "Rule",
    "Severity",
    "Summary",
    "check_paths",
    "check_sources",
    "check_text",
    "default_account_dir",
    "discover",
    "find_rule",
    "load_account_index",
    "render",
    "select_rules",
]
