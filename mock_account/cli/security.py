"""``mock-account keys ...`` and ``mock-account sweep``: key rotation and retention commands.

    mock-account keys rotate [--data-dir D | --keyring F]   add a new current key, print its id
    mock-account keys reencrypt [--store URL] [--data-dir D] [--batch N]
                                                            re-encrypt onto the current key
    mock-account keys status [--store URL] [--data-dir D]   records per key id (and source)
    mock-account keys migrate --to enterprise|managed [--hooks M] [--key-names A,B]
                                                            move records to the other key source
    mock-account sweep [--now ISO-TIME] [--store URL] [--data-dir D]
                       [--free-days N|none] [--paid-days N|none]
                                                            delete conversations past retention

Rotation order for a running server: ``rotate``, restart the server (it must know the new key),
then ``reencrypt``. ``reencrypt`` can be interrupted and started again at any time.

Moving from the managed keyring to an enterprise key hook: configure the hooks (``encryptionKey``)
and restart the servers (they now encrypt with the hook's key and still read what the keyring
encrypted), then ``keys migrate --to enterprise``; ``keys status`` shows how far it got, and an
interrupted migration resumes where it stopped. ``--to managed`` is the way back (the servers run
with ``MOCK_ACCOUNT_KEY_SOURCE=managed`` and the hooks still configured until it is done).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agents_catalog.cli_kit import positive_int
from mock_account.cli.options import AddStoreOptions, config_from_args
from mock_account.conversations.key_rotation import (
    DEFAULT_BATCH,
    ReencryptReport,
    key_status,
    reencrypt_store,
)
from mock_account.conversations.retention import DEFAULT_DAYS, RetentionPolicy, parse_days, sweep
from mock_account.crypto import EnterpriseKeySource, MigratingKeys, StateCipher
from mock_account.deployment import (
    KEY_SOURCES,
    AccountConfig,
    build_cipher,
    load_configured_hooks,
)
from mock_account.stores import open_store
from mock_account.users import UserDirectory
from mock_account.workflows import open_workflow_store
from mock_account.workflows.rotation import reencrypt_workflows, workflow_key_status


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
    try:
        return parse_days(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _key_names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one key name")
    return names


def _cipher_for(config: AccountConfig, *, create_keyring: bool = False) -> StateCipher:
    """The account's cipher; an absent keyring is an error here unless told to create it."""
    hooks, error = load_configured_hooks(config)
    if error is not None:
        raise ValueError(error)
    return build_cipher(config, hooks, create_keyring=create_keyring)


def _source_label(cipher: StateCipher) -> Callable[[str], str] | None:
    """Key id -> the source it belongs to, while two sources are in use (else ``None``)."""
    keys = cipher.keys
    if not isinstance(keys, MigratingKeys):
        return None
    names = {"new": _kind(keys.new), "old": _kind(keys.old), "unknown": "unknown key"}
    return lambda key_id: names[keys.source_of(key_id)]


def _kind(keys: object) -> str:
    return "enterprise" if isinstance(keys, EnterpriseKeySource) else "managed"


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


def _progress_printer(done: str) -> Callable[[ReencryptReport], None]:
    """What a re-encryption prints on stderr as it goes: the counts so far, and ``done``."""

    def progress(report: ReencryptReport) -> None:
        print(
            f"... {report.conversations} conversations, {report.states} states and "
            f"{report.titles} titles {done}",
            file=sys.stderr,
        )

    return progress


