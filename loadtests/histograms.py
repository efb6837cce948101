"""Mergeable microsecond histograms with log-spaced buckets (numpy).

Locust rounds response times to whole milliseconds, but a state save takes tens of microseconds.
A :class:`LogHistogram` keeps counts in buckets whose width grows with the value (1% relative
width), from 0.1 µs to 1000 s, so percentiles are within 1% of the true value at any scale, the
memory is fixed (~2,300 counters) and two histograms merge by adding their counts. That is what
lets Locust workers ship their histograms to the master (see ``locust_support``).

    hist = LogHistogram()
    hist.record_us(42.0)
    hist.percentile(99)            # µs
    hist.merge(LogHistogram.from_dict(other.to_dict()))

:class:`HistogramSet` is a named family of them ("save 16KB", "server restore", ...).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

LOWEST_US = 0.1
HIGHEST_US = 1e9
RELATIVE_WIDTH = 0.01
_LOG_BASE = math.log1p(RELATIVE_WIDTH)
BUCKETS = int(math.ceil(math.log(HIGHEST_US / LOWEST_US) / _LOG_BASE)) + 1
REPORTED_PERCENTILES = (50.0, 95.0, 99.0, 99.9)


def _bucket(value_us: float) -> int:
    if value_us <= LOWEST_US:
        return 0
    return min(BUCKETS - 1, int(math.log(value_us / LOWEST_US) / _LOG_BASE) + 1)


def _bucket_value(index: int) -> float:
    """A representative value of a bucket: the geometric middle of its bounds."""
    if index == 0:
        return LOWEST_US
    return LOWEST_US * math.exp((index - 0.5) * _LOG_BASE)


class LogHistogram:
    """Counts of microsecond values in log-spaced buckets, plus exact count, sum, min and max."""

    def __init__(self) -> None:
        self.counts = np.zeros(BUCKETS, dtype=np.int64)
        self.count = 0
        self.total_us = 0.0
        self.min_us = math.inf
        self.max_us = 0.0

    def record_us(self, value_us: float) -> None:
        if not math.isfinite(value_us) or value_us < 0:
            raise ValueError(f"a duration must be a finite, non-negative number, not {value_us!r}")
        self.counts[_bucket(value_us)] += 1
        self.count += 1
        self.total_us += value_us
        self.min_us = min(self.min_us, value_us)
        self.max_us = max(self.max_us, value_us)

    def record_many_us(self, values_us: Iterable[float]) -> None:
        for value in values_us:
            self.record_us(value)

    def merge(self, other: LogHistogram) -> None:
        self.counts += other.counts
        self.count += other.count
        self.total_us += other.total_us
        self.min_us = min(self.min_us, other.min_us)
        self.max_us = max(self.max_us, other.max_us)

    def percentile(self, p: float) -> float:
        """The value at percentile ``p`` (0..100) in µs, clamped to the exact min and max."""
        if not 0 <= p <= 100:
            raise ValueError(f"a percentile is between 0 and 100, not {p}")
        if self.count == 0:
            return math.nan
        rank = max(1, math.ceil(self.count * p / 100))
        index = int(np.searchsorted(np.cumsum(self.counts), rank))
        return min(self.max_us, max(self.min_us, _bucket_value(index)))

    def mean(self) -> float:
        return self.total_us / self.count if self.count else math.nan

    def summary(self, percentiles: Iterable[float] = REPORTED_PERCENTILES) -> dict[str, Any]:
        """``{"count", "mean_us", "min_us", "max_us", "p50_us", ...}`` rounded to 0.1 µs."""
        out: dict[str, Any] = {"count": self.count}
        if not self.count:
            return out
        out["mean_us"] = round(self.mean(), 1)
        out["min_us"] = round(self.min_us, 1)
        out["max_us"] = round(self.max_us, 1)
        for p in percentiles:
            out[f"p{p:g}_us".replace(".", "_")] = round(self.percentile(p), 1)
        return out

    def to_dict(self) -> dict[str, Any]:
        """A compact JSON/msgpack-ready form: only the non-empty buckets."""
        nonzero = np.flatnonzero(self.counts)
        return {
            "buckets": [int(i) for i in nonzero],
            "counts": [int(c) for c in self.counts[nonzero]],
            "count": self.count,
            "total_us": self.total_us,
            "min_us": self.min_us if self.count else None,
            "max_us": self.max_us,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LogHistogram:
        hist = cls()
        try:
            buckets = np.asarray(data["buckets"], dtype=np.int64)
            counts = np.asarray(data["counts"], dtype=np.int64)
            if buckets.shape != counts.shape or (
                buckets.size and (buckets.min() < 0 or buckets.max() >= BUCKETS or counts.min() < 0)
            ):
                raise ValueError("buckets and counts do not match this histogram's layout")
            np.add.at(hist.counts, buckets, counts)
            hist.count = int(data["count"])
            hist.total_us = float(data["total_us"])
            hist.min_us = math.inf if data["min_us"] is None else float(data["min_us"])
            hist.max_us = float(data["max_us"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a serialized histogram: {exc}") from exc
        if int(hist.counts.sum()) != hist.count:
            raise ValueError("not a serialized histogram: the counts do not add up")
        return hist


class HistogramSet:
    """Histograms by name, created on first use."""

    def __init__(self) -> None:
        self.histograms: dict[str, LogHistogram] = {}

    def get(self, name: str) -> LogHistogram:
        hist = self.histograms.get(name)
        if hist is None:
            hist = self.histograms[name] = LogHistogram()
        return hist

    def record_us(self, name: str, value_us: float) -> None:
        self.get(name).record_us(value_us)

    def merge(self, other: HistogramSet) -> None:
        for name, hist in other.histograms.items():
            self.get(name).merge(hist)

    def reset(self) -> None:
        self.histograms.clear()

    def __bool__(self) -> bool:
        return any(h.count for h in self.histograms.values())

    def to_dict(self) -> dict[str, Any]:
        return {name: hist.to_dict() for name, hist in self.histograms.items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HistogramSet:
        result = cls()
        for name, hist in data.items():
            result.histograms[str(name)] = LogHistogram.from_dict(hist)
        return result

    def summary(self) -> dict[str, dict[str, Any]]:
        return {name: self.histograms[name].summary() for name in sorted(self.histograms)}
