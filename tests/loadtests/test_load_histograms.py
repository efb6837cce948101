"""Microsecond histograms: percentiles within their bucket width, exact merges, serialization."""

from __future__ import annotations

import json

import numpy as np
import pytest

from loadtests.histograms import RELATIVE_WIDTH, HistogramSet, LogHistogram


def _filled(values: np.ndarray) -> LogHistogram:
    hist = LogHistogram()
    hist.record_many_us(values.tolist())
    return hist


def test_percentiles_are_within_the_bucket_width_of_the_exact_ones() -> None:
    values = np.random.default_rng(3).lognormal(mean=5, sigma=1.5, size=20_000)
    hist = _filled(values)
    for p in (50, 95, 99, 99.9):
        exact = float(np.percentile(values, p, method="inverted_cdf"))
        assert hist.percentile(p) == pytest.approx(exact, rel=RELATIVE_WIDTH)
    assert hist.count == values.size
    assert hist.min_us == pytest.approx(values.min())
    assert hist.max_us == pytest.approx(values.max())


def test_merge_equals_recording_everything_in_one() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.lognormal(4, 1, 3000), rng.lognormal(7, 0.5, 1000)
    merged = _filled(a)
    merged.merge(_filled(b))
    whole = _filled(np.concatenate([a, b]))
    assert np.array_equal(merged.counts, whole.counts)
    assert merged.summary() == whole.summary()


def test_serialized_form_round_trips_through_json() -> None:
    hist = _filled(np.array([0.05, 1.0, 42.0, 42.1, 9e6]))
    copy = LogHistogram.from_dict(json.loads(json.dumps(hist.to_dict())))
    assert np.array_equal(copy.counts, hist.counts)
    assert copy.summary() == hist.summary()
    assert LogHistogram.from_dict(LogHistogram().to_dict()).count == 0


def test_histogram_sets_merge_by_name() -> None:
    worker_a, worker_b, master = HistogramSet(), HistogramSet(), HistogramSet()
    worker_a.record_us("save 16KB", 100.0)
    worker_b.record_us("save 16KB", 300.0)
    worker_b.record_us("restore 16KB", 50.0)
    for shipped in (worker_a.to_dict(), worker_b.to_dict()):
        master.merge(HistogramSet.from_dict(json.loads(json.dumps(shipped))))
    summary = master.summary()
    assert summary["save 16KB"]["count"] == 2
    assert summary["restore 16KB"]["count"] == 1
    assert set(summary["save 16KB"]) >= {"p50_us", "p95_us", "p99_us", "p99_9_us"}


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {
            "buckets": [1],
            "counts": [1, 2],
            "count": 3,
            "total_us": 1.0,
            "min_us": 1.0,
            "max_us": 1.0,
        },
        {
            "buckets": [10**9],
            "counts": [1],
            "count": 1,
            "total_us": 1.0,
            "min_us": 1.0,
            "max_us": 1.0,
        },
    ],
)
def test_malformed_serialized_histograms_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError, match="histogram"):
        LogHistogram.from_dict(bad)


@pytest.mark.parametrize("value", [-1.0, float("nan"), float("inf")])
def test_invalid_durations_are_refused(value: float) -> None:
    with pytest.raises(ValueError):
        LogHistogram().record_us(value)
