"""Assemble a mock account from its configuration (the embedded defaults or given URLs).

Enterprise hooks (``AccountConfig.hooks``, a module path; ``MOCK_ACCOUNT_HOOKS`` sets the default
so a server started by other means gets them too): a module that cannot be loaded does not stop
the deployment from starting, but every agent run then fails with the reason (nothing runs
without the state hooks it was configured with). If the module has ``encryptionKey``, the account
keys come from it under ``key_names`` (the last is current) instead of the managed keyring.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents_catalog.loader import default_account_dir, load_account
from mock_account.business.data import BusinessData
from mock_account.channels.model import CHANNELS
from mock_account.config_history import (
    DEFAULT_KEEP,
    ConfigHistory,
    attach_history,
    open_config_store,
    scheme_checker,
)
from mock_account.conversations.account import Clock, MockAccount, utc_now
from mock_account.conversations.hooks import LoadedHooks, call_hook, load_hooks
from mock_account.conversations.retention import (
    DEFAULT_DAYS,
    DEFAULT_SWEEP_INTERVAL_S,
    RetentionPolicy,
    parse_days,
    parse_interval,
    positive_number,
    start_sweeper,
)
from mock_account.crypto import (
    EnterpriseKeySource,
    KeyringError,
    KeySource,
    MigratingKeys,
    StateCipher,
    load_keyring_file,
    load_or_create_keyring,
)
from mock_account.engine.mock_model import MockModel
from mock_account.engine.runtime import Engine, RunLimits
from mock_account.errors import HooksError
from mock_account.search.index import BM25Params, SearchIndex
from mock_account.stores import IdempotencyRecords, StoreError, open_store
from mock_account.users import UserDirectory
from mock_account.workflows import ActionLedger, WorkflowService, open_workflow_store
from mock_account.workflows.effects import AgentEffects

if TYPE_CHECKING:
    from mock_account.channels import ChannelService

DEFAULT_SEED = 7
CONFIG_KEEP_ENV = "MOCK_ACCOUNT_CONFIG_KEEP"
CONFIG_CONFORMANCE_ENV = "MOCK_ACCOUNT_CONFIG_CONFORMANCE"
HOOKS_ENV = "MOCK_ACCOUNT_HOOKS"
KEY_SOURCE_ENV = "MOCK_ACCOUNT_KEY_SOURCE"
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
# Retention the server and the demo apply themselves: the sweep interval in seconds ("off"
# turns it off), the days of each plan ("none": no limit), the hours an idempotency record lives.
SWEEP_INTERVAL_ENV = "MOCK_ACCOUNT_SWEEP_INTERVAL"
FREE_DAYS_ENV = "MOCK_ACCOUNT_FREE_DAYS"
PAID_DAYS_ENV = "MOCK_ACCOUNT_PAID_DAYS"
IDEMPOTENCY_HOURS_ENV = "MOCK_ACCOUNT_IDEMPOTENCY_HOURS"
DEFAULT_IDEMPOTENCY_HOURS = 24.0


def _env_interval(env: Mapping[str, str] | None = None) -> float:
    text = (os.environ if env is None else env).get(SWEEP_INTERVAL_ENV)
    return parse_interval(text) if text else DEFAULT_SWEEP_INTERVAL_S


def _env_retention(env: Mapping[str, str] | None = None) -> RetentionPolicy:
    env = os.environ if env is None else env
    free, paid = env.get(FREE_DAYS_ENV), env.get(PAID_DAYS_ENV)
    return RetentionPolicy.of(
        free_days=parse_days(free) if free else DEFAULT_DAYS["free"],
        paid_days=parse_days(paid) if paid else DEFAULT_DAYS["paid"],
    )


def _env_idempotency_hours(env: Mapping[str, str] | None = None) -> float:
    text = (os.environ if env is None else env).get(IDEMPOTENCY_HOURS_ENV)
    if not text:
        return DEFAULT_IDEMPOTENCY_HOURS
    return check_idempotency_hours(text)


def retention_from_environment(env: Mapping[str, str]) -> dict[str, Any]:
    """The sweep interval, retention policy and idempotency hours the variables of ``env`` set
    (``AccountConfig`` fields; ValueError naming the bad value)."""
    return {
        "sweep_interval_s": _env_interval(env),
        "retention": _env_retention(env),
        "idempotency_hours": _env_idempotency_hours(env),
    }


def check_idempotency_hours(value: float | str) -> float:
    """Hours an idempotency record lives: a positive number (ValueError otherwise)."""
    return positive_number(
        value,
        not_a_number=f"idempotency hours must be a number (got {value!r})",
        not_positive=f"idempotency hours must be a positive number (got {value!r})",
    )


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
    # Which source encrypts new records: "managed", "enterprise", or None (the key hook if the
    # hooks have one). The other source, when present, keeps decrypting (see build_cipher).
    key_source: str | None = field(default_factory=lambda: os.environ.get(KEY_SOURCE_ENV) or None)
    # "hybrid" blends BM25 with sentence embeddings (better on wording nobody anticipated);
    # "bm25" is lexical only: no model to load, sub-millisecond searches.
    search: str = field(default_factory=lambda: os.environ.get(SEARCH_ENV) or "hybrid")
    search_behavior: str = field(
        default_factory=lambda: os.environ.get(SEARCH_BEHAVIOR_ENV) or DEFAULT_SEARCH_BEHAVIOR
    )
    today: date | str | None = field(default_factory=lambda: os.environ.get(TODAY_ENV) or None)
    # The retention sweep the server and the demo run (0: not at all), and its policy.
    sweep_interval_s: float = field(default_factory=_env_interval)
    retention: RetentionPolicy = field(default_factory=_env_retention)
    idempotency_hours: float = field(default_factory=_env_idempotency_hours)
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


KEY_SOURCES = ("managed", "enterprise")


def check_key_source(value: str | None) -> str | None:
    """``value`` if it names a key source (or is ``None``: chosen by the hooks)."""
    if value is not None and value not in KEY_SOURCES:
        raise ValueError(f"key source must be one of {', '.join(KEY_SOURCES)} (got {value!r})")
    return value


def build_cipher(
    config: AccountConfig, hooks: LoadedHooks | None = None, *, create_keyring: bool = True
) -> StateCipher:
    """The cipher of the account.

    The key source is ``config.key_source``; unset, it is the enterprise key hook when the hooks
    have ``encryptionKey``, else the managed keyring. While records move from one source to the
    other (``mock-account keys migrate``), the other source keeps decrypting what it encrypted:
    the managed keyring when its file exists, the key hook when the hooks have one. So an
    account switched to a key hook still reads every conversation the keyring encrypted, and
    the way back works alike.
    """
    source = check_key_source(config.key_source)
    enterprise: KeySource | None = None
    if hooks is not None and hooks.encryption_key is not None:
        key_hook = hooks.encryption_key
        enterprise = EnterpriseKeySource(lambda event: call_hook(key_hook, event), config.key_names)
    if source is None:
        source = "managed" if enterprise is None else "enterprise"
    path = config.resolved_keyring_path()
    keys: KeySource
    if source == "enterprise":
        if enterprise is None:
            raise KeyringError(
                "the enterprise key source needs a hooks module with encryptionKey (--hooks)"
            )
        keys = enterprise
        if path.exists():  # records the managed keyring encrypted stay readable
            keys = MigratingKeys(enterprise, load_keyring_file(path))
    else:
        keyring = load_or_create_keyring(path) if create_keyring else load_keyring_file(path)
        keys = keyring if enterprise is None else MigratingKeys(keyring, enterprise)
    return StateCipher(keys)


@dataclass
class Deployment:
    account: MockAccount
    users: UserDirectory
    config: AccountConfig
    # Per-user workflow progress and approved actions (``mock_account.workflows``).
    workflows: WorkflowService | None = None
    actions: ActionLedger | None = None

    @property
    def idempotency(self) -> IdempotencyRecords:
        """Where the HTTP layer keeps answers by ``Idempotency-Key``: the account's store."""
        store = self.account.store
        if not isinstance(store, IdempotencyRecords):
            raise StoreError("this store keeps no idempotency records")
        return store

    def start_sweeper(self, stop: threading.Event) -> threading.Thread | None:
        """Run the retention sweep every ``sweep_interval_s`` until ``stop`` is set (``None``
        when the sweep is turned off)."""
        interval = self.config.sweep_interval_s
        if not interval:
            return None
        return start_sweeper(
            self.account,
            interval,
            stop,
            users=self.users.users,
            policy=self.config.retention,
            then=self.sweep_channels,
        )

    def sweep_channels(self, now: datetime) -> str:
        """Remove channel identities idle past retention, with their memory, contact and
        workflow records (what the conversations' sweep does not remove); its summary."""
        from mock_account.channels import sweep_channels

        report = sweep_channels(
            self.channels.records,
            self.account.store,
            self.users.users,
            now,
            self.config.retention,
            workflows=self.workflows.store if self.workflows is not None else None,
        )
        return (
            f"{len(report.deleted_identities)} channel identit(ies) deleted with "
            f"{report.workflow_records} workflow record(s)"
        )

    @functools.cached_property
    def channels(self) -> ChannelService:
        """Channels, identities, memory and the Inbox, kept next to the conversations."""
        from mock_account.channels import ChannelService, records_for

        return ChannelService(self.account, records_for(self.account.store), self.users)

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
    config.idempotency_hours = check_idempotency_hours(config.idempotency_hours)
    if config.sweep_interval_s < 0:
        raise ValueError("the sweep interval must not be negative (0 turns the sweep off)")
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
    users = UserDirectory.generate(config.seed)
    workflow_store = open_workflow_store(account.store)
    workflows = WorkflowService(
        workflow_store,
        cipher,
        clock,
        {a.workflow.name: a.workflow for a in agents if a.workflow is not None},
    )
    actions = ActionLedger(workflow_store, cipher, clock)

    accounts = {u.account for u in users.users}

    def account_of(owner: str, account: str | None = None) -> str:
        """The account of a run's owner: a user's (their email is their web identity), or for
        a channel identity (``<channel>:<identity id>``) the account the channel run names."""
        user = users.by_email(owner)
        if user is not None:
            if account is not None and account != user.account:
                raise ValueError(f"{owner!r} is not a user of account {account!r}")
            return user.account
        channel, _, identity = owner.partition(":")
        if account in accounts and channel in CHANNELS and channel != "web" and identity:
            return account
        raise ValueError(f"no user or channel identity {owner!r} in this account")

    engine.effects = AgentEffects(workflows, actions, account_of)
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
    # Actions approved before a restart and not yet run are run now (at most once each).
    for name in sorted({u.account for u in users.users}):
        actions.recover(name)
    return Deployment(account, users, config, workflows, actions)
