"""Agents that invent their own names: one that never talks through the standard prompt.

"One that invents its own names starts from nothing, and leaves nothing the next agent can
find": the check looks at the whole file, so the finding is placed on the agent's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..graph import iter_raw_commands
from .context import FileCheck
from .suggest import near_miss


def check_conventions(check: FileCheck, data: dict[str, Any]) -> None:
    if not isinstance(data.get("main"), list) or not isinstance(data.get("name"), str):
        return  # not an agent yet: the format check says why
    _standard_prompt(check, data)


def _standard_prompt(check: FileCheck, data: dict[str, Any]) -> None:
    standard = check.scheme.scheme.prompts
    used: set[str] = set()
    own: list[str] = []
    for kind, args, _where in iter_raw_commands(data):
        if not isinstance(args, Mapping) or not isinstance(
            args.get("name" if kind == "prompt" else "prompt"), str
        ):
            continue
        if kind == "prompt":
            name = args["name"]
            # A standard name in the wrong scope (NS002) or a near miss of one (NS001) is
            # reported by those rules: the agent meant the standard prompt.
            if name in standard or near_miss(name, standard):
                used.add(name)
            else:
                own.append(name)
        elif kind in ("llm", "data") and args["prompt"] in standard:
            used.add(args["prompt"])
    if used or not own:
        return  # no prompt at all says nothing to the user: other rules look at its variables
    names = ", ".join(f"'{n}'" for n in sorted(standard))
    mine = f" (it talks through {', '.join(repr(n) for n in own)} only)" if own else ""
    check.add(
        "NS027",
        ("name",),
        f"agent '{data['name']}' never uses the standard prompt {names}{mine}: it starts from "
        "nothing the earlier agents said, and the next agent cannot see its exchange",
        f"- prompt: {{name: {sorted(standard)[0]}, scope: conversation, user: '{{sys.query}}'}}",
    )
