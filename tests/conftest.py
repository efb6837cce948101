"""Suite-wide order for ``make test``, which runs on every core (pytest-xdist, ``--dist
loadgroup``), then the browser walks (marked ``browser``) alone, since they time the demo's
cold start.

The long end-to-end tests (marked ``slow``: real processes, timed runs, kills) come last,
handed out one at a time, after the short ones. The order is the same in every worker, as
xdist requires.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def late(item: pytest.Item) -> bool:
        return item.get_closest_marker("slow") is not None

    items.sort(key=late)
