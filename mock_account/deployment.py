"""Assemble a mock account from its configuration (the embedded defaults or given URLs).

Enterprise hooks (``AccountConfig.hooks``, a module path; ``MOCK_ACCOUNT_HOOKS`` sets the default
so a server started by other means gets them too): a module that cannot be loaded does not stop
the deployment from starting, but every agent run then fails with the reason (nothing runs
without the state hooks it was configured with). If the module has ``encryptionKey``, the account
keys come from it under ``key_names`` (the last is current) instead of the managed keyring.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from agents_catalog.loader import default_account_dir, load_account
from mock_account.business.data import BusinessData
from mock_account.config_history import (
    DEFAULT_KEEP,
    ConfigHistory,
    attach_history,
    open_config_store,
    scheme_checker,
)
from mock_account.conversations.account import Clock, MockAccount, utc_now
from mock_account.conversations.hooks import LoadedHooks, call_hook, load_hooks
from mock_account.crypto import EnterpriseKeySource, KeySource, StateCipher, load_or_create_keyring
from mock_account.engine.mock_model import MockModel
from mock_account.engine.runtime import Engine, RunLimits
from mock_account.errors import HooksError
from mock_account.search.index import BM25Params, SearchIndex
from mock_account.stores import IdempotencyRecords, StoreError, open_store
from mock_account.users import UserDirectory

DEFAULT_SEED = 7
CONFIG_KEEP_ENV = "MOCK_ACCOUNT_CONFIG_KEEP"
CONFIG_CONFORMANCE_ENV = "MOCK_ACCOUNT_CONFIG_CONFORMANCE"
HOOKS_ENV = "MOCK_ACCOUNT_HOOKS"
DEFAULT_KEY_NAMES = ("enterprise",)


def project_data_dir() -> Path:
    """The project's data folder (``MOCK_ACCOUNT_DATA`` overrides it)."""
    override = os.environ.get("MOCK_ACCOUNT_DATA")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "data"


SEARCH_ENV = "MOCK_ACCOUNT_SEARCH"
SEARCH_MODES = ("hybrid", "bm25")


# What search reports as ``searchBehavior`` (SPEC §5): whether an interface runs the best
# match (``executeTopMatch``), runs only a sole match (``executeOnlyMatch``), or shows the
# matches for the user to choose (``showResults``; the demo then offers the two best when
# they are close). The server runs nothing itself on search; interfaces act on the setting.
SEARCH_BEHAVIOR_ENV = "MOCK_ACCOUNT_SEARCH_BEHAVIOR"
# The day the mock world calls "today" ("next Tuesday" counts from it); the real date when
# unset. Tests and demos pin it so their dates read the same on any day.
TODAY_ENV = "MOCK_ACCOUNT_TODAY"


def parse_today(value: str | date | None) -> date | None:
    """The configured day, from an ISO date; ValueError with the expected form otherwise."""
    if value is None or value == "" or isinstance(value, date):
        return value or None
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(f"today must be a date like 2026-12-01 (got {value!r})") from None


def pinned_day(clock: Clock, day: date) -> Clock:
    """A clock whose date is `day` and whose time of day runs on."""

    def now() -> datetime:
        current = clock()
        return current.replace(year=day.year, month=day.month, day=day.day)

    return now


SEARCH_BEHAVIORS = ("executeTopMatch", "executeOnlyMatch", "showResults")
DEFAULT_SEARCH_BEHAVIOR = "executeTopMatch"


def check_search_behavior(value: str) -> str:
    """``value`` when it is a search behaviour; ValueError naming the choices otherwise."""
    if value not in SEARCH_BEHAVIORS:
        raise ValueError(
            f"search behaviour must be one of {', '.join(SEARCH_BEHAVIORS)} (got {value!r})"
        )
    return value


def search_params(mode: str) -> BM25Params:
    if mode not in SEARCH_MODES:
        raise ValueError(f"search mode must be one of {', '.join(SEARCH_MODES)} (got {mode!r})")
    return BM25Params() if mode == "hybrid" else BM25Params(semantic=0.0)


def config_keep_from(environ: Any) -> int:
    """The configuration versions kept per section (``MOCK_ACCOUNT_CONFIG_KEEP``, default 20)."""
    text = environ.get(CONFIG_KEEP_ENV) or str(DEFAULT_KEEP)
    try:
        keep = int(text)
    except ValueError:
        keep = 0
    if keep < 1:
        raise ValueError(f"{CONFIG_KEEP_ENV} must be a whole number of at least 1 (got {text!r})")
    return keep


