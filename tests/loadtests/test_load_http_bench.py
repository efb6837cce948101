"""`loadtests bench-http`: it runs end to end and prints its figures (no timing asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_agents import write_account

from loadtests.http_bench import run_http_bench


@pytest.mark.slow
def test_bench_http_prints_throughput_and_percentiles(tmp_path: Path) -> None:
    account_dir = write_account(tmp_path / "account")
    lines: list[str] = []
    code = run_http_bench(
        requests=12,
        concurrency=2,
        store_url="memory://",
        account_dir=str(account_dir),
        out=lines.append,
    )
    text = "\n".join(lines)
    assert code == 0, text
    assert lines[0].startswith("bench-http: 12 execAgent requests, concurrency 2, 1 worker(s)")
    assert "requests/s" in text
    assert "failures    0" in text
    for phase in ("restore", "run", "serialize", "encrypt", "write"):
        assert f"server {phase}" in text


def test_bench_http_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        run_http_bench(requests=0, concurrency=1)
