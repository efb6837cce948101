"""Assemble a mock account from its configuration (the embedded defaults or given URLs)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from agents_catalog.loader import load_account

from .account import Clock, MockAccount, utc_now
from .business_data import BusinessData
from .crypto import StateCipher, load_or_create_keyring
from .mock_model import MockModel
from .runtime import Engine, RunLimits
from .search import SearchIndex
from .stores import open_store
from .users import UserDirectory

DEFAULT_SEED = 7


def project_data_dir() -> Path:
    """The project's data folder (``MOCK_ACCOUNT_DATA`` overrides it)."""
    override = os.environ.get("MOCK_ACCOUNT_DATA")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "data"


def default_account_dir() -> Path:
    return Path(str(resources.files("agents_catalog") / "account"))


@dataclass
class AccountConfig:
    data_dir: Path = field(default_factory=project_data_dir)
    store_url: str | None = None
    account_dir: Path = field(default_factory=default_account_dir)
    seed: int = DEFAULT_SEED
    keyring_path: Path | None = None
    time_limit_s: float = 5.0
    clock: Clock = utc_now

    def resolved_store_url(self) -> str:
        return self.store_url or f"sqlite:///{self.data_dir / 'conversations.db'}"


@dataclass
class Deployment:
    account: MockAccount
    users: UserDirectory
    config: AccountConfig

    def close(self) -> None:
        self.account.store.close()


def build_deployment(config: AccountConfig | None = None) -> Deployment:
    config = config or AccountConfig()
    config.data_dir = Path(config.data_dir)
    agents = load_account(config.account_dir)
    keyring = load_or_create_keyring(config.keyring_path or config.data_dir / "keyring.json")
    engine = Engine(
        {a.name: a for a in agents},
        MockModel(),
        BusinessData(seed=config.seed),
        RunLimits(time_limit_s=config.time_limit_s),
    )
    account = MockAccount(
        agents=agents,
        engine=engine,
        index=SearchIndex.build(agents),
        store=open_store(config.resolved_store_url()),
        cipher=StateCipher(keyring),
        clock=config.clock,
    )
    return Deployment(account, UserDirectory.generate(config.seed), config)
