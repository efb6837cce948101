"""``mock-account serve`` set-up: the worker environment and the refusals before serving."""

from __future__ import annotations

import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from api_helpers import token_of
from fastapi.testclient import TestClient

from mock_account.api import create_app
from mock_account.api.environment import (
    FACTORY,
    config_from_environment,
    create_app_from_environment,
    environment_for,
)
from mock_account.cli import build_parser, main
from mock_account.cli.options import config_from_args
from mock_account.cli.server import apply_retention_options
from mock_account.conversations.retention import RetentionPolicy
from mock_account.deployment import AccountConfig, Deployment
from mock_account.stores import ConversationStore


def test_the_environment_carries_the_configuration(tmp_path: Path) -> None:
    config = AccountConfig(
        data_dir=tmp_path / "data",
        store_url="sqlite:///x.db",
        account_dir=tmp_path / "agents",
        seed=11,
        keyring_path=tmp_path / "keys.json",
        time_limit_s=2.5,
        hooks="my_hooks",
        search_behavior="showResults",
    )
    env = environment_for(config, max_body_bytes=4096)
    rebuilt, max_body = config_from_environment(env)
    assert max_body == 4096
    assert rebuilt.data_dir == config.data_dir
    assert rebuilt.store_url == config.store_url
    assert rebuilt.account_dir == config.account_dir
    assert rebuilt.seed == 11 and rebuilt.time_limit_s == 2.5
    assert rebuilt.keyring_path == config.keyring_path
    assert env["MOCK_ACCOUNT_HOOKS"] == "my_hooks"
    assert rebuilt.search_behavior == "showResults"
    assert rebuilt.sweep_interval_s == 3600.0 and rebuilt.idempotency_hours == 24.0
    assert rebuilt.retention == RetentionPolicy.of(free_days=7.0, paid_days=None)


def test_the_environment_carries_the_retention_settings(tmp_path: Path) -> None:
    config = AccountConfig(
        data_dir=tmp_path,
        sweep_interval_s=90.0,
        retention=RetentionPolicy.of(free_days=None, paid_days=30.0),
        idempotency_hours=2.5,
    )
    env = environment_for(config, max_body_bytes=4096)
    rebuilt, _ = config_from_environment(env)
    assert rebuilt.sweep_interval_s == 90.0 and rebuilt.idempotency_hours == 2.5
    assert rebuilt.retention == RetentionPolicy.of(free_days=None, paid_days=30.0)
    config.sweep_interval_s = 0.0
    assert config_from_environment(environment_for(config, 1))[0].sweep_interval_s == 0.0
    with pytest.raises(ValueError, match="invalid server environment.*days"):
        config_from_environment({"MOCK_ACCOUNT_FREE_DAYS": "a week"})


def test_serve_options_set_the_sweep_and_retention() -> None:
    def configured(*options: str) -> AccountConfig:
        args = build_parser().parse_args(["serve", *options])
        config = config_from_args(args)
        apply_retention_options(config, args)
        return config

    default = configured()
    assert default.sweep_interval_s == 3600.0
    assert default.retention == RetentionPolicy.of(free_days=7.0, paid_days=None)
    assert configured("--no-sweep").sweep_interval_s == 0.0
    assert configured("--sweep-interval", "30").sweep_interval_s == 30.0
    stricter = configured("--paid-days", "30", "--idempotency-hours", "1")
    assert stricter.retention == RetentionPolicy.of(free_days=7.0, paid_days=30.0)
    assert stricter.idempotency_hours == 1.0
    assert configured("--free-days", "none").retention.limit("free") is None
    moving = configured("--key-source", "managed")
    assert moving.key_source == "managed"
    assert environment_for(moving, 1)["MOCK_ACCOUNT_KEY_SOURCE"] == "managed"


def test_a_broken_environment_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="invalid server environment"):
        config_from_environment({"MOCK_ACCOUNT_SEED": "seven"})


