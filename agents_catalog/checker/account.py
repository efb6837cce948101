"""Checks across files: hand-offs against the account, and duplicate agent names.

The account index records which files write and which read each conversation variable.
It is built from the account folder plus the files being checked (each file once, by
key), so a new agent is checked as if it had been added to the account.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..graph import VarRef
from .context import FileCheck
from .findings import Finding
from .source import SourceFile
from .values import CompiledScheme


@dataclass
class AccountIndex:
    """Variable -> keys of the files (agents) that write / read it."""

    writers: dict[str, set[str]] = field(default_factory=dict)
    readers: dict[str, set[str]] = field(default_factory=dict)
    keys: set[str] = field(default_factory=set)

    def add(self, key: str, refs: Iterable[VarRef]) -> None:
        """Record one file's references; a key already recorded is not counted twice."""
        if key in self.keys:
            return
        self.keys.add(key)
        for ref in refs:
            table = self.writers if ref.access == "write" else self.readers
            table.setdefault(ref.variable, set()).add(key)

    def copy(self) -> AccountIndex:
        return AccountIndex(
            {k: set(v) for k, v in self.writers.items()},
            {k: set(v) for k, v in self.readers.items()},
            set(self.keys),
        )


def check_handoffs(
    source: SourceFile, scheme: CompiledScheme, index: AccountIndex
) -> list[Finding]:
    """Reads nobody writes (NS006) and writes nobody reads (NS007), once per variable."""
    check = FileCheck(source, scheme)
    agreed = scheme.scheme.variables
    reported: set[tuple[str, str]] = set()
    for ref in source.refs:
        if ref.variable not in agreed or (ref.access, ref.variable) in reported:
            continue
        reported.add((ref.access, ref.variable))
        if ref.access == "read" and not index.writers.get(ref.variable):
            message = f"conv.{ref.variable} is read but no agent of the account writes it"
            check.add_ref("NS006", ref, message)
        elif ref.access == "write" and not index.readers.get(ref.variable):
            message = f"conv.{ref.variable} is written but no agent of the account reads it"
            check.add_ref("NS007", ref, message)
    return check.findings


def check_duplicate_names(sources: list[SourceFile], scheme: CompiledScheme) -> list[Finding]:
    """Agents of the same name among the files checked (NS012), reported in each file."""
    by_name: dict[str, list[SourceFile]] = {}
    for source in sources:
        if source.agent_name:
            by_name.setdefault(source.agent_name, []).append(source)
    findings: list[Finding] = []
    for name, same in by_name.items():
        if len(same) < 2:
            continue
        for source in same:
            others = ", ".join(s.name for s in same if s is not source)
            check = FileCheck(source, scheme)
            check.add("NS012", ("name",), f"agent name '{name}' is also used by {others}")
            findings.extend(check.findings)
    return findings
