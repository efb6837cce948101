"""The world suites' account (one per module, on a pinned day), and the report of what they
checked (journeys, facts, contradictions) printed after every run."""

from __future__ import annotations

from typing import Any

import pytest
from handoff_journeys import SUMMARY, pinned_deployment


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    deployment = pinned_deployment(tmp_path_factory.mktemp("world"))
    yield deployment
    deployment.close()


@pytest.fixture(scope="module")
def user(deployment):
    return next(u for u in deployment.users.users if u.account == "acme")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SUMMARY:
        terminalreporter.section("the mock world honours what people say")
        for line in SUMMARY:
            terminalreporter.write_line(line)
