"""``loadtests bench-engine``: every phase it prints is one the account reports."""

from __future__ import annotations

import re

from loadtests.engine_bench import run_engine_bench


def test_every_phase_of_a_follow_up_is_timed(capsys) -> None:
    assert run_engine_bench(runs=14) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.match(r"engine follow-ups on sqlite: \d+ runs", lines[0])
    medians = {}
    for line in lines[1:]:
        name, p50 = re.match(r"\s+(\w+)\s+p50\s+(\d+) us", line).groups()
        medians[name] = int(p50)
    assert list(medians) == ["total", "restore", "run", "serialize", "encrypt", "write"]
    # A follow-up restores, runs and saves a state: no phase takes no time at all.
    assert all(value > 0 for value in medians.values()), medians
