"""``mock-account keys ...`` and ``mock-account sweep``: key rotation and retention commands.

    mock-account keys rotate [--data-dir D | --keyring F]   add a new current key, print its id
    mock-account keys reencrypt [--store URL] [--data-dir D] [--batch N]
                                                            re-encrypt onto the current key
    mock-account keys status [--store URL] [--data-dir D]   records per key id
    mock-account sweep [--now ISO-TIME] [--store URL] [--data-dir D]
                       [--free-days N|none] [--paid-days N|none]
                                                            delete conversations past retention

Rotation order for a running server: ``rotate``, restart the server (it must know the new key),
then ``reencrypt``. ``reencrypt`` can be interrupted and started again at any time.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agents_catalog.cli_kit import positive_int
from mock_account.cli.commands import config_from_args
from mock_account.conversations.key_rotation import (
    DEFAULT_BATCH,
    ReencryptReport,
    key_status,
    reencrypt_store,
)
from mock_account.conversations.retention import DEFAULT_DAYS, RetentionPolicy, sweep
from mock_account.crypto import StateCipher, load_keyring_file
from mock_account.deployment import AccountConfig, build_cipher, load_configured_hooks
from mock_account.stores import open_store
from mock_account.users import UserDirectory

AddStoreOptions = Callable[[argparse.ArgumentParser], None]


def _iso_time(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"not an ISO time: {text!r} (e.g. 2026-03-01T12:00:00+00:00)"
        ) from exc
    # A time without a zone is read as UTC, the zone every stored time is in.
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _days(text: str) -> float | None:
    if text.strip().lower() in ("none", "unlimited", "never"):
        return None
    try:
        value = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a number of days: {text!r}") from exc
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"days must be a positive number, got {text!r}")
    return value


def _key_names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one key name")
    return names


def _cipher_for(config: AccountConfig) -> StateCipher:
    """The account's cipher; an absent keyring is an error here, never silently created."""
    hooks, error = load_configured_hooks(config)
    if error is not None:
        raise ValueError(error)
    if hooks is not None and hooks.encryption_key is not None:
        return build_cipher(config, hooks)
    return StateCipher(load_keyring_file(config.resolved_keyring_path()))


def _rotate(args: argparse.Namespace) -> int:
    from mock_account.crypto import rotate_keyring_file

    path = config_from_args(args).resolved_keyring_path()
    key_id = rotate_keyring_file(path)
    print(key_id)
    print(
        f"added key {key_id} to {path}; restart running servers, then run "
        "`mock-account keys reencrypt`",
        file=sys.stderr,
    )
    return 0


def _reencrypt(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    cipher = _cipher_for(config)

    def progress(report: ReencryptReport) -> None:
        print(
            f"... {report.conversations} conversations, {report.states} states and "
            f"{report.titles} titles re-encrypted",
            file=sys.stderr,
        )

    from mock_account.config_history import open_config_store, reencrypt_versions

    with open_store(config.resolved_store_url()) as store:
        report = reencrypt_store(store, cipher, batch=args.batch, progress=progress)
        versions = reencrypt_versions(open_config_store(store), cipher)
    print(f"current key: {cipher.keys.current_key_id()}")
    for line in report.lines() + versions.lines():
        print(line)
    return 1 if report.unreadable or report.gave_up or versions.unreadable else 0


def _status(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    cipher = _cipher_for(config)
    with open_store(config.resolved_store_url()) as store:
        status = key_status(store)
    for line in status.lines(cipher.keys.current_key_id()):
        print(line)
    return 0


def _sweep(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    policy = RetentionPolicy.of(free_days=args.free_days, paid_days=args.paid_days)
    now = args.now or datetime.now(UTC)
    users = UserDirectory.generate(args.seed).users
    with open_store(config.resolved_store_url()) as store:
        report = sweep(store, users, now, policy)
    for account, convid in report.deleted:
        print(f"deleted {account}/{convid}")
    print(f"{len(report.deleted)} deleted, {report.kept} kept (as of {now.isoformat()})")
    return 0


def add_security_commands(commands: Any, with_store: AddStoreOptions) -> None:
    """Add ``keys rotate|reencrypt|status`` and ``sweep`` to the ``mock-account`` sub-commands."""
    keys = commands.add_parser("keys", help="rotate the account keys, re-encrypt, key status")
    actions = keys.add_subparsers(dest="keys_command", required=True, parser_class=type(keys))

    def key_source_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--keyring", type=Path, help="keyring file (default: DATA_DIR/keyring.json)")
        p.add_argument("--hooks", metavar="MODULE", help="hooks module (enterprise keys)")
        p.add_argument(
            "--key-names",
            type=_key_names,
            metavar="A,B",
            help="enterprise key names, oldest first (with a hooks module that has encryptionKey)",
        )

    rotate = actions.add_parser("rotate", help="add a new current key to the managed keyring")
    rotate.add_argument("--data-dir", type=Path, help="data folder (default: the project's data/)")
    rotate.add_argument(
        "--keyring", type=Path, help="keyring file (default: DATA_DIR/keyring.json)"
    )
    rotate.set_defaults(func=_rotate)

    reencrypt = actions.add_parser(
        "reencrypt", help="re-encrypt every stored state and title under the current key"
    )
    with_store(reencrypt)
    key_source_options(reencrypt)
    reencrypt.add_argument(
        "--batch",
        type=positive_int,
        default=DEFAULT_BATCH,
        metavar="N",
        help=f"report progress every N conversations (default {DEFAULT_BATCH})",
    )
    reencrypt.set_defaults(func=_reencrypt)

    status = actions.add_parser("status", help="how many records use each key id")
    with_store(status)
    key_source_options(status)
    status.set_defaults(func=_status)

    sweeper = commands.add_parser("sweep", help="delete conversations past their retention")
    with_store(sweeper)
    sweeper.add_argument(
        "--now",
        type=_iso_time,
        metavar="ISO-TIME",
        help="the time to sweep at (default: now; without a zone, UTC)",
    )
    sweeper.add_argument(
        "--free-days",
        type=_days,
        default=DEFAULT_DAYS["free"],
        metavar="N|none",
        help="days without use before a free-plan conversation goes (default 7)",
    )
    sweeper.add_argument(
        "--paid-days",
        type=_days,
        default=DEFAULT_DAYS["paid"],
        metavar="N|none",
        help="days without use before a paid-plan conversation goes (default: none, kept)",
    )
    sweeper.add_argument("--seed", type=int, default=7, help="seed of the mock users")
    sweeper.set_defaults(func=_sweep)
