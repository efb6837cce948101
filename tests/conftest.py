"""Suite-wide order for ``make test``, which runs on every core (pytest-xdist, ``--dist
loadgroup``).

The browser walks share one xdist group: they run one after the other on one worker, and xdist
starts that group first, while the other workers take the short tests. The other long
end-to-end tests (marked ``slow``: real processes, timed runs, kills) come last, handed out one
at a time, so that they do not compete with the browser's timed cold start. The order is the
same in every worker, as xdist requires.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def late(item: pytest.Item) -> bool:
        grouped = item.get_closest_marker("xdist_group") is not None
        return item.get_closest_marker("slow") is not None and not grouped

    items.sort(key=late)
