"""The HTTP ceiling: a short conversation run and its ceiling run on the same embedded server
(loopback, a few seconds each), the ratios printed, and the summary's own arithmetic."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from loadtests.cli import main
from loadtests.summary import SUMMARY_KEYS, ceiling_figures, format_summary

TIMEOUT_S = 400


@pytest.mark.slow
def test_a_conversation_run_with_its_ceiling_prints_both_ratios(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "loadtests.cli", "run", "--scenario", "conversation"),
            *("--with-ceiling", "--think", "0", "--users", "2", "--spawn-rate", "2"),
            *("--run-time", "2s", "--out", str(out)),
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env={**os.environ, "LOADTEST_MAX_FOLLOWUPS": "1"},
    )
    assert done.returncode == 0, done.stderr
    ceiling = json.loads((out / "ceiling" / "summary.json").read_text())
    assert ceiling["scenario"] == "ceiling" and set(ceiling) == set(SUMMARY_KEYS)
    assert {row["name"] for row in ceiling["requests"]} == {"/api/harness/ping"}
    assert ceiling["totals"]["failures"] == 0 and ceiling["agents"] is None
    figure = ceiling["ceiling"]["rps"]
    assert figure == ceiling["totals"]["rps"] > 0
    # The same server: the ceiling ran against the scenario's embedded server, then it stopped.
    summary = json.loads((out / "summary.json").read_text())
    assert ceiling["configuration"]["host"] == summary["configuration"]["host"]
    assert summary["ceiling"]["rps"] == figure and summary["ceiling"]["saturating"] is True
    ratios = summary["ceiling"]["ratios"]
    assert ratios["rps_over_ceiling"] == pytest.approx(summary["totals"]["rps"] / figure, abs=1e-3)
    exec_rps = summary["totals"]["exec_agent_rps"]
    assert ratios["exec_agent_rps_over_ceiling"] == pytest.approx(exec_rps / figure, abs=1e-3)
    assert "HTTP ceiling:" in done.stdout
    assert "conversation req/s ÷ ceiling:" in done.stdout
    assert "execAgent/s ÷ ceiling:" in done.stdout


def test_with_ceiling_needs_an_http_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for scenario in ("store", "ceiling"):
        code = main(
            [
                *("run", "--scenario", scenario, "--with-ceiling", "--users", "1"),
                *("--run-time", "1s", "--out", str(tmp_path / scenario)),
            ]
        )
        err = capsys.readouterr().err
        assert code == 2 and "--with-ceiling goes with an HTTP scenario" in err
        assert not (tmp_path / scenario).exists()  # refused before anything was written


def totals(rps: float, exec_rps: float, requests: int = 100, failures: int = 0) -> dict[str, Any]:
    return {
        "requests": requests,
        "failures": failures,
        "fail_ratio": failures / requests,
        "rps": rps,
        "exec_agent_rps": exec_rps,
        "p50_ms": 1.0,
        "p95_ms": 2.0,
        "p99_ms": 3.0,
    }


def test_the_ceiling_counts_only_answered_pings_and_divides_the_runs_by_it() -> None:
    saturating = {"think": [0.0, 0.0], "rate": None}
    own = ceiling_figures("ceiling", {}, totals(2000.0, 0.0, requests=100, failures=10), None)
    assert own == {"rps": 1800.0, "source": "this run", "saturating": True, "ratios": None}
    figures = ceiling_figures("conversation", saturating, totals(800.0, 380.0), (2000.0, "c"))
    assert figures is not None
    assert figures["ratios"] == {"rps_over_ceiling": 0.4, "exec_agent_rps_over_ceiling": 0.19}
    assert ceiling_figures("conversation", saturating, totals(800.0, 380.0), None) is None
    paced = ceiling_figures(
        "conversation", {"think": None, "rate": 50}, totals(80, 40), (2000, "c")
    )
    assert paced is not None and paced["saturating"] is False
    workflows = ceiling_figures("workflows", saturating, totals(500.0, 0.0), (2000.0, "c"))
    assert workflows is not None and workflows["ratios"]["exec_agent_rps_over_ceiling"] is None

    def printed(scenario: str, figures: dict[str, Any] | None, run: dict[str, Any]) -> str:
        summary = {"scenario": scenario, "totals": run, "state_us": {}, "ceiling": figures}
        return format_summary(summary)

    text = printed("conversation", figures, totals(800.0, 380.0))
    assert "conversation req/s ÷ ceiling: 800.0 ÷ 2000.0 = 0.40" in text
    assert "execAgent/s ÷ ceiling: 380.0 ÷ 2000.0 = 0.19" in text
    assert "say little" not in text
    assert "say little; --think 0 saturates" in printed("conversation", paced, totals(80, 40))
    text = printed("workflows", workflows, totals(500.0, 0.0))
    assert (
        "workflows req/s ÷ ceiling: 500.0 ÷ 2000.0 = 0.25" in text and "execAgent/s ÷" not in text
    )
    assert "HTTP ceiling: 1800.0 req/s" in printed("ceiling", own, totals(2000.0, 0.0, 100, 10))
