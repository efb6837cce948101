"""A short live benchmark of state save / restore / encryption: the demo's Benchmark page.

It times the vault's save and restore (``StatePipeline``, the code the server runs) on a SQLite
store in a temporary folder, with a fresh keyring. Per state size and repetition:

- ``encrypt``: the encrypt stage of the save;
- ``save``: serialize (with the exact round-trip check) + encrypt + compare-and-swap write;
- ``restore``: read + decrypt + parse.

It is an illustration; ``loadtests bench`` is the thorough benchmark.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from loadtests.pipeline import StatePipeline, new_convid
from loadtests.states import build_state
from mock_account.stores import open_store

SIZES: dict[str, int] = {"1 KB": 1024, "10 KB": 10 * 1024, "100 KB": 100 * 1024, "1 MB": 1 << 20}
OPERATIONS = ("encrypt", "save", "restore")
PERCENTILES = (50.0, 95.0, 99.0)


@dataclass(frozen=True)
class Sample:
    size_label: str
    operation: str
    microseconds: float


def run_benchmark(sizes: list[str], repetitions: int, folder: Path | None = None) -> list[Sample]:
    """Time each operation ``repetitions`` times per size label (keys of ``SIZES``)."""
    unknown = [s for s in sizes if s not in SIZES]
    if unknown:
        raise ValueError(f"unknown state size {unknown[0]!r}; one of {', '.join(SIZES)}")
    if repetitions < 1:
        raise ValueError("repetitions must be at least 1")
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        samples: list[Sample] = []
        try:
            pipeline = StatePipeline(store)
            for label in sizes:
                samples.extend(_measure(pipeline, label, build_state(SIZES[label]), repetitions))
        finally:
            store.close()
    return samples


def _measure(
    pipeline: StatePipeline, label: str, state: dict[str, Any], repetitions: int
) -> list[Sample]:
    samples = []
    convid = new_convid()
    for version in range(repetitions + 1):
        saved = pipeline.save(convid, state, version)
        _, restored = pipeline.restore(convid)
        if version == 0:
            continue  # warm-up: key derivation, first connection, page cache
        samples.append(Sample(label, "encrypt", saved.stages["encrypt"]))
        samples.append(Sample(label, "save", saved.total_us))
        samples.append(Sample(label, "restore", restored.total_us))
    return samples


def percentile_rows(samples: list[Sample]) -> list[dict[str, Any]]:
    """One row per (size, operation): count, p50, p95, p99 and max in microseconds."""
    groups: dict[tuple[str, str], list[float]] = {}
    for sample in samples:
        groups.setdefault((sample.size_label, sample.operation), []).append(sample.microseconds)
    rows = []
    for (label, operation), values in groups.items():
        data = np.asarray(values)
        row: dict[str, Any] = {"size": label, "operation": operation, "n": len(values)}
        for p in PERCENTILES:
            row[f"p{p:g} µs"] = round(float(np.percentile(data, p)), 1)
        row["max µs"] = round(float(data.max()), 1)
        rows.append(row)
    return rows
