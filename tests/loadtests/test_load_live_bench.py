"""The demo's live benchmark: the vault's save / restore, timed per size and operation."""

from __future__ import annotations

import json

import pytest

from loadtests.live_bench import SIZES, percentile_rows, run_benchmark
from loadtests.states import build_state


@pytest.mark.parametrize("label", list(SIZES))
def test_benchmark_states_have_about_the_asked_size(label: str) -> None:
    size = len(json.dumps(build_state(SIZES[label])))
    assert SIZES[label] * 0.9 <= size <= SIZES[label] * 1.1


def test_benchmark_measures_every_operation_per_size(tmp_path) -> None:
    samples = run_benchmark(["1 KB", "10 KB"], 3, folder=tmp_path)
    assert len(samples) == 2 * 3 * 3
    rows = percentile_rows(samples)
    assert {(r["size"], r["operation"]) for r in rows} == {
        (s, o) for s in ("1 KB", "10 KB") for o in ("encrypt", "save", "restore")
    }
    assert all(r["p50 µs"] <= r["p99 µs"] <= r["max µs"] for r in rows)
    assert list(tmp_path.iterdir()) == []  # the temporary store is removed


@pytest.mark.parametrize(("sizes", "repetitions"), [(["2 GB"], 3), (["1 KB"], 0)])
def test_benchmark_refuses_bad_settings(sizes: list[str], repetitions: int) -> None:
    with pytest.raises(ValueError):
        run_benchmark(sizes, repetitions)
