"""Fixtures of the HTTP API tests: a small agent account, a fresh deployment and clients.

Each test gets its own deployment (in-memory store, keyring in a temporary folder) over a folder
of a few agents written here, so the tests never depend on the generated 200-agent account. The
business data, and the world over it, are generated once per session and shared by every
deployment (the engine's and the world's alike): they are read-only once built, and building
them again for each test was most of what a test cost.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from api_helpers import START, share_data, ticking_clock, token_of
from fastapi import FastAPI
from fastapi.testclient import TestClient
from fixture_agents import write_account

from mock_account.api import create_app
from mock_account.business.data import BusinessData
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.users import User
from mock_account.world import World, understand_request


@pytest.fixture(scope="session")
def account_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_account(tmp_path_factory.mktemp("account"))


@pytest.fixture(scope="session")
def business_data() -> BusinessData:
    # As a deployment on the tests' clock makes it: dated from the clock's first day.
    return BusinessData(seed=7, anchor=START.date())


@pytest.fixture(scope="session")
def world(business_data: BusinessData) -> World:
    return World(business_data, understand_request(business_data))


@pytest.fixture
def deployment(
    tmp_path: Path, account_dir: Path, business_data: BusinessData, world: World
) -> Iterator[Deployment]:
    config = AccountConfig(
        data_dir=tmp_path, store_url="memory://", account_dir=account_dir, clock=ticking_clock()
    )
    built = share_data(build_deployment(config), business_data, world)
    try:
        yield built
    finally:
        built.close()


@pytest.fixture
def app(deployment: Deployment) -> FastAPI:
    return create_app(deployment)


@pytest.fixture
def users(deployment: Deployment) -> list[User]:
    return deployment.users.users


@pytest.fixture
def client(app: FastAPI, deployment: Deployment) -> Iterator[TestClient]:
    """A client signed in as the first user (acme)."""
    token = token_of(deployment, deployment.users.users[0])
    with TestClient(
        app, headers={"Authorization": f"Bearer {token}"}, raise_server_exceptions=False
    ) as signed_in:
        yield signed_in


@pytest.fixture
def other_client(app: FastAPI, deployment: Deployment) -> Iterator[TestClient]:
    """A client signed in as the second user of the same account."""
    token = token_of(deployment, deployment.users.users[1])
    with TestClient(app, headers={"Authorization": f"Bearer {token}"}) as signed_in:
        yield signed_in


@pytest.fixture
def anonymous(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as nobody:
        yield nobody
