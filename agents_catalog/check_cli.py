"""The ``check``, ``rules`` and ``graph`` subcommands of ``agents-catalog``.

    agents-catalog check PATH... [--scheme FILE] [--account DIR]
        [--format text|json|sarif|junit|github] [--fail-on error|warning|info]
        [--select RULES] [--ignore RULES]
    agents-catalog rules [ID]
    agents-catalog graph [--account DIR] [--scheme FILE] [--format dot|json|text]

Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2 bad usage or unreadable
input (one line on stderr). ``add_check_commands`` registers the subcommands on the main
parser; each sets ``func(args) -> exit code``. Also runnable as
``python -m agents_catalog.check_cli``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from agents_catalog.cli_kit import Parser

from .checker import (
    FORMATS,
    RULES,
    CompiledScheme,
    InputError,
    Severity,
    check_paths,
    discover,
    find_rule,
    render,
    select_rules,
)
from .checker.source import read_source
from .errors import CatalogError
from .graph import HandoffGraph, build_handoff_graph
from .loader import default_account_dir
from .scheme import NamingScheme, load_scheme

PROG = "agents-catalog"
GRAPH_FORMATS = ("text", "json", "dot")


def _fail(command: str, message: str) -> int:
    one_line = " ".join(str(message).split())
    print(f"{PROG} {command}: error: {one_line}", file=sys.stderr)
    return 2


def _scheme(args: argparse.Namespace) -> NamingScheme:
    return load_scheme(args.scheme) if args.scheme else load_scheme()


def _account(args: argparse.Namespace) -> Path | None:
    if args.account:
        folder = Path(args.account)
        if not folder.is_dir():
            raise InputError(f"account folder not found: {args.account}")
        return folder
    shipped = default_account_dir()
    return shipped if shipped.is_dir() else None


def run_check(args: argparse.Namespace) -> int:
    try:
        rules = select_rules(args.select, args.ignore)
        scheme = CompiledScheme(_scheme(args))
        report = check_paths(args.paths, scheme, _account(args), rules)
    except (CatalogError, ValueError) as exc:
        return _fail("check", str(exc))
    fail_on = Severity(args.fail_on)
    sys.stdout.write(render(report, args.format, fail_on))
    return 1 if report.fails(fail_on) else 0


def run_rules(args: argparse.Namespace) -> int:
    if args.rule:
        rule = find_rule(args.rule)
        if rule is None:
            return _fail("rules", f"unknown rule '{args.rule}' (run `{PROG} rules` for the list)")
        print(rule.doc())
        return 0
    width = max(len(rule.name) for rule in RULES)
    for rule in RULES:
        print(f"{rule.id}  {rule.severity.value:<7}  {rule.name:<{width}}  {rule.summary}")
    return 0


def _account_graph(folder: Path) -> HandoffGraph:
    sources = [read_source(path) for path in discover([folder], allow_empty=True)]
    return build_handoff_graph(s.data for s in sources if isinstance(s.data, dict))


def graph_text(graph: HandoffGraph, variables: list[str]) -> str:
    """Per variable: who writes it and who reads it."""
    lines: list[str] = []
    names = sorted({*graph.variables(), *variables})
    for variable in names:
        agreed = "" if variable in variables else "  (not in the naming scheme)"
        lines.append(f"conv.{variable}{agreed}")
        lines.append(f"  written by: {', '.join(graph.writers(variable)) or '-'}")
        lines.append(f"  read by:    {', '.join(graph.readers(variable)) or '-'}")
    edges = graph.edges()
    lines.append(f"{len(graph.agents)} agents, {len(names)} variables, {len(edges)} hand-offs")
    return "\n".join(lines) + "\n"


def run_graph(args: argparse.Namespace) -> int:
    try:
        scheme = _scheme(args)
        folder = _account(args)
        if folder is None:
            raise InputError("no account folder: pass --account DIR")
        graph = _account_graph(folder)
    except CatalogError as exc:
        return _fail("graph", str(exc))
    variables = sorted(scheme.variables)
    if args.format == "json":
        sys.stdout.write(json.dumps(graph.to_dict(variables), indent=2) + "\n")
    elif args.format == "dot":
        sys.stdout.write(graph.to_dot(variables))
    else:
        sys.stdout.write(graph_text(graph, variables))
    return 0


def add_check_commands(subparsers: Any) -> None:
    """Register ``check``, ``rules`` and ``graph`` on an argparse subparsers object."""
    check = subparsers.add_parser(
        "check",
        help="lint agent files against the naming scheme",
        description="Lint agent YAML files against the naming scheme. Exit 0 when clean, "
        "1 when a finding is at or above --fail-on, 2 on bad usage or unreadable input.",
    )
    check.add_argument("paths", nargs="+", metavar="PATH", help="agent files or folders")
    check.add_argument("--scheme", metavar="FILE", help="naming scheme (default: the package's)")
    check.add_argument(
        "--account",
        metavar="DIR",
        help="the account's agent folder, for hand-off checks "
        "(default: the generated account when present, else only the files checked)",
    )
    check.add_argument("--format", choices=FORMATS, default="text", help="report format")
    check.add_argument(
        "--fail-on",
        choices=[s.value for s in Severity],
        default=Severity.ERROR.value,
        help="lowest severity that makes the exit code 1 (default: error)",
    )
    check.add_argument(
        "--select",
        metavar="RULES",
        help="only these rules: ids, id prefixes or names, comma-separated",
    )
    check.add_argument("--ignore", metavar="RULES", help="skip these rules (same syntax)")
    check.set_defaults(func=run_check)

    rules = subparsers.add_parser(
        "rules", help="list the conformance rules", description="List rules or show one's doc."
    )
    rules.add_argument("rule", nargs="?", metavar="ID", help="a rule id or name: show its doc")
    rules.set_defaults(func=run_rules)

    graph = subparsers.add_parser(
        "graph",
        help="show which agents write and read each conversation variable",
        description="The hand-off graph of an account folder.",
    )
    graph.add_argument("--account", metavar="DIR", help="account folder (default: generated)")
    graph.add_argument("--scheme", metavar="FILE", help="naming scheme (default: the package's)")
    graph.add_argument("--format", choices=GRAPH_FORMATS, default="text", help="output format")
    graph.set_defaults(func=run_graph)


def build_parser() -> argparse.ArgumentParser:
    """A parser with only these subcommands (the full CLI is ``agents_catalog.cli``)."""
    parser = Parser(prog=PROG, description="Naming-scheme conformance tools.")
    add_check_commands(parser.add_subparsers(dest="command", required=True, parser_class=Parser))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
