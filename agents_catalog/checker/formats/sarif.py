"""SARIF 2.1.0 for code scanning: the rules in ``tool.driver`` and one result per finding.

Artifact URIs are relative to the working directory (with ``uriBaseId`` ``%SRCROOT%``)
when the file lies under it, absolute ``file:`` URIs otherwise. Each result carries a
partial fingerprint built from rule, file, message and its occurrence, not from the line,
so a finding keeps its identity when lines move above it.
"""

from __future__ import annotations

import hashlib
import json
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..findings import Finding, Report, Severity
from ..rules import RULES

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "agentsCatalogFinding/v1"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_RULE_INDEX = {rule.id: index for index, rule in enumerate(RULES)}


def _version() -> str:
    try:
        return metadata.version("conversation-state-harness")
    except metadata.PackageNotFoundError:
        return "0.0.0"


def artifact_location(file: str, root: Path | None = None) -> dict[str, str]:
    path = Path(file)
    base = (root or Path.cwd()).resolve()
    try:
        relative = path.resolve().relative_to(base) if path.is_absolute() or path.exists() else path
    except ValueError:
        return {"uri": path.resolve().as_uri()}
    return {"uri": quote(relative.as_posix()), "uriBaseId": "%SRCROOT%"}


def _root_uri(root: Path | None) -> str:
    return (root or Path.cwd()).resolve().as_uri().rstrip("/") + "/"


def _rule(rule: Any) -> dict[str, Any]:
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.checks},
        "help": {"text": rule.doc(), "markdown": rule.markdown()},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"tags": ["naming-scheme"]},
    }


def _result(finding: Finding, location: dict[str, str], occurrence: int) -> dict[str, Any]:
    text = finding.message
    if finding.suggestion:
        text += f" (did you mean {finding.suggestion}?)"
    identity = "\x1f".join([finding.rule_id, location["uri"], finding.message])
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:32]
    result: dict[str, Any] = {
        "ruleId": finding.rule_id,
        "level": _LEVEL[finding.severity],
        "message": {"text": text},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": location,
                    "region": {"startLine": finding.line, "startColumn": finding.column},
                }
            }
        ],
        "partialFingerprints": {FINGERPRINT_KEY: f"{digest}:{occurrence}"},
    }
    if finding.rule_id in _RULE_INDEX:
        result["ruleIndex"] = _RULE_INDEX[finding.rule_id]
    return result


def to_sarif(report: Report, root: Path | None = None) -> dict[str, Any]:
    locations = {file: artifact_location(file, root) for file in report.files}
    seen: dict[tuple[str, str, str], int] = {}
    results = []
    for finding in report.findings:
        location = locations.get(finding.file) or artifact_location(finding.file, root)
        identity = (finding.rule_id, location["uri"], finding.message)
        seen[identity] = seen.get(identity, 0) + 1
        results.append(_result(finding, location, seen[identity]))
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "agents-catalog",
                        "version": _version(),
                        "rules": [_rule(rule) for rule in RULES],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "originalUriBaseIds": {"%SRCROOT%": {"uri": _root_uri(root)}},
                "results": results,
            }
        ],
    }


def render_sarif(report: Report, root: Path | None = None) -> str:
    return json.dumps(to_sarif(report, root), indent=2, ensure_ascii=False) + "\n"
