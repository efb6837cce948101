"""``mock-account config``: the agents' configuration history from the command line.

    mock-account config show AGENT [--json]                  the current sections
    mock-account config list AGENT [--section S] [--json]    the kept versions, newest first
    mock-account config diff AGENT SECTION REVISION [--against N]
    mock-account config save AGENT SECTION FILE [--base-revision N] [--template]
    mock-account config restore AGENT SECTION REVISION
    mock-account config clone AGENT NEW_NAME

``save`` reads the section's content as YAML or JSON from FILE (``-``: standard input), in the
shape ``show`` prints. The store is the server's (``--store``, ``--data-dir``), so a running
server applies the change at its next request. Exit 0 done, 1 refused (invalid configuration,
naming-scheme findings, a conflict, an unknown agent or version), 2 bad usage.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from mock_account.cli.options import AddStoreOptions, open_deployment
from mock_account.config_history import (
    SECTIONS,
    ConfigFormatError,
    ConfigHistory,
    ConfigRefused,
    UnknownAgent,
    split_agent,
)
from mock_account.stores.errors import VersionConflict


def _history(args: argparse.Namespace) -> tuple[Any, ConfigHistory]:
    deployment = open_deployment(args)
    return deployment, deployment.config_history


def _author() -> str:
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli"


def _refused(exc: Exception) -> int:
    print(f"mock-account config: {exc}", file=sys.stderr)
    for finding in getattr(exc, "findings", []):
        suggestion = f" (did you mean {finding['suggestion']}?)" if finding["suggestion"] else ""
        print(
            f"  {finding['rule']} {finding['severity']}: {finding['message']}{suggestion}",
            file=sys.stderr,
        )
    return 1


def _run(args: argparse.Namespace, action: Callable[[ConfigHistory], int]) -> int:
    deployment, history = _history(args)
    try:
        return action(history)
    except (ConfigRefused, ConfigFormatError, UnknownAgent, VersionConflict) as exc:
        return _refused(exc)
    finally:
        deployment.close()


def _print_result(result: Any) -> int:
    if not result.changed:
        print(f"{result.agent}: unchanged (revision {result.revision}, nothing saved)")
    else:
        print(
            f"{result.agent}: saved {', '.join(result.changed)} as revision {result.revision} "
            f"(version {result.version})"
        )
    for finding in result.warnings:
        print(f"  warning {finding['rule']}: {finding['message']}")
    return 0


def _show(args: argparse.Namespace) -> int:
    def action(history: ConfigHistory) -> int:
        agent = history.current(args.agent)
        sections = split_agent(agent)
        if args.json:
            print(json.dumps({"version": agent.version, "sections": sections}, indent=2))
        else:
            print(f"# {agent.name} {agent.version}")
            print(yaml.safe_dump(sections, sort_keys=False, allow_unicode=True), end="")
        return 0

    return _run(args, action)


def _list(args: argparse.Namespace) -> int:
    def action(history: ConfigHistory) -> int:
        sections = [args.section] if args.section else list(SECTIONS)
        found = {s: history.versions(args.agent, s) for s in sections}
        if args.json:
            print(json.dumps({s: [v.to_dict() for v in vs] for s, vs in found.items()}, indent=2))
            return 0
        for section, versions in found.items():
            print(f"{section}:")
            for v in versions:
                when = v.created.isoformat(timespec="seconds") if v.created else "-"
                mark = "*" if v.current else " "
                print(f"  {mark} {v.revision:>4}  {v.origin:8} {when:25} {v.author or ''}")
        return 0

    return _run(args, action)


def _diff(args: argparse.Namespace) -> int:
    def action(history: ConfigHistory) -> int:
        print(history.diff(args.agent, args.section, args.revision, args.against) or "(same)")
        return 0

    return _run(args, action)


def _read_content(source: str) -> Any:
    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"{source} is not YAML or JSON: {exc}") from None


def _save(args: argparse.Namespace) -> int:
    content = _read_content(args.file)

    def action(history: ConfigHistory) -> int:
        return _print_result(
            history.save(
                args.agent,
                args.section,
                content,
                author=_author(),
                origin="template" if args.template else "edit",
                base_revision=args.base_revision,
            )
        )

    return _run(args, action)


def _restore(args: argparse.Namespace) -> int:
    return _run(
        args,
        lambda history: _print_result(
            history.restore(args.agent, args.section, args.revision, author=_author())
        ),
    )


def _clone(args: argparse.Namespace) -> int:
    return _run(
        args,
        lambda history: _print_result(history.clone(args.agent, args.new_name, author=_author())),
    )


def add_config_commands(commands: Any, with_store: AddStoreOptions) -> None:
    """Add ``config show|list|diff|save|restore|clone`` to the ``mock-account`` sub-commands."""
    config = commands.add_parser("config", help="agent configuration history: list, save, restore")
    actions = config.add_subparsers(dest="config_command", required=True, parser_class=type(config))

    def agent_and(p: argparse.ArgumentParser, *, section: bool = False) -> None:
        with_store(p)
        p.add_argument("agent", help="the agent's name")
        if section:
            p.add_argument("section", choices=SECTIONS, help="the section")

    show = actions.add_parser("show", help="the current sections of an agent")
    agent_and(show)
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=_show)

    listing = actions.add_parser("list", help="the kept versions, newest first")
    agent_and(listing)
    listing.add_argument("--section", choices=SECTIONS)
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(func=_list)

    diff = actions.add_parser("diff", help="a version against the current one (or --against)")
    agent_and(diff, section=True)
    diff.add_argument("revision", type=int)
    diff.add_argument("--against", type=int)
    diff.set_defaults(func=_diff)

    save = actions.add_parser("save", help="save a section from a YAML or JSON file (- stdin)")
    agent_and(save, section=True)
    save.add_argument("file", help="the section's content (YAML or JSON); - for stdin")
    save.add_argument("--base-revision", type=int, help="refuse if the agent moved past it")
    save.add_argument("--template", action="store_true", help="record it as a template applied")
    save.set_defaults(func=_save)

    restore = actions.add_parser("restore", help="make a kept version current (undoable)")
    agent_and(restore, section=True)
    restore.add_argument("revision", type=int)
    restore.set_defaults(func=_restore)

    clone = actions.add_parser("clone", help="a new agent with this one's configuration")
    agent_and(clone)
    clone.add_argument("new_name")
    clone.set_defaults(func=_clone)
