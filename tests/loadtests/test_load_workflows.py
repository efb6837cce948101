"""``loadtests run --scenario workflows``: approvals under load, each delivered exactly once.

A real run: a server on a free loopback port with the shipped account, whose workflow agents are
part of it, and Locust in a subprocess for a few seconds (Locust is never imported into the test
process).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
TIMEOUT_S = 400


def test_approved_actions_are_delivered_exactly_once_under_load(tmp_path: Path) -> None:
    out = tmp_path / "workflows"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "loadtests.cli",
            "run",
            "--scenario",
            "workflows",
            "--users",
            "3",
            "--spawn-rate",
            "3",
            "--run-time",
            "4s",
            "--out",
            str(out),
            "--max-fail-ratio",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env={
            **os.environ,
            "LOADTEST_THINK_MIN": "0.01",
            "LOADTEST_THINK_MAX": "0.05",
        },
    )
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    rows = {row["name"]: row for row in summary["requests"]}
    for name in (
        "/api/harness/createAction",
        "/api/harness/approveAction",
        "outbox [exactly once]",
        "/api/harness/advanceWorkflow",
    ):
        assert rows[name]["requests"] > 0, name
    assert summary["totals"]["failures"] == 0
