"""Findings of the conformance check, and the report that collects them.

A report survives a JSON round trip: ``Report.from_dict(report.to_dict()) == report``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

_RANK = {"info": 0, "warning": 1, "error": 2}


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return _RANK[self.value]

    def at_least(self, other: Severity) -> bool:
        return self.rank >= other.rank


@dataclass(frozen=True)
class Finding:
    """One rule broken at one place (1-based line and column)."""

    rule_id: str
    severity: Severity
    file: str
    line: int
    column: int
    message: str
    suggestion: str | None = None

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.file, self.line, self.column, self.rule_id, self.message)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule_id,
            "severity": self.severity.value,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "suggestion": self.suggestion,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        """Rebuild a finding from ``to_dict`` output; ValueError when it is not one."""
        try:
            finding = cls(
                rule_id=str(data["rule"]),
                severity=Severity(data["severity"]),
                file=str(data["file"]),
                line=int(data["line"]),
                column=int(data["column"]),
                message=str(data["message"]),
                suggestion=None if data.get("suggestion") is None else str(data["suggestion"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a finding: {exc}") from exc
        return finding


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else (plural or word + 's')}"


@dataclass(frozen=True)
class Summary:
    files: int
    errors: int
    warnings: int
    info: int

    def __str__(self) -> str:
        return (
            f"{_plural(self.files, 'file')} checked, {_plural(self.errors, 'error')}, "
            f"{_plural(self.warnings, 'warning')}, {self.info} info"
        )

    def to_dict(self) -> dict[str, int]:
        return {
            "files": self.files,
            "errors": self.errors,
            "warnings": self.warnings,
            "info": self.info,
        }


@dataclass(frozen=True)
class Report:
    """The files checked (display names, in order) and every finding, sorted."""

    files: tuple[str, ...]
    findings: tuple[Finding, ...]

    @classmethod
    def build(cls, files: list[str], findings: list[Finding]) -> Report:
        return cls(tuple(files), tuple(sorted(findings, key=Finding.sort_key)))

    def summary(self) -> Summary:
        count = {s: 0 for s in Severity}
        for finding in self.findings:
            count[finding.severity] += 1
        return Summary(
            len(self.files), count[Severity.ERROR], count[Severity.WARNING], count[Severity.INFO]
        )

    def fails(self, fail_on: Severity) -> bool:
        """Whether any finding is at or above ``fail_on``."""
        return any(f.severity.at_least(fail_on) for f in self.findings)

    def for_file(self, file: str) -> list[Finding]:
        return [f for f in self.findings if f.file == file]

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": self.summary().to_dict(),
            "files": list(self.files),
            "findings": [f.to_dict() for f in self.findings],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        """Rebuild a report from ``to_dict`` output; ValueError when it is not one."""
        if not isinstance(data, dict):
            raise ValueError("not a report: expected a JSON object")
        files, findings = data.get("files"), data.get("findings")
        if not isinstance(files, list) or not isinstance(findings, list):
            raise ValueError("not a report: 'files' and 'findings' must be lists")
        return cls(
            tuple(str(f) for f in files),
            tuple(Finding.from_dict(item) for item in findings),
        )
