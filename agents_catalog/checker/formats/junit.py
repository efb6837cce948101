"""JUnit XML: one testsuite, one testcase per file, one failure per finding.

Findings at or above ``fail_on`` are ``<failure>`` elements (so the test report agrees
with the exit code); findings below it are listed in the testcase's ``<system-out>``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..findings import Report, Severity
from .text import format_finding

SUITE_NAME = "agents-catalog check"


def render_junit(report: Report, fail_on: Severity = Severity.ERROR) -> str:
    failing_files = 0
    cases = []
    for file in report.files:
        case = ET.Element("testcase", classname="agents-catalog", name=file, file=file)
        notes = []
        failed = False
        for finding in report.for_file(file):
            if finding.severity.at_least(fail_on):
                failed = True
                failure = ET.SubElement(
                    case,
                    "failure",
                    type=finding.rule_id,
                    message=f"{finding.line}:{finding.column}: {finding.message}",
                )
                failure.text = format_finding(finding)
            else:
                notes.append(format_finding(finding))
        if notes:
            ET.SubElement(case, "system-out").text = "\n".join(notes)
        failing_files += failed
        cases.append(case)
    counts = {
        "name": SUITE_NAME,
        "tests": str(len(report.files)),
        "failures": str(failing_files),
        "errors": "0",
        "skipped": "0",
    }
    root = ET.Element("testsuites", counts)
    suite = ET.SubElement(root, "testsuite", counts)
    suite.extend(cases)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