@dataclass
class AccountConfig:
    data_dir: Path = field(default_factory=project_data_dir)
    store_url: str | None = None
    account_dir: Path = field(default_factory=default_account_dir)
    seed: int = DEFAULT_SEED
    keyring_path: Path | None = None
    time_limit_s: float = 5.0
    clock: Clock = utc_now
    hooks: str | None = field(default_factory=lambda: os.environ.get(HOOKS_ENV) or None)
    key_names: tuple[str, ...] = DEFAULT_KEY_NAMES
    # "hybrid" blends BM25 with sentence embeddings (better on wording nobody anticipated);
    # "bm25" is lexical only: no model to load, sub-millisecond searches.
    search: str = field(default_factory=lambda: os.environ.get(SEARCH_ENV) or "hybrid")
    search_behavior: str = field(
        default_factory=lambda: os.environ.get(SEARCH_BEHAVIOR_ENV) or DEFAULT_SEARCH_BEHAVIOR
    )
    today: date | str | None = field(default_factory=lambda: os.environ.get(TODAY_ENV) or None)
    # Agent configuration history (SPEC §10): versions kept per section, and whether a save
    # that breaks the naming scheme is refused or accepted with warnings ("off": not checked).
    config_keep: int = field(default_factory=lambda: config_keep_from(os.environ))
    config_conformance: str = field(
        default_factory=lambda: os.environ.get(CONFIG_CONFORMANCE_ENV) or "refuse"
    )

    @classmethod
    def from_options(cls, **options: Any) -> AccountConfig:
        """The defaults with every option that is given (not ``None``, not empty) set: the one
        place where command lines and the server's environment become a configuration."""
        config = cls()
        for name, value in options.items():
            if name not in cls.__dataclass_fields__:
                raise TypeError(f"AccountConfig has no option {name!r}")
            if value is not None and value != "":
                setattr(config, name, value)
        config.data_dir = Path(config.data_dir)
        config.account_dir = Path(config.account_dir)
        if config.keyring_path is not None:
            config.keyring_path = Path(config.keyring_path)
        config.key_names = tuple(config.key_names)
        return config

    def resolved_store_url(self) -> str:
        return self.store_url or f"sqlite:///{self.data_dir / 'conversations.db'}"

    def resolved_keyring_path(self) -> Path:
        return Path(self.keyring_path or Path(self.data_dir) / "keyring.json")


def load_configured_hooks(config: AccountConfig) -> tuple[LoadedHooks | None, str | None]:
    """The configured hooks, or ``(None, why they could not be loaded)``."""
    if not config.hooks:
        return None, None
    try:
        return load_hooks(config.hooks), None
    except HooksError as exc:
        return None, str(exc)


def build_cipher(config: AccountConfig, hooks: LoadedHooks | None = None) -> StateCipher:
    """The cipher of the account: enterprise keys from the hooks, else the managed keyring."""
    keys: KeySource
    if hooks is not None and hooks.encryption_key is not None:
        key_hook = hooks.encryption_key
        keys = EnterpriseKeySource(lambda event: call_hook(key_hook, event), config.key_names)
    else:
        keys = load_or_create_keyring(config.resolved_keyring_path())
    return StateCipher(keys)


@dataclass
class Deployment:
    account: MockAccount
    users: UserDirectory
    config: AccountConfig

    @property
    def idempotency(self) -> IdempotencyRecords:
        """Where the HTTP layer keeps answers by ``Idempotency-Key``: the account's store."""
        store = self.account.store
        if not isinstance(store, IdempotencyRecords):
            raise StoreError("this store keeps no idempotency records")
        return store

    @property
    def config_history(self) -> ConfigHistory:
        """The agents' configuration history, applied live to the account."""
        return self.account.config_history

    def close(self) -> None:
        self.account.store.close()


def build_deployment(config: AccountConfig | None = None) -> Deployment:
    config = config or AccountConfig()
    config.data_dir = Path(config.data_dir)
    check_search_behavior(config.search_behavior)
    config.today = parse_today(config.today)
    clock = config.clock if config.today is None else pinned_day(config.clock, config.today)
    agents = load_account(config.account_dir)
    hooks, hooks_error = load_configured_hooks(config)
    cipher = build_cipher(config, hooks)
    engine = Engine(
        {a.name: a for a in agents},
        MockModel(),
        BusinessData(seed=config.seed, anchor=clock().date()),
        RunLimits(time_limit_s=config.time_limit_s),
    )
    account = MockAccount(
        agents=agents,
        engine=engine,
        index=SearchIndex.build(agents, search_params(config.search)),
        store=open_store(config.resolved_store_url()),
        cipher=cipher,
        clock=clock,
        state_hooks=hooks,
        hooks_error=hooks_error,
    )
    attach_history(
        account,
        ConfigHistory(
            open_config_store(account.store),
            cipher,
            agents,
            clock=clock,
            keep=int(config.config_keep),
            conformance=config.config_conformance,  # type: ignore[arg-type]
            checker=scheme_checker(config.account_dir),
        ),
    )
    return Deployment(account, UserDirectory.generate(config.seed), config)
