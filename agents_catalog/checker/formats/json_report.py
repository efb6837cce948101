"""JSON: ``{"summary": ..., "files": [...], "findings": [...]}``, readable back with parse_json."""

from __future__ import annotations

import json

from ..findings import Report


def render_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"


def parse_json(text: str) -> Report:
    """A report from ``render_json`` output; ValueError when the text is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from exc
    return Report.from_dict(data)
