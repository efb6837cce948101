"""Suite-wide order: the long end-to-end tests (marked ``slow``) start first.

``make test`` runs the suite on every core with pytest-xdist (``--dist loadgroup``), which
hands the first tests out one by one in turn. Started first, the long tests (real processes,
browsers, timed runs, most of them waiting rather than computing) run side by side on all
workers, and the many short tests fill the time around them, instead of one long test
holding up the end of the run. The order is the same in every worker, as xdist requires.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
