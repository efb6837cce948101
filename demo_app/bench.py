"""A short live benchmark of state save / restore / encryption, for the demo's chart.

Uses the real pieces directly: ``StateCipher`` (AES-256-GCM) with a fresh ``Keyring`` and a
SQLite store in a temporary folder. Per state size and repetition it times

- ``encrypt``: AES-GCM of the serialized state alone;
- ``save``: serialize + encrypt + compare-and-swap write;
- ``restore``: read + decrypt + parse.

It is an illustration for the demo; ``loadtests bench`` is the thorough benchmark.
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from mock_account.conversations.account import new_convid
from mock_account.crypto import Keyring, StateCipher
from mock_account.stores import open_store

SIZES: dict[str, int] = {"1 KB": 1_000, "10 KB": 10_000, "100 KB": 100_000, "1 MB": 1_000_000}
OPERATIONS = ("encrypt", "save", "restore")
PERCENTILES = (50.0, 95.0, 99.0)
OWNER = "bench@acme.example"
ACCOUNT = "acme"


@dataclass(frozen=True)
class Sample:
    size_label: str
    operation: str
    microseconds: float


def make_state(size_bytes: int) -> dict[str, Any]:
    """A conversation state whose JSON is about ``size_bytes`` long (at least the skeleton)."""
    state: dict[str, Any] = {
        "runs": [],
        "prompts": {"chat": {"name": "chat", "scope": "conversation", "messages": []}},
        "conv": {"trip": {"destination": "Berlin"}},
        "agents": {},
    }
    message = "The trip to Berlin was booked; the traveller wants a hotel near the venue. "
    skeleton = len(json.dumps(state))
    per_message = len(json.dumps({"role": "user", "content": message})) + 2
    for _ in range(max(0, (size_bytes - skeleton) // per_message)):
        state["prompts"]["chat"]["messages"].append({"role": "user", "content": message})
    return state


def run_benchmark(sizes: list[str], repetitions: int, folder: Path | None = None) -> list[Sample]:
    """Time each operation ``repetitions`` times per size label (keys of ``SIZES``)."""
    unknown = [s for s in sizes if s not in SIZES]
    if unknown:
        raise ValueError(f"unknown state size {unknown[0]!r}; one of {', '.join(SIZES)}")
    if repetitions < 1:
        raise ValueError("repetitions must be at least 1")
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        cipher = StateCipher(Keyring.generate())
        samples: list[Sample] = []
        try:
            for label in sizes:
                samples.extend(
                    _measure(label, make_state(SIZES[label]), repetitions, store, cipher)
                )
        finally:
            store.close()
    return samples


def _measure(
    label: str, state: dict[str, Any], repetitions: int, store: Any, cipher: StateCipher
) -> list[Sample]:
    samples = []
    convid = new_convid()
    version = 0
    clock = time.perf_counter
    for round_ in range(repetitions + 1):
        started = clock()
        plain = json.dumps(state, separators=(",", ":")).encode()
        mark = clock()
        blob = cipher.encrypt(plain, convid=convid, owner=OWNER, purpose="state")
        encrypted = clock()
        store.commit_run(
            account=ACCOUNT,
            convid=convid,
            owner=OWNER,
            expected_version=version,
            blob=blob,
            now=datetime.now(UTC),
            title_if_new=b"",
        )
        saved = clock()
        version += 1
        stored = store.load(ACCOUNT, convid)
        json.loads(cipher.decrypt(stored.blob, convid=convid, owner=OWNER, purpose="state"))
        restored = clock()
        if round_ == 0:
            continue  # warm-up: key derivation, first connection, page cache
        samples.append(Sample(label, "encrypt", (encrypted - mark) * 1e6))
        samples.append(Sample(label, "save", (saved - started) * 1e6))
        samples.append(Sample(label, "restore", (restored - saved) * 1e6))
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
