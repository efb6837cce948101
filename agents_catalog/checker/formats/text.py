"""Readable text: one ``file:line:col: severity ID message`` line per finding, then a summary.

Quiet when all is well: a clean report prints only the summary line.
"""

from __future__ import annotations

from ..findings import Finding, Report


def format_finding(finding: Finding) -> str:
    hint = f" (did you mean {finding.suggestion}?)" if finding.suggestion else ""
    return (
        f"{finding.file}:{finding.line}:{finding.column}: {finding.severity.value} "
        f"{finding.rule_id} {finding.message}{hint}"
    )


def render_text(report: Report) -> str:
    lines = [format_finding(f) for f in report.findings]
    lines.append(str(report.summary()))
    return "\n".join(lines) + "\n"
