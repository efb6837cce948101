"""The generated account follows its own naming scheme."""

from __future__ import annotations

from agents_catalog.checker import check_paths, default_account_dir
from agents_catalog.checker.formats import render


def test_generated_account_checks_clean() -> None:
    account = default_account_dir()
    assert account is not None, "the generated account (agents_catalog/account/) is missing"
    report = check_paths([account], account_dir=account)
    assert len(report.files) == 200
    assert report.findings == (), render(report, "text")
