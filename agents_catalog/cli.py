"""agents-catalog: generate the account, publish the agent schema, check agents.

Exit codes: 0 fine, 1 findings (``check``), 2 bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from agents_catalog.cli_kit import Parser, run

from .agent_format import agent_json_schema
from .check_cli import add_check_commands
from .errors import CatalogError
from .generator import (
    DEFAULT_SEED,
    GeneratorError,
    generate_files,
    hand_written_files,
    write_account,
)
from .loader import load_account


def _generate(args: argparse.Namespace) -> int:
    files = generate_files(count=args.count, seed=args.seed)
    injected = []
    if args.violations:
        from .violations import inject_violations

        try:
            files, injected = inject_violations(files, args.violations, args.seed)
        except ValueError as exc:
            raise GeneratorError(str(exc)) from exc
    out = write_account(files, args.out, force=args.force)
    kept = hand_written_files(out)
    print(
        f"wrote {len(files)} agents to {out}" + (f", kept {len(kept)} hand-written" if kept else "")
    )
    for item in injected:
        print(f"injected {item.rule_id} in {item.file}: {item.description}")
    return 0


def _schema(args: argparse.Namespace) -> int:
    print(json.dumps(agent_json_schema(), indent=2, sort_keys=True))
    return 0


def _validate(args: argparse.Namespace) -> int:
    agents = []
    for path in args.paths:
        agents.extend(load_account(path))
    print(f"{len(agents)} valid agents")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="agents-catalog", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    gen = commands.add_parser("generate", help="generate the mock account's agent files")
    gen.add_argument(
        "--count", type=int, help="number of generated agents (default: one per capability)"
    )
    gen.add_argument("--seed", type=int, default=DEFAULT_SEED, help="same seed, same files")
    gen.add_argument("--out", type=Path, required=True, help="folder to write (created)")
    gen.add_argument("--violations", type=int, default=0, help="inject K naming violations")
    gen.add_argument("--force", action="store_true", help="replace a non-empty --out folder")
    gen.set_defaults(func=_generate)

    schema = commands.add_parser("schema", help="print the JSON Schema of an agent file")
    schema.set_defaults(func=_schema)

    validate = commands.add_parser("validate", help="load agent folders and report problems")
    validate.add_argument("paths", nargs="+", type=Path)
    validate.set_defaults(func=_validate)

    add_check_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run("agents-catalog", build_parser().parse_args(argv), (CatalogError, GeneratorError))


if __name__ == "__main__":
    sys.exit(main())
