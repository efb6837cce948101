"""What a test needs from the machine (a server, a browser, an address), when it is missing.

A test skips with the reason on a developer's machine, and fails under ``CI=true``: there the
machine is set up for every test, and a skip would hide that it was not.
"""

from __future__ import annotations

import os

import pytest


def missing(reason: str) -> None:
    """Skip the test with ``reason``, or fail it under ``CI=true``."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)
