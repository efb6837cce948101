"""``loadtests run --scenario channels``: email and IM senders come back to their conversation.

A real run for a few seconds (Locust subprocesses and a server on a free loopback port): a
returning sender put into another conversation is a failed request, so 0 failures with
returning requests proves they all resumed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_returning_senders_resume_their_conversations(tmp_path: Path) -> None:
    out = tmp_path / "channels"
    done = subprocess.run(
        [sys.executable, "-m", "loadtests.cli", "run", "--scenario", "channels", "--users", "4",
         "--spawn-rate", "4", "--run-time", "6s", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=400,
        env={**os.environ, "LOADTEST_SENDERS": "3", "LOADTEST_THINK_MIN": "0.05",
             "LOADTEST_THINK_MAX": "0.2"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    counts = {row["name"]: row["requests"] for row in summary["requests"]}
    returning = sum(n for name, n in counts.items() if name.endswith("return]"))
    assert returning > 0, counts
    assert summary["totals"]["failures"] == 0
