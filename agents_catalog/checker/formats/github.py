"""GitHub Actions workflow commands: one ``::error file=...,line=...`` annotation per finding.

Values are escaped as the Actions toolkit does (``%``, CR, LF everywhere; also ``:`` and
``,`` in properties), so any message lands as one annotation.
"""

from __future__ import annotations

from ..findings import Finding, Report, Severity

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_annotation(finding: Finding) -> str:
    hint = f" (did you mean {finding.suggestion}?)" if finding.suggestion else ""
    props = ",".join(
        [
            f"file={_escape_property(finding.file)}",
            f"line={finding.line}",
            f"col={finding.column}",
            f"title={_escape_property(finding.rule_id)}",
        ]
    )
    return f"::{_COMMAND[finding.severity]} {props}::{_escape_data(finding.message + hint)}"


def render_github(report: Report) -> str:
    lines = [format_annotation(f) for f in report.findings]
    lines.append(str(report.summary()))
    return "\n".join(lines) + "\n"
