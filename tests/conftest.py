"""Suite-wide order for ``make test``, which runs on every core (pytest-xdist, ``--dist
loadgroup``), then the browser walks (marked ``browser``) alone, since they time the demo's
cold start.

The long end-to-end tests (marked ``slow``: real processes, timed runs, kills) come last,
handed out one at a time, after the short ones, the longest first: a long one left for the
end would keep one core busy while the other idles. The order is the same in every worker, as
xdist requires.

A test that uses a module-scoped fixture (a live server, a deployment built for the module)
joins its module's xdist group, so that the fixture is built by one worker, once, rather than
by each worker that is handed one of the module's tests.
"""

from __future__ import annotations

import pytest

#: Rough seconds of the longest slow tests, by file, on a 2-core machine: only their order
#: matters (longest first). A slow test not named here is taken for a short one.
SLOW_COST_S: dict[str, float] = {
    "tests/hostile/test_hostile_soak.py": 45,
    "tests/reliability/test_rel_actions_crash.py": 30,
    "tests/reliability/test_rel_concurrency.py": 30,
    "tests/hostile/test_hostile_schemathesis.py": 30,
    "tests/loadtests/test_load_config_edit.py": 25,
    "tests/reliability/test_rel_outage.py": 25,
    "tests/agents_catalog/test_pre_commit_hook.py": 25,
    "tests/reliability/test_rel_crash.py": 20,
    "tests/loadtests/test_load_run.py": 20,
    "tests/loadtests/test_load_ceiling.py": 20,
    "tests/loadtests/test_load_stream.py": 20,
    "tests/loadtests/test_load_channels.py": 20,
    "tests/reliability/test_rel_retries.py": 15,
    "tests/loadtests/test_load_workflows.py": 15,
    "tests/loadtests/test_load_remote.py": 10,
    "tests/mock_account/api/test_api_live_server.py": 10,
    "tests/reliability/test_rel_config_crash.py": 8,
}
SHARED_SCOPES = ("module", "class")


def _slow_cost(item: pytest.Item) -> float:
    if item.get_closest_marker("slow") is None:
        return 0.0
    return SLOW_COST_S.get(item.nodeid.split("::", 1)[0], 1.0)


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(
        definitions and definitions[-1].scope in SHARED_SCOPES
        for definitions in info.name2fixturedefs.values()
    )


# First, so that the groups are set before xdist reads them from the markers.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _shares_a_module_fixture(item) and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))

    def order(item: pytest.Item) -> tuple[bool, float]:
        cost = _slow_cost(item)
        return item.get_closest_marker("slow") is not None, -cost

    items.sort(key=order)
