"""What every ``mock-account`` command that opens an account shares: its store options and the
deployment they describe.

The command modules (``commands``, ``server``, ``security``, ``config``) all depend on this
one, and it on none of them, so the CLI's imports run one way.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date
from pathlib import Path

from mock_account.deployment import (
    SEARCH_MODES,
    TODAY_ENV,
    AccountConfig,
    Deployment,
    build_deployment,
)

#: Command-line option -> AccountConfig field, for every command that builds an account.
CONFIG_OPTIONS = {
    "data_dir": "data_dir",
    "store": "store_url",
    "account_dir": "account_dir",
    "hooks": "hooks",
    "search": "search",
    "time_limit": "time_limit_s",
    "keyring": "keyring_path",
    "key_names": "key_names",
    "key_source": "key_source",
    "search_behavior": "search_behavior",
    "today": "today",
}

#: How a command module adds the store options to one of its parsers.
AddStoreOptions = Callable[[argparse.ArgumentParser], None]


def config_from_args(args: argparse.Namespace) -> AccountConfig:
    """The account configuration the options of any ``mock-account`` command give."""
    return AccountConfig.from_options(
        **{field: getattr(args, option, None) or None for option, field in CONFIG_OPTIONS.items()}
    )


def open_deployment(args: argparse.Namespace) -> Deployment:
    """The deployment the command line describes (the caller closes it)."""
    return build_deployment(config_from_args(args))


def iso_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a date like 2026-12-01, got {text!r}") from None


def add_store_options(p: argparse.ArgumentParser) -> None:
    """``--store``, ``--data-dir``, ``--account-dir``, ``--search`` and ``--today``."""
    p.add_argument("--store", help="store URL (sqlite:///path, memory://, postgresql://, redis://)")
    p.add_argument("--data-dir", type=Path, help="data folder (default: the project's data/)")
    p.add_argument("--account-dir", type=Path, help="folder of agent files")
    p.add_argument("--search", choices=SEARCH_MODES, help="hybrid (default) or bm25 (lexical only)")
    p.add_argument(
        "--today",
        type=iso_day,
        metavar="YYYY-MM-DD",
        help=f"the day the mock world calls today (default: ${TODAY_ENV} or the real date)",
    )
