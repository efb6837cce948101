"""``loadtests run --scenario config-edit``: agents edited while conversations run, on a real
server with two processes, for a few seconds; no failure and no stale search after an edit."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from loadtests.edit_words import made_up_word

pytestmark = pytest.mark.slow


def test_made_up_words_are_distinct_letters() -> None:
    words = [made_up_word(n) for n in range(5000)]
    assert len(set(words)) == 5000
    assert all(w.isalpha() and w.islower() and w.startswith("quorv") for w in words)


def test_edits_while_conversations_run(tmp_path: Path) -> None:
    out = tmp_path / "config-edit"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "loadtests.cli",
            "run",
            "--scenario",
            "config-edit",
            "--users",
            "3",
            "--spawn-rate",
            "3",
            "--run-time",
            "8s",
            "--server-workers",
            "2",
            "--out",
            str(out),
            "--max-fail-ratio",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=400,
        env={**os.environ, "LOADTEST_THINK_MIN": "0.05", "LOADTEST_THINK_MAX": "0.2"},
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["totals"]["failures"] == 0
    with (out / "locust_stats.csv").open() as file:
        counts = {row["Name"]: int(row["Request Count"]) for row in csv.DictReader(file)}
    assert counts.get("/api/harness/saveAgentConfig", 0) > 0
    assert counts.get("/api/exec/search [after edit]", 0) > 0
    assert counts.get("/api/exec/execAgent [new]", 0) > 0
