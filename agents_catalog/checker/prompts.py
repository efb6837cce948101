"""Prompt-name checks: unknown and near-miss prompt names, and standard-prompt scopes.

A prompt is *declared* by a ``prompt`` command (name and scope, default conversation)
and *used* by ``llm`` and ``data`` (their ``prompt``). Conversation-scoped prompts are
shared by name across agents, so their names must come from the scheme; agent- and
local-scoped prompts may have names of their own unless they are a near miss of a
standard name (``Chat``, ``chat_v2``, ``chats``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..graph import YamlPath, iter_raw_commands
from .context import FileCheck
from .suggest import did_you_mean, near_miss

DEFAULT_SCOPE = "conversation"
_USERS = ("llm", "data")


def check_prompts(check: FileCheck, data: dict[str, Any]) -> None:
    declared: dict[str, set[str]] = {}
    declarations: list[tuple[str, str, YamlPath]] = []
    uses: list[tuple[str, YamlPath]] = []
    for kind, args, where in iter_raw_commands(data):
        if not isinstance(args, Mapping):
            continue
        if kind == "prompt":
            name, scope = args.get("name"), args.get("scope", DEFAULT_SCOPE)
            if isinstance(name, str) and isinstance(scope, str):
                declarations.append((name, scope, where))
                declared.setdefault(name, set()).add(scope)
        elif kind in _USERS and isinstance(args.get("prompt"), str):
            uses.append((args["prompt"], (*where, "prompt")))

    standard = check.scheme.scheme.prompts
    names = ", ".join(f"'{n}'" for n in sorted(standard))
    for name, scope, where in declarations:
        if name in standard:
            wanted = standard[name].scope
            if scope != wanted:
                if wanted in declared[name]:
                    message = (
                        f"{scope}-scoped prompt '{name}' shadows the standard {wanted} prompt "
                        f"'{name}' of this agent"
                    )
                else:
                    message = (
                        f"standard prompt '{name}' is declared with scope {scope}; "
                        f"the naming scheme says {wanted}"
                    )
                check.add("NS002", (*where, "scope"), message, f"scope: {wanted}")
            continue
        miss = near_miss(name, standard)
        if miss:
            message = f"prompt '{name}' is a near miss of the standard prompt '{miss}'"
            check.add("NS001", (*where, "name"), message, miss)
        elif scope == DEFAULT_SCOPE:
            message = (
                f"conversation-scoped prompt '{name}' is not in the naming scheme: "
                f"use {names}, or scope agent or local for a prompt of this agent's own"
            )
            check.add("NS001", (*where, "name"), message, did_you_mean(name, standard))

    for name, where in uses:
        if name in standard or name in declared:
            continue
        miss = near_miss(name, standard)
        if miss:
            message = f"prompt '{name}' is a near miss of the standard prompt '{miss}'"
        else:
            message = f"prompt '{name}' is neither declared by this agent nor in the naming scheme"
        check.add("NS001", where, message, miss or did_you_mean(name, standard))
