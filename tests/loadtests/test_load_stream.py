"""``loadtests run`` with only the streamed journey: real Locust processes, a real server.

Locust is never imported into the test process (it patches the standard library for gevent).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ONLY_STREAMS = {
    "LOADTEST_WEIGHT_JOURNEY": "0",
    "LOADTEST_WEIGHT_LIST": "0",
    "LOADTEST_WEIGHT_PIN": "0",
    "LOADTEST_WEIGHT_RENAME": "0",
    "LOADTEST_WEIGHT_DELETE": "0",
    "LOADTEST_WEIGHT_STREAM": "1",
    "LOADTEST_THINK_MIN": "0.05",
    "LOADTEST_THINK_MAX": "0.2",
}


def test_streamed_journeys_record_first_byte_and_final_line_times(tmp_path: Path) -> None:
    out = tmp_path / "stream"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "loadtests.cli",
            "run",
            *("--scenario", "conversation", "--users", "2", "--spawn-rate", "2"),
            *("--run-time", "6s", "--out", str(out)),
        ],
        capture_output=True,
        text=True,
        timeout=400,
        env={**os.environ, **ONLY_STREAMS},
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    runs = {row["name"]: row for row in summary["requests"] if "execAgent" in row["name"]}
    assert "/api/exec/execAgent [new, stream]" in runs
    assert all(name.endswith(", stream]") for name in runs), sorted(runs)
    assert summary["totals"]["failures"] == 0
    histograms = summary["state_us"]
    first, final = histograms["stream first-byte"], histograms["stream final-line"]
    assert first["count"] > 0 and first["count"] == final["count"]
    assert 0 < first["p50_us"] <= final["p50_us"]
    assert histograms["server run"]["count"] > 0  # the phases, from the trailing trace lines
