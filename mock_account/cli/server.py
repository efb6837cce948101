"""The server commands of ``mock-account``.

    mock-account serve [--host 127.0.0.1] [--port 9020] [--store URL] [--data-dir DIR]
                       [--account-dir DIR] [--workers N] [--max-body-bytes B] [--time-limit S]
                       [--search-behavior executeTopMatch|executeOnlyMatch|showResults]
                       [--sweep-interval S | --no-sweep] [--free-days N|none]
                       [--paid-days N|none] [--idempotency-hours H]

``serve`` runs the HTTP API with uvicorn. With ``--workers N`` (N > 1) uvicorn starts N processes
that each build the deployment from environment variables (``mock_account.api.environment``);
they then need a shared store (SQLite, PostgreSQL or Redis), not ``memory://``.

The server runs the retention sweep itself every ``--sweep-interval`` seconds (default one hour;
``--no-sweep`` turns it off, e.g. when operators run ``mock-account sweep`` from cron), deleting
conversations past ``--free-days`` / ``--paid-days`` and idempotency records past their
``--idempotency-hours``.
"""

from __future__ import annotations

import argparse
import copy
import os
import socket
import sys
from collections.abc import Callable
from typing import Any

from mock_account.api.body_limit import DEFAULT_MAX_BODY_BYTES
from mock_account.cli.options import AddStoreOptions, config_from_args
from mock_account.conversations.retention import RetentionPolicy, parse_days
from mock_account.deployment import (
    FREE_DAYS_ENV,
    IDEMPOTENCY_HOURS_ENV,
    KEY_SOURCE_ENV,
    KEY_SOURCES,
    PAID_DAYS_ENV,
    SEARCH_BEHAVIOR_ENV,
    SEARCH_BEHAVIORS,
    SWEEP_INTERVAL_ENV,
    AccountConfig,
    check_search_behavior,
)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 9020


