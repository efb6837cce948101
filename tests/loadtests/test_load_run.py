"""``loadtests run``: each user class for a few seconds, distributed mode, reports, thresholds.

The runs are real: Locust subprocesses (and, for conversations, a real server on a free loopback
port), kept to a few seconds each. Locust is never imported into the test process itself, since
it patches the standard library for gevent.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from loadtests.cli import main
from loadtests.runner import add_run_arguments, default_out
from loadtests.summary import REQUEST_KEYS, SUMMARY_KEYS, check_thresholds

pytestmark = pytest.mark.slow
TIMEOUT_S = 400


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "loadtests.cli", "run", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env={**os.environ, **(env or {})},
    )


def summary_of(out: Path) -> dict:
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary) == set(SUMMARY_KEYS)
    for row in summary["requests"]:
        assert set(row) == set(REQUEST_KEYS)
    assert summary["machine"]["cpus"] and summary["configuration"]["users"] >= 1
    for name in (
        "report.html",
        "locust_stats.csv",
        "locust_stats_history.csv",
        "latency_over_time.png",
        "latency_distribution.png",
    ):
        assert (out / name).stat().st_size > 0, name
    return summary


def test_store_users_save_and_restore_with_microsecond_histograms(tmp_path: Path) -> None:
    out = tmp_path / "store"
    done = run_cli(
        "--scenario",
        "store",
        "--users",
        "2",
        "--spawn-rate",
        "2",
        "--run-time",
        "2s",
        "--out",
        str(out),
        "--max-fail-ratio",
        "0",
        env={"LOADTEST_STATE_SIZES": "1KB,16KB"},
    )
    assert done.returncode == 0, done.stderr
    summary = summary_of(out)
    names = {row["name"] for row in summary["requests"]}
    assert names <= {"save 1KB", "save 16KB", "restore 1KB", "restore 16KB"}
    assert {row["type"] for row in summary["requests"]} == {"STATE"}
    assert summary["target"] is None and summary["agents"] is None  # no server: in process
    assert summary["totals"]["requests"] > 0 and summary["totals"]["failures"] == 0
    histograms = summary["state_us"]
    assert histograms["save 1KB encrypt"]["count"] > 0
    assert histograms["save 16KB"]["p99_9_us"] >= histograms["save 16KB"]["p50_us"] > 0
    assert "save 1KB" in done.stdout


def test_crypto_users_in_distributed_mode_merge_worker_histograms(tmp_path: Path) -> None:
    out = tmp_path / "crypto"
    done = run_cli(
        "--scenario",
        "crypto",
        "--users",
        "2",
        "--spawn-rate",
        "2",
        "--run-time",
        "4s",
        "--workers",
        "2",
        "--out",
        str(out),
        env={"LOADTEST_STATE_SIZES": "1KB,16KB"},
    )
    assert done.returncode == 0, done.stderr
    summary = summary_of(out)
    assert (out / "locust-worker-1.log").exists() and (out / "locust-worker-2.log").exists()
    requests = {row["name"]: row["requests"] for row in summary["requests"]}
    assert set(requests) <= {"encrypt 1KB", "encrypt 16KB", "decrypt 1KB", "decrypt 16KB"}
    # Every operation of both workers reached the master's histograms.
    counts = {name: h["count"] for name, h in summary["state_us"].items()}
    assert counts == requests


def test_conversations_against_a_started_server_and_a_failed_threshold(tmp_path: Path) -> None:
    out = tmp_path / "conversation"
    done = run_cli(
        "--scenario",
        "conversation",
        "--users",
        "3",
        "--spawn-rate",
        "3",
        "--run-time",
        "3s",
        "--out",
        str(out),
        "--max-p99-ms",
        "0.001",
        env={"LOADTEST_THINK_MIN": "0.05", "LOADTEST_THINK_MAX": "0.2"},
    )
    assert done.returncode == 1, done.stderr
    assert "threshold exceeded: p99 latency" in done.stderr and "--max-p99-ms" in done.stderr
    summary = summary_of(out)
    assert summary["thresholds"]["exceeded"]
    names = {row["name"] for row in summary["requests"]}
    assert {"/api/exec/search", "/api/exec/execAgent [new]"} <= names
    assert summary["totals"]["failures"] == 0
    assert summary["state_us"]["server write"]["count"] > 0
    assert summary["state_us"]["server restore"]["p50_us"] > 0
    assert summary["configuration"]["host"].startswith("http://127.0.0.1:")
    # What was measured: the server this run started, its store, what it says it is.
    target = summary["target"]
    assert target["url"] == summary["configuration"]["host"] and target["embedded"] is True
    assert (target["store"], target["store_url"], target["server"]) == ("sqlite", None, "uvicorn")
    assert summary["agents"]["in_folder"] == 200 and summary["agents"]["outside_folder"] == {}
    assert f"embedded server: {target['url']}" in done.stdout
    assert summary["configuration"]["server_workers"] == 1
    assert "1 worker)" in (out / "server.log").read_text()
    with pytest.raises(httpx.TransportError):  # stopped afterwards
        httpx.get(summary["configuration"]["host"] + "/health", timeout=2.0)
    runs = sum(r["requests"] for r in summary["requests"] if "execAgent" in r["name"])
    cpu = summary["server_cpu"]
    assert cpu["seconds"] > 0
    assert cpu["us_per_exec_agent"] == pytest.approx(cpu["seconds"] * 1e6 / runs, rel=1e-3)
    assert summary["totals"]["exec_agent_rps"] > 0
    assert "µs per execAgent" in done.stdout
    # The full history: the recent window's percentiles, per request name too.
    history = (out / "locust_stats_history.csv").read_text()
    assert "/api/exec/search" in history and "Aggregated" in history


def test_rate_paces_the_users_runs(tmp_path: Path) -> None:
    out = tmp_path / "paced"
    done = run_cli(
        *("--users", "2", "--spawn-rate", "2", "--run-time", "4s", "--rate", "2"),
        *("--out", str(out)),
    )
    assert done.returncode == 0, done.stderr
    summary = summary_of(out)
    assert summary["configuration"]["rate"] == 2 and summary["configuration"]["think"] is None
    runs = sum(r["requests"] for r in summary["requests"] if "execAgent" in r["name"])
    # Unpaced, with no think time, two users make hundreds of runs in 4 s. Paced at 2/s in
    # all: the run time, Locust's 5 s stop timeout (a journey under way finishes), the one
    # second a user may catch up, and a first slot each.
    assert 1 <= runs <= 2 * (4 + 5 + 1) + 2


def run_in_process(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Exit code and stderr of ``loadtests run`` for usage errors (no Locust process starts)."""
    try:
        code = main(["run", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--scenario", "nope"], "invalid choice"),
        (["--run-time", "soon"], "invalid run time"),
        (["--users", "0"], "at least 1"),
        (["--server-workers", "0"], "at least 1"),
    ],
)
def test_bad_run_usage_exits_2(
    tmp_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = {
        "--scenario": "store",
        "--users": "1",
        "--spawn-rate": "1",
        "--run-time": "1s",
        "--out": str(tmp_path),
    }
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    code, err = run_in_process([part for pair in base.items() for part in pair], capsys)
    assert code == 2 and message in err


def test_run_defaults_and_think_times() -> None:
    parser = argparse.ArgumentParser()
    add_run_arguments(parser)
    args = parser.parse_args([])
    assert (args.scenario, args.users, args.run_time, args.think, args.rate) == (
        "conversation",
        50,
        "60s",
        None,
        None,
    )
    assert parser.parse_args(["--think", "0"]).think == (0.0, 0.0)
    assert parser.parse_args(["--think", "0.5-2"]).think == (0.5, 2.0)
    with pytest.raises(SystemExit):
        parser.parse_args(["--think", "2-1"])
    with pytest.raises(SystemExit):
        parser.parse_args(["--rate", "0"])
    out = default_out(datetime(2026, 11, 30, 18, 5, 9))
    assert out == Path("out") / "run-20261130-180509"


def test_thresholds() -> None:
    totals = {"requests": 200, "failures": 3, "fail_ratio": 0.015, "p99_ms": 120.0}
    assert check_thresholds(totals, None, None) == []
    assert check_thresholds(totals, 0.02, 150) == []
    exceeded = check_thresholds(totals, 0.01, 100)
    assert len(exceeded) == 2
    assert "failure ratio 0.0150" in exceeded[0] and "3 of 200" in exceeded[0]
    assert "p99 latency 120 ms" in exceeded[1]
    assert check_thresholds({**totals, "requests": 0}, None, None) == [
        "no request completed during the run"
    ]


def test_a_bad_setting_is_reported_before_anything_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOADTEST_STATE_SIZES", "1KB,lots")
    code, err = run_in_process(
        [
            "--scenario",
            "crypto",
            "--users",
            "1",
            "--spawn-rate",
            "1",
            "--run-time",
            "1s",
            "--out",
            str(tmp_path),
        ],
        capsys,
    )
    assert code == 2
    assert "LOADTEST_STATE_SIZES: invalid size 'lots'" in err
    assert not (tmp_path / "locust.log").exists()
