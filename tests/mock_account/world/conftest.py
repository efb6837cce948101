"""Print what the world suites checked (journeys, facts, contradictions) after every run."""

from __future__ import annotations

from typing import Any

from handoff_journeys import SUMMARY


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SUMMARY:
        terminalreporter.section("the mock world honours what people say")
        for line in SUMMARY:
            terminalreporter.write_line(line)
