"""The demo runs the retention sweep of its embedded account, with the server's options."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_agents import write_account

from demo_app.__main__ import retention_environment
from demo_app.inprocess_client import InProcessClient
from mock_account.conversations.retention import RetentionPolicy
from mock_account.deployment import AccountConfig


def test_the_retention_options_become_the_account_variables() -> None:
    env, rest = retention_environment(
        ["--no-sweep", "--free-days", "3", "--paid-days", "none", "--server.port", "8600"]
    )
    assert env == {
        "MOCK_ACCOUNT_SWEEP_INTERVAL": "off",
        "MOCK_ACCOUNT_FREE_DAYS": "3.0",
        "MOCK_ACCOUNT_PAID_DAYS": "none",
    }
    assert rest == ["--server.port", "8600"]
    env, rest = retention_environment(["--sweep-interval", "60", "--idempotency-hours", "2"])
    assert env == {"MOCK_ACCOUNT_SWEEP_INTERVAL": "60.0", "MOCK_ACCOUNT_IDEMPOTENCY_HOURS": "2.0"}
    assert retention_environment([]) == ({}, [])
    with pytest.raises(SystemExit):
        retention_environment(["--free-days", "soon"])


def test_the_embedded_account_sweeps_unless_told_not_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agents = write_account(tmp_path / "agents")
    config = AccountConfig(
        data_dir=tmp_path, store_url="memory://", account_dir=agents, search="bm25"
    )
    client = InProcessClient.embedded(config)
    try:
        assert client.sweeper is not None and client.sweeper.is_alive()
    finally:
        client.stop_sweeper.set()
        client.deployment.close()
    assert client.sweeper is not None
    client.sweeper.join(5)
    assert not client.sweeper.is_alive()

    monkeypatch.setenv("MOCK_ACCOUNT_SWEEP_INTERVAL", "off")
    monkeypatch.setenv("MOCK_ACCOUNT_PAID_DAYS", "30")
    quiet = InProcessClient.embedded(
        AccountConfig(data_dir=tmp_path, store_url="memory://", account_dir=agents, search="bm25")
    )
    try:
        assert quiet.sweeper is None
        assert quiet.deployment.config.retention == RetentionPolicy.of(free_days=7, paid_days=30)
    finally:
        quiet.deployment.close()