def _reencrypt(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    cipher = _cipher_for(config)
    progress = _progress_printer("re-encrypted")
    from mock_account.config_history import open_config_store, reencrypt_versions

    with open_store(config.resolved_store_url()) as store:
        report = reencrypt_store(store, cipher, batch=args.batch, progress=progress)
        workflows = reencrypt_workflows(open_workflow_store(store), cipher)
        # The channel records (senders, contacts, memory, turns) too.
        from mock_account.channels import records_for
        from mock_account.channels.key_rotation import reencrypt_channels

        channels = reencrypt_channels(records_for(store), store, cipher)
        versions = reencrypt_versions(open_config_store(store), cipher)
    print(f"current key: {cipher.keys.current_key_id()}")
    for line in report.lines() + workflows.lines() + channels.lines() + versions.lines():
        print(line)
    failed = report.unreadable or report.gave_up or workflows.unreadable or workflows.gave_up
    return 1 if failed or channels.unreadable or versions.unreadable else 0


def _status(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    cipher = _cipher_for(config)
    with open_store(config.resolved_store_url()) as store:
        status = key_status(store)
        workflows = workflow_key_status(open_workflow_store(store))
        from mock_account.channels import records_for
        from mock_account.channels.key_rotation import channel_key_status

        channels = channel_key_status(records_for(store))
    current = cipher.keys.current_key_id()
    for line in status.lines(current, source_of=_source_label(cipher)):
        print(line)
    for kind, counts in workflows.items():
        for key_id, count in sorted(counts.items()):
            print(f"{key_id}: {count} workflow {kind} records")
    for key_id, count in sorted(channels.items()):
        print(f"{key_id}{' (current)' if key_id == current else ''}: {count} channel records")
    return 0


def _migrate(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    config.key_source = args.to
    nothing = ValueError(
        f"nothing to migrate to {args.to} keys from: configure both the managed keyring "
        "and a hooks module with encryptionKey (--hooks)"
    )
    hooks, error = load_configured_hooks(config)
    if error is not None:
        raise ValueError(error)
    if hooks is None or hooks.encryption_key is None:
        raise nothing
    cipher = build_cipher(config, hooks, create_keyring=args.to == "managed")
    if not isinstance(cipher.keys, MigratingKeys):
        raise nothing
    label = _source_label(cipher)

    progress = _progress_printer(f"moved to {args.to} keys")
    with open_store(config.resolved_store_url()) as store:
        report = reencrypt_store(store, cipher, batch=args.batch, progress=progress)
        status = key_status(store)
    print(f"now encrypting with: {cipher.keys.current_key_id()} ({args.to})")
    for line in report.lines():
        print(line)
    for line in status.lines(cipher.keys.current_key_id(), source_of=label):
        print(line)
    return 1 if report.unreadable or report.gave_up else 0


def _sweep(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    policy = RetentionPolicy.of(free_days=args.free_days, paid_days=args.paid_days)
    now = args.now or datetime.now(UTC)
    users = UserDirectory.generate(args.seed).users
    with open_store(config.resolved_store_url()) as store:
        report = sweep(store, users, now, policy)
        # Channel identities idle past retention go too, with their memory.
        from mock_account.channels import records_for, sweep_channels

        # With their workflow progress, actions and outbox records.
        channels = sweep_channels(
            records_for(store), store, users, now, policy, workflows=open_workflow_store(store)
        )
    for account, convid in report.deleted:
        print(f"deleted {account}/{convid}")
    print(
        f"{len(report.deleted)} deleted, {report.kept} kept, {report.purged} expired "
        f"idempotency records removed (as of {now.isoformat()})"
    )
    if channels.deleted_identities:
        print(
            f"{len(channels.deleted_identities)} channel identities deleted with their memory "
            f"and {channels.workflow_records} workflow records"
        )
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

    def batch_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--batch",
            type=positive_int,
            default=DEFAULT_BATCH,
            metavar="N",
            help=f"report progress every N conversations (default {DEFAULT_BATCH})",
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
    batch_option(reencrypt)
    reencrypt.set_defaults(func=_reencrypt)

    status = actions.add_parser("status", help="how many records use each key id")
    with_store(status)
    key_source_options(status)
    status.set_defaults(func=_status)

    migrate = actions.add_parser(
        "migrate", help="move every record to the other key source (resumable)"
    )
    with_store(migrate)
    key_source_options(migrate)
    migrate.add_argument(
        "--to", required=True, choices=KEY_SOURCES, help="the key source to move the records to"
    )
    batch_option(migrate)
    migrate.set_defaults(func=_migrate)

    sweeper = commands.add_parser("sweep", help="delete conversations past their retention")
    with_store(sweeper)
    sweeper.add_argument(
        "--now",
        type=_iso_time,
        metavar="ISO-TIME",
        help="the time to sweep at (default: now; without a zone, UTC)",
    )
    for plan, said_default in (("free", "(default 7)"), ("paid", "(default: none, kept)")):
        sweeper.add_argument(
            f"--{plan}-days",
            type=_days,
            default=DEFAULT_DAYS[plan],
            metavar="N|none",
            help=f"days without use before a {plan}-plan conversation goes {said_default}",
        )
    sweeper.add_argument("--seed", type=int, default=7, help="seed of the mock users")
    sweeper.set_defaults(func=_sweep)
