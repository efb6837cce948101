"""The server's configuration as environment variables, for uvicorn worker processes.

With ``--workers N`` uvicorn starts each worker from an import string, so the deployment cannot
be handed over as an object: ``serve`` writes the configuration into the environment and every
worker builds its own deployment from it with ``create_app_from_environment``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from fastapi import FastAPI

from mock_account.api.app import create_app
from mock_account.api.body_limit import DEFAULT_MAX_BODY_BYTES
from mock_account.deployment import (
    FREE_DAYS_ENV,
    HOOKS_ENV,
    IDEMPOTENCY_HOURS_ENV,
    KEY_SOURCE_ENV,
    PAID_DAYS_ENV,
    SEARCH_BEHAVIOR_ENV,
    SEARCH_ENV,
    SWEEP_INTERVAL_ENV,
    TODAY_ENV,
    AccountConfig,
    build_deployment,
    retention_from_environment,
)

DATA_DIR = "MOCK_ACCOUNT_DATA"
STORE_URL = "MOCK_ACCOUNT_STORE"
ACCOUNT_DIR = "MOCK_ACCOUNT_AGENTS"
SEED = "MOCK_ACCOUNT_SEED"
KEYRING = "MOCK_ACCOUNT_KEYRING"
TIME_LIMIT = "MOCK_ACCOUNT_TIME_LIMIT"
MAX_BODY = "MOCK_ACCOUNT_MAX_BODY_BYTES"

FACTORY = "mock_account.api.environment:create_app_from_environment"


def environment_for(config: AccountConfig, max_body_bytes: int) -> dict[str, str]:
    """The variables that make ``config_from_environment`` rebuild ``config``."""
    env = {
        DATA_DIR: str(config.data_dir),
        ACCOUNT_DIR: str(config.account_dir),
        SEED: str(config.seed),
        TIME_LIMIT: repr(config.time_limit_s),
        MAX_BODY: str(max_body_bytes),
    }
    if config.store_url:
        env[STORE_URL] = config.store_url
    if config.keyring_path:
        env[KEYRING] = str(config.keyring_path)
    if config.hooks:
        env[HOOKS_ENV] = config.hooks  # AccountConfig reads it itself
    if config.key_source:
        env[KEY_SOURCE_ENV] = config.key_source  # and the key source
    env[SEARCH_ENV] = config.search  # so does the search mode
    env[SEARCH_BEHAVIOR_ENV] = config.search_behavior  # and the search behaviour
    if config.today:
        env[TODAY_ENV] = str(config.today)  # and the day the mock world calls today
    # The retention sweep and its policy, read by AccountConfig itself too.
    env[SWEEP_INTERVAL_ENV] = repr(config.sweep_interval_s) if config.sweep_interval_s else "off"
    for plan, name in (("free", FREE_DAYS_ENV), ("paid", PAID_DAYS_ENV)):
        days = config.retention.days_by_plan.get(plan)
        env[name] = "none" if days is None else repr(days)
    env[IDEMPOTENCY_HOURS_ENV] = repr(config.idempotency_hours)
    return env


def config_from_environment(env: Mapping[str, str] | None = None) -> tuple[AccountConfig, int]:
    """The account configuration and the body limit; unset variables keep the defaults."""
    env = os.environ if env is None else env
    try:
        config = AccountConfig.from_options(
            data_dir=env.get(DATA_DIR),
            account_dir=env.get(ACCOUNT_DIR),
            store_url=env.get(STORE_URL),
            keyring_path=env.get(KEYRING),
            seed=int(env[SEED]) if env.get(SEED) else None,
            time_limit_s=float(env[TIME_LIMIT]) if env.get(TIME_LIMIT) else None,
            search_behavior=env.get(SEARCH_BEHAVIOR_ENV),
            today=env.get(TODAY_ENV),
            **retention_from_environment(env),
        )
        max_body = int(env.get(MAX_BODY) or DEFAULT_MAX_BODY_BYTES)
    except ValueError as exc:
        raise ValueError(f"invalid server environment: {exc}") from exc
    return config, max_body


def create_app_from_environment() -> FastAPI:
    """uvicorn factory: the app over a deployment built from the environment."""
    config, max_body = config_from_environment()
    return create_app(build_deployment(config), max_body_bytes=max_body, close_on_shutdown=True)