def _whole_number(name: str, low: int, high: int | None, should: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (no end when ``None``)."""

    def parse(text: str) -> int:
        value = int(text)
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{should}, got {value}")
        return value

    # argparse names the type in its "invalid ... value" message for a word that is no number.
    parse.__name__ = name
    return parse


_positive = _whole_number("_positive", 1, None, "must be at least 1")
_port = _whole_number("_port", 1, 65535, "must be a port number (1-65535)")
_non_negative = _whole_number("_non_negative", 0, None, "must not be negative")


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
    return value


def _days(text: str) -> float | None:
    try:
        return parse_days(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def apply_retention_options(config: AccountConfig, args: argparse.Namespace) -> None:
    """The sweep and retention options given on the command line, over the configuration."""
    if getattr(args, "no_sweep", False):
        config.sweep_interval_s = 0.0
    elif getattr(args, "sweep_interval", None) is not None:
        config.sweep_interval_s = args.sweep_interval
    given = vars(args)  # the day options are absent unless given (None means no limit)
    if "free_days" in given or "paid_days" in given:
        days = config.retention.days_by_plan
        config.retention = RetentionPolicy.of(
            free_days=given.get("free_days", days.get("free")),
            paid_days=given.get("paid_days", days.get("paid")),
        )
    if getattr(args, "idempotency_hours", None) is not None:
        config.idempotency_hours = args.idempotency_hours


def add_retention_options(p: argparse.ArgumentParser) -> None:
    """``--sweep-interval`` / ``--no-sweep``, ``--free-days``, ``--paid-days``,
    ``--idempotency-hours`` (for commands that run an account: the server, the demo)."""
    sweep = p.add_mutually_exclusive_group()
    sweep.add_argument(
        "--sweep-interval",
        type=_seconds,
        metavar="S",
        help=f"seconds between retention sweeps (default 3600, or ${SWEEP_INTERVAL_ENV})",
    )
    sweep.add_argument(
        "--no-sweep", action="store_true", help="do not run the retention sweep in the server"
    )
    p.add_argument(
        "--free-days",
        type=_days,
        default=argparse.SUPPRESS,
        metavar="N|none",
        help=f"days without use before a free-plan conversation goes (default 7, or "
        f"${FREE_DAYS_ENV})",
    )
    p.add_argument(
        "--paid-days",
        type=_days,
        default=argparse.SUPPRESS,
        metavar="N|none",
        help=f"same for the paid plan (default none: kept, or ${PAID_DAYS_ENV})",
    )
    p.add_argument(
        "--idempotency-hours",
        type=_seconds,
        metavar="H",
        help=f"hours an Idempotency-Key answer is kept (default 24, or ${IDEMPOTENCY_HOURS_ENV})",
    )


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging set-up, with the server's own messages (the retention sweep's counts,
    warnings of the store) written the same way, in every worker."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["loggers"]["mock_account"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    return config


def _check_can_listen(host: str, port: int) -> None:
    """Fail with one clear line (not uvicorn's log and exit) when the address is taken."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from mock_account.api import create_app
    from mock_account.api.environment import FACTORY, environment_for
    from mock_account.api.transport import CoalescingHttpToolsProtocol
    from mock_account.deployment import build_deployment

    config = config_from_args(args)
    apply_retention_options(config, args)
    # Checked before the port is probed, so a bad setting is the one error reported.
    check_search_behavior(config.search_behavior)
    store_url = config.resolved_store_url()
    if args.workers > 1 and store_url.startswith("memory:"):
        print(
            "mock-account: --workers > 1 needs a shared store (sqlite, postgresql, redis); "
            "memory:// would give each worker its own conversations",
            file=sys.stderr,
        )
        return 2
    _check_can_listen(args.host, args.port)
    # Built here even with workers: the account, keyring and store are checked (and the keyring
    # created) once, before any worker races to do it.
    deployment = build_deployment(config)
    print(
        f"mock-account: serving {len(deployment.account.agents)} agents on "
        f"http://{args.host}:{args.port} (store {store_url.split(':', 1)[0]}, "
        f"{args.workers} worker{'s' if args.workers > 1 else ''})",
        file=sys.stderr,
        flush=True,
    )
    interval = config.sweep_interval_s
    print(
        f"mock-account: retention sweep {f'every {interval:g} s' if interval else 'off'}",
        file=sys.stderr,
        flush=True,
    )
    common: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "log_level": args.log_level,
        "access_log": args.log_level in ("debug", "info"),
        "log_config": log_config(args.log_level),
        # One send per response instead of two (``mock_account.api.transport``).
        "http": CoalescingHttpToolsProtocol,
    }
    if args.workers == 1:
        app = create_app(deployment, max_body_bytes=args.max_body_bytes)
        try:
            uvicorn.run(app, **common)
        finally:
            deployment.close()
        return 0
    deployment.close()
    os.environ.update(environment_for(config, args.max_body_bytes))
    uvicorn.run(FACTORY, factory=True, workers=args.workers, **common)
    return 0


def add_server_commands(commands: Any, with_store: AddStoreOptions) -> None:
    """Register ``serve`` on the ``mock-account`` subcommands."""
    serve = commands.add_parser("serve", help="run the HTTP API (Search2o-compatible)")
    with_store(serve)
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"default {DEFAULT_HOST}")
    serve.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    serve.add_argument("--workers", type=_positive, default=1, help="uvicorn worker processes")
    serve.add_argument(
        "--max-body-bytes",
        type=_non_negative,
        default=DEFAULT_MAX_BODY_BYTES,
        help=f"larger request bodies get 413 (default {DEFAULT_MAX_BODY_BYTES})",
    )
    serve.add_argument("--hooks", metavar="MODULE", help="enterprise hooks module (import path)")
    serve.add_argument(
        "--key-source",
        choices=KEY_SOURCES,
        help="which keys encrypt new records: managed (the keyring) or enterprise (the hooks' "
        "encryptionKey); the other keeps decrypting during `mock-account keys migrate` "
        f"(default: enterprise when the hooks have encryptionKey; ${KEY_SOURCE_ENV})",
    )
    serve.add_argument("--time-limit", type=_seconds, help="seconds an agent may run (default 5)")
    serve.add_argument(
        "--search-behavior",
        choices=SEARCH_BEHAVIORS,
        help="what search reports as searchBehavior: executeTopMatch (default: run the best "
        "match), showResults (offer the matches; the demo offers the two best when close) or "
        f"executeOnlyMatch; default from ${SEARCH_BEHAVIOR_ENV}",
    )
    add_retention_options(serve)
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn log level; info and debug also log every request",
    )
    serve.set_defaults(func=_serve)
