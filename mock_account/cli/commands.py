"""mock-account: the agent server and its tools.

    mock-account chat [--user EMAIL]        terminal chat on the embedded defaults
    mock-account users [--json]             the mock users and their bearer tokens
    mock-account search-eval                search accuracy on the labelled request sets
    mock-account prospect-eval FILE [--verbose] [--json] [--host URL]
                                            score prospect conversations (right agent,
                                            facts kept, follow-ups on the saved record)

Exit codes: 0 fine, 1 a check failed, 2 bad usage or unusable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from agents_catalog.cli_kit import Parser, run
from agents_catalog.errors import CatalogError
from mock_account.cli.config import add_config_commands
from mock_account.cli.options import add_store_options, config_from_args, open_deployment
from mock_account.cli.security import add_security_commands
from mock_account.cli.server import add_server_commands
from mock_account.crypto import CryptoError
from mock_account.deployment import SEARCH_MODES, build_deployment
from mock_account.stores import StoreError

#: The bearer token ``prospect-eval --host`` sends.
PROSPECT_TOKEN_ENV = "PROSPECT_EVAL_TOKEN"


def _chat(args: argparse.Namespace) -> int:
    from mock_account.cli.chat import run_chat

    deployment = open_deployment(args)
    users = deployment.users
    user = users.by_email(args.user) if args.user else users.users[0]
    if user is None:
        print(f"mock-account: no user '{args.user}' (see `mock-account users`)", file=sys.stderr)
        return 2
    try:
        return run_chat(deployment.account, user)
    finally:
        deployment.close()


def _users(args: argparse.Namespace) -> int:
    from mock_account.users import UserDirectory

    issued = UserDirectory.generate(args.seed).tokens()
    if args.json:
        rows = [
            {
                "email": t.user.email,
                "name": t.user.name,
                "account": t.user.account,
                "plan": t.user.plan,
                "token": t.token,
            }
            for t in issued
        ]
        print(json.dumps(rows, indent=2))
    else:
        for t in issued:
            print(f"{t.user.email:40} {t.user.account:8} {t.token}")
    return 0


def _search_eval(args: argparse.Namespace) -> int:
    # The development set, the held-out set and the fresh held-out set, each in both modes.
    from mock_account.search.evaluation import report_all_sets

    return report_all_sets(SEARCH_MODES)


def _prospect_eval(args: argparse.Namespace) -> int:
    import os

    from mock_account.conversations.prospect_eval import (
        AccountTarget,
        HttpTarget,
        ProspectTargetError,
        dumps,
        evaluate,
        load_prospect_set,
    )

    prospects = load_prospect_set(args.file)
    if args.host:
        token = os.environ.get(PROSPECT_TOKEN_ENV)
        if not token:
            print(
                f"mock-account: --host needs a bearer token in ${PROSPECT_TOKEN_ENV}",
                file=sys.stderr,
            )
            return 2
        target = HttpTarget(args.host, token)
        try:
            report = evaluate(target, prospects)
        except ProspectTargetError as exc:
            print(f"mock-account: {exc}", file=sys.stderr)
            return 2
        finally:
            target.close()
    else:
        config = config_from_args(args)
        # The file's day is the world's today unless --today says otherwise; the store is the
        # memory one unless given, so an evaluation leaves nothing behind.
        config.today = args.today or prospects.today
        config.store_url = args.store or "memory://"
        deployment = build_deployment(config)
        try:
            users = deployment.users
            user = users.by_email(args.user) if args.user else users.users[0]
            if user is None:
                print(
                    f"mock-account: no user '{args.user}' (see `mock-account users`)",
                    file=sys.stderr,
                )
                return 2
            report = evaluate(AccountTarget(deployment.account, user), prospects)
        finally:
            deployment.close()
    if args.json:
        print(dumps(report))
    else:
        print("\n".join(report.lines(verbose=args.verbose)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="mock-account", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    chat = commands.add_parser("chat", help="chat with the account in the terminal")
    add_store_options(chat)
    chat.add_argument("--user", help="email of the user to chat as (default: the first)")
    chat.add_argument("--hooks", metavar="MODULE", help="enterprise hooks module (import path)")
    chat.set_defaults(func=_chat)

    users = commands.add_parser("users", help="print the mock users and their tokens")
    users.add_argument("--json", action="store_true")
    users.add_argument("--seed", type=int, default=7)
    users.set_defaults(func=_users)

    ev = commands.add_parser("search-eval", help="print search top-1 / top-2 accuracy")
    ev.set_defaults(func=_search_eval)

    prospects = commands.add_parser(
        "prospect-eval", help="score prospect conversations in the prospect-file format"
    )
    add_store_options(prospects)
    prospects.add_argument("file", type=Path, help="a prospect file (YAML)")
    prospects.add_argument("--verbose", action="store_true", help="every turn, with its answer")
    prospects.add_argument("--json", action="store_true", help="the report as JSON")
    prospects.add_argument("--user", help="email of the user to run as (default: the first)")
    prospects.add_argument(
        "--host",
        help=f"a server URL to run against over HTTP (token in ${PROSPECT_TOKEN_ENV})",
    )
    prospects.set_defaults(func=_prospect_eval)

    add_server_commands(commands, add_store_options)
    add_security_commands(commands, add_store_options)
    add_config_commands(commands, add_store_options)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run("mock-account", args, (CatalogError, CryptoError, StoreError, ValueError, OSError))
