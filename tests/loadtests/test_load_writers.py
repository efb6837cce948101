"""``loadtests writers``: a tiny bounded measurement on the embedded stores, and usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loadtests.writers import main


def test_tiny_measurement_prints_a_table_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "writers.json"
    code = main(
        [
            "--stores",
            "memory,sqlite",
            "--threads",
            "1,4",
            "--seconds",
            "0.3",
            "--state-kb",
            "2",
            "--batch",
            "16",
            "--json",
            str(out),
        ]
    )

    assert code == 0
    text = capsys.readouterr().out
    assert "one at a time" in text and "batching" in text
    rows = [line.split() for line in text.splitlines() if line.startswith(("memory", "sqlite"))]
    assert [(r[0], r[1]) for r in rows] == [
        ("memory", "1"),
        ("memory", "4"),
        ("sqlite", "1"),
        ("sqlite", "4"),
    ]
    result = json.loads(out.read_text())
    assert result["state_kb"] == 2 and result["batch"]["max_batch"] == 16
    assert result["stored_bytes"] > result["plain_bytes"] >= 2048  # encrypted: nonce and tag
    for cell in result["cells"]:
        for mode in ("single", "batch"):
            assert cell[mode]["errors"] == 0
            assert cell[mode]["saves"] > 0
            assert cell[mode]["p99_us"] >= cell[mode]["p50_us"] > 0
        batch = cell["batch"]
        if cell["threads"] == 1:  # a lone writer has nothing to batch: straight to the store
            assert batch["mean_batch"] == 0 and batch["direct_saves"] >= batch["saves"]
        else:
            assert batch["largest_batch"] <= min(cell["threads"], 16)
        assert cell["gain"] == pytest.approx(  # rounded to two decimals
            cell["batch"]["saves_per_s"] / cell["single"]["saves_per_s"], abs=0.006
        )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--stores", "oracle"], "unknown store 'oracle'"),
        (["--threads", "0"], "at least 1"),
        (["--seconds", "-1"], "expected 0 < seconds"),
        (["--state-kb", "big"], "whole number"),
        (["--batch-wait-us", "-5"], "must not be negative"),
    ],
)
def test_bad_arguments_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_unreachable_store_named_explicitly_fails_clearly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(
        [
            "--stores",
            "redis",
            "--redis-url",
            "redis://127.0.0.1:1/0?socket_connect_timeout=1",
            "--threads",
            "1",
            "--seconds",
            "0.1",
            "--state-kb",
            "1",
        ]
    )
    assert code == 1
    captured = capsys.readouterr()
    assert "redis: FAILED (Redis at 127.0.0.1:1/0 is unavailable" in captured.out
    assert "Traceback" not in captured.err
