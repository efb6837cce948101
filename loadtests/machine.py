"""A description of the machine and software a measurement ran on, for reports."""

from __future__ import annotations

import os
import platform
import sqlite3
import sys
from datetime import UTC, datetime
from importlib import metadata
from typing import Any


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def machine_info() -> dict[str, Any]:
    """Host, CPU, Python and the versions of the libraries on the measured path."""
    try:
        load: list[float] | None = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "host": platform.node(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpus": os.cpu_count(),
        "load_average": load,
        "python": sys.version.split()[0],
        "sqlite": sqlite3.sqlite_version,
        "packages": {
            name: _version(name) for name in ("cryptography", "locust", "numpy", "psycopg", "redis")
        },
    }
