"""Report formats of the conformance check: text, json, sarif, junit, github."""

from __future__ import annotations

from ..findings import Report, Severity
from .github import render_github
from .json_report import parse_json, render_json
from .junit import render_junit
from .sarif import render_sarif, to_sarif
from .text import render_text

FORMATS = ("text", "json", "sarif", "junit", "github")


def render(report: Report, fmt: str, fail_on: Severity = Severity.ERROR) -> str:
    """The report in format ``fmt`` (one of FORMATS); ValueError for another name."""
    if fmt == "text":
        return render_text(report)
    if fmt == "json":
        return render_json(report)
    if fmt == "sarif":
        return render_sarif(report)
    if fmt == "junit":
        return render_junit(report, fail_on)
    if fmt == "github":
        return render_github(report)
    raise ValueError(f"unknown format '{fmt}': one of {', '.join(FORMATS)}")


__all__ = ["FORMATS", "parse_json", "render", "to_sarif"]
