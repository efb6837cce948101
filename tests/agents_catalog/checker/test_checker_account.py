"""The generated account follows its own naming scheme."""

from __future__ import annotations

import pytest

from agents_catalog.checker import check_paths, default_account_dir
from agents_catalog.checker.formats import render


def test_generated_account_checks_clean() -> None:
    account = default_account_dir()
    if account is None:
        pytest.skip("the generated account (agents_catalog/account/) does not exist yet")
    report = check_paths([account], account_dir=account)
    assert len(report.files) == 200
    assert report.findings == (), render(report, "text")
