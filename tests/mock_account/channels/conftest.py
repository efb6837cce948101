"""Fixtures of the channel tests: a deployment of the small channel account on every backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from channel_agents import Clock, write_channel_account
from server_stores import PLAIN_BACKENDS, fresh_url, unreachable

from mock_account.channels import ChannelService, records_for
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.stores import StoreUnavailable, open_store
from mock_account.users import User


@pytest.fixture(scope="session")
def channel_account_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_channel_account(tmp_path_factory.mktemp("channel-account"))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_deployment(
    tmp_path: Path, channel_account_dir: Path, clock: Clock
) -> Iterator[Callable[[str], Deployment]]:
    opened: list[Deployment] = []

    def make(store_url: str = "memory://") -> Deployment:
        config = AccountConfig(
            data_dir=tmp_path,
            store_url=store_url,
            account_dir=channel_account_dir,
            clock=clock,
            search="bm25",
        )
        built = build_deployment(config)
        opened.append(built)
        return built

    yield make
    for built in opened:
        built.close()


@pytest.fixture(params=PLAIN_BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store of each backend (PostgreSQL and Redis skip when down, fail under CI)."""
    url, cleanup = fresh_url(request.param, tmp_path, "channels")
    try:
        open_store(url).close()
    except StoreUnavailable as exc:
        unreachable(request.param, exc)
    try:
        yield url
    finally:
        cleanup()


@pytest.fixture
def deployment(make_deployment: Callable[[str], Deployment], store_url: str) -> Deployment:
    return make_deployment(store_url)


@pytest.fixture
def service(deployment: Deployment) -> ChannelService:
    return ChannelService(
        deployment.account, records_for(deployment.account.store), deployment.users
    )


@pytest.fixture
def admin(deployment: Deployment) -> User:
    return deployment.users.users[0]


@pytest.fixture
def member(deployment: Deployment) -> User:
    return deployment.users.users[1]