def test_the_worker_factory_builds_the_app(
    tmp_path: Path, account_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = AccountConfig(data_dir=tmp_path, store_url="memory://", account_dir=account_dir)
    for name, value in environment_for(config, 1234).items():
        monkeypatch.setenv(name, value)
    app = create_app_from_environment()
    assert app.state.deployment.config.account_dir == account_dir
    assert FACTORY.endswith(":create_app_from_environment")
    app.state.deployment.close()


def test_the_search_behavior_comes_from_the_flag_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parser = build_parser()
    assert config_from_args(parser.parse_args(["serve"])).search_behavior == "executeTopMatch"
    flagged = parser.parse_args(["serve", "--search-behavior", "showResults"])
    assert config_from_args(flagged).search_behavior == "showResults"
    monkeypatch.setenv("MOCK_ACCOUNT_SEARCH_BEHAVIOR", "executeOnlyMatch")
    assert config_from_args(parser.parse_args(["serve"])).search_behavior == "executeOnlyMatch"


def test_an_unknown_search_behavior_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MOCK_ACCOUNT_SEARCH_BEHAVIOR", "offerTwo")
    code = main(["serve", "--store", "memory://", "--data-dir", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "mock-account: search behaviour must be one of executeTopMatch, executeOnlyMatch, "
        "showResults (got 'offerTwo')"
    )


def test_workers_with_a_memory_store_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["serve", "--store", "memory://", "--workers", "2", "--data-dir", str(tmp_path)])
    assert code == 2
    assert "needs a shared store" in capsys.readouterr().err


def test_a_taken_port_is_one_clear_line(
    tmp_path: Path, account_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(
            [
                "serve",
                "--port",
                str(port),
                "--store",
                "memory://",
                "--data-dir",
                str(tmp_path),
                "--account-dir",
                str(account_dir),
            ]
        )
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mock-account: cannot listen on 127.0.0.1:{port}")
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "70000"], "must be a port number"),
        (["--workers", "0"], "must be at least 1"),
        (["--max-body-bytes", "-1"], "must not be negative"),
        (["--search-behavior", "default"], "invalid choice: 'default'"),
        (["--sweep-interval", "0"], "must be more than 0"),
        (["--sweep-interval", "5", "--no-sweep"], "not allowed with argument"),
        (["--free-days", "-3"], "days must be a positive number"),
        (["--idempotency-hours", "0"], "must be more than 0"),
    ],
)
def test_bad_serve_options_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", *args])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


class _Watched:
    """A store that reports each deletion, so the test waits for the sweeper without sleeping."""

    def __init__(self, store: ConversationStore) -> None:
        self._store = store
        self.deleted = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def delete(self, account: str, convid: str) -> bool:
        done = self._store.delete(account, convid)
        self.deleted.set()
        return done


def test_the_server_runs_the_retention_sweep_while_it_serves(deployment: Deployment) -> None:
    deployment.config.sweep_interval_s = 0.01
    # The test clock ticks a second per reading: a minute without use is past retention soon.
    deployment.config.retention = RetentionPolicy.of(free_days=60 / 86400, paid_days=60 / 86400)
    app = create_app(deployment)
    store = deployment.account.store
    watched = _Watched(store)
    deployment.account.vault.store = watched  # type: ignore[assignment]
    token = token_of(deployment, deployment.users.users[0])
    with TestClient(app, headers={"Authorization": f"Bearer {token}"}) as client:
        body = {"agentName": "InvoiceStatus", "inputs": {"query": "show the open invoices"}}
        convid = client.post("/api/exec/execAgent", json=body).json()["convid"]
        for _ in range(120):
            deployment.account.clock()  # time passes
        sweeper = app.state.sweeper
        assert sweeper is not None and sweeper.is_alive()
        assert watched.deleted.wait(30)
    assert not sweeper.is_alive()  # stopped with the server
    assert store.get_entry(deployment.users.users[0].account, convid) is None


def test_no_sweep_starts_no_sweeper(deployment: Deployment) -> None:
    deployment.config.sweep_interval_s = 0.0
    app = create_app(deployment)
    with TestClient(app):
        assert app.state.sweeper is None
