"""PNG plots of a Locust run (matplotlib, no display needed).

- ``latency_over_time.png``: p50 / p95 / p99 of all requests over Locust's recent window (10 s,
  ``--csv-full-history``) and the throughput, from Locust's ``<prefix>_stats_history.csv``.
- ``latency_distribution.png``: the microsecond histograms (one line per operation, log scale),
  or, when the run kept none, p50 / p95 / p99 per request name.
"""

from __future__ import annotations

import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: never needs a display

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from loadtests.histograms import LOWEST_US, RELATIVE_WIDTH, HistogramSet  # noqa: E402

MAX_LINES = 10


def _float(text: str | None) -> float:
    try:
        return float(text) if text not in (None, "", "N/A") else np.nan
    except ValueError:
        return np.nan


def plot_over_time(history_csv: Path, target: Path) -> Path | None:
    """Latency percentiles and throughput over the run; ``None`` if there is no history."""
    if not history_csv.exists():
        return None
    with open(history_csv, newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r.get("Name") == "Aggregated"]
    if not rows:
        return None
    start = _float(rows[0]["Timestamp"])
    seconds = [_float(r["Timestamp"]) - start for r in rows]
    fig, (latency, rate) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    for column in ("50%", "95%", "99%"):
        latency.plot(seconds, [_float(r.get(column)) for r in rows], label=f"p{column[:-1]}")
    latency.set_ylabel("response time (ms)")
    latency.set_title("Latency over time (all requests, percentiles of the last 10 s)")
    latency.legend()
    latency.grid(alpha=0.3)
    rate.plot(seconds, [_float(r.get("Requests/s")) for r in rows], label="requests/s")
    rate.plot(seconds, [_float(r.get("Failures/s")) for r in rows], label="failures/s")
    rate.set_xlabel("seconds since start")
    rate.set_ylabel("per second")
    rate.legend()
    rate.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(target, dpi=100)
    plt.close(fig)
    return target


def _main_histograms(histograms: HistogramSet) -> list[str]:
    """Whole operations first (``save 16KB``, ``server save``), stages only if room is left."""
    names = [n for n, h in sorted(histograms.histograms.items()) if h.count]
    whole = [n for n in names if len(n.split()) <= 2]
    return (whole + [n for n in names if n not in whole])[:MAX_LINES]


def plot_distribution(histograms: HistogramSet, requests: list[dict], target: Path) -> Path | None:
    """The latency distribution; ``None`` if there is nothing to draw."""
    fig, axis = plt.subplots(figsize=(9, 5))
    names = _main_histograms(histograms)
    if names:
        for name in names:
            hist = histograms.histograms[name]
            used = np.flatnonzero(hist.counts)
            edges = LOWEST_US * (1 + RELATIVE_WIDTH) ** used.astype(float)
            share = hist.counts[used] / hist.count
            axis.plot(edges, np.cumsum(share), label=f"{name} (n={hist.count})")
        axis.set_xscale("log")
        axis.set_xlabel("duration (µs, log scale)")
        axis.set_ylabel("share of operations at or below")
        axis.set_title("Latency distribution (microsecond histograms)")
    elif requests:
        shown = requests[: MAX_LINES * 2]
        positions = np.arange(len(shown))
        for offset, key in ((-0.25, "p50_ms"), (0.0, "p95_ms"), (0.25, "p99_ms")):
            values = [r.get(key) or 0 for r in shown]
            axis.bar(positions + offset, values, width=0.25, label=key[:-3])
        axis.set_xticks(positions, [r["name"] for r in shown], rotation=30, ha="right", fontsize=7)
        axis.set_ylabel("response time (ms)")
        axis.set_title("Latency percentiles per request")
    else:
        plt.close(fig)
        return None
    axis.legend(fontsize=7)
    axis.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(target, dpi=100)
    plt.close(fig)
    return target
