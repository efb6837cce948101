"""The state of checking one file: where findings are placed and collected."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..graph import VarRef, YamlPath
from .findings import Finding
from .rules import BY_ID
from .source import SourceFile
from .values import CompiledScheme


@dataclass
class FileCheck:
    source: SourceFile
    scheme: CompiledScheme
    findings: list[Finding] = field(default_factory=list)

    def add(
        self,
        rule_id: str,
        where: YamlPath,
        message: str,
        suggestion: str | None = None,
        needle: str | None = None,
        occurrence: int = 0,
    ) -> None:
        """Report ``rule_id`` at the value at ``where`` (at ``needle`` inside it if given)."""
        line, column = self.source.locate(where, needle, occurrence)
        self.add_at(rule_id, line, column, message, suggestion)

    def add_at(
        self, rule_id: str, line: int, column: int, message: str, suggestion: str | None = None
    ) -> None:
        rule = BY_ID[rule_id]
        self.findings.append(
            Finding(rule_id, rule.severity, self.source.name, line, column, message, suggestion)
        )

    def add_ref(
        self, rule_id: str, ref: VarRef, message: str, suggestion: str | None = None
    ) -> None:
        self.add(rule_id, ref.where, message, suggestion, ref.placeholder, max(ref.occurrence, 0))


def value_at(data: Any, where: YamlPath) -> Any:
    """The raw value at a YAML path, or None when the path does not exist."""
    node = data
    for part in where:
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return None
    return node
