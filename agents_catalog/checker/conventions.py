"""Agents that invent their own names: one that never talks through the standard prompt
(NS027), and one about something the scheme names that uses no agreed variable (NS028).

"One that invents its own names starts from nothing, and leaves nothing the next agent can
find": the checks look at the whole file, so the findings are placed on the agent's name.

What an agent is about comes from its name, not from its wording: agent names are a verb
and the thing it acts on (``BookBusinessTrip``, ``CancelCustomerOrder``), and in English
the thing is the last word, the head of the compound. So ``DraftCustomerReply`` is about a
reply (for a customer) and ``OrderOfficeSupplies`` about supplies (``Order`` is its verb);
neither is about a customer or an order. Free text ("order a box of pens") cannot tell a
verb from a noun, so examples and titles are not used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..graph import iter_raw_commands
from .context import FileCheck
from .suggest import near_miss, normal_forms

# The words of an agent name: CamelCase parts, acronyms (``Api``, ``API``), digit runs;
# ``_`` and other separators split too.
_NAME_WORD_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_VERSION_RE = re.compile(r"_?[Vv]?[0-9]+$")


def check_conventions(check: FileCheck, data: dict[str, Any]) -> None:
    if not isinstance(data.get("main"), list) or not isinstance(data.get("name"), str):
        return  # not an agent yet: the format check says why
    _standard_prompt(check, data)
    _agreed_variable(check, data)


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


def name_subject(name: str, variables: Iterable[str]) -> tuple[str, str] | None:
    """The agreed variable an agent name is about, with the word that names it, or None.

    The subject is the last word of the name (singular or plural: ``ApproveTeamExpenses``
    is about an expense; a version suffix such as ``V2`` is not a word). A one-word name
    has no verb to tell its subject from, so it has none.
    """
    words = _NAME_WORD_RE.findall(_VERSION_RE.sub("", name))
    if len(words) < 2:
        return None
    head = words[-1]
    forms = normal_forms(head)
    for variable in sorted(variables):
        if variable.lower() in forms:
            return variable, head
    return None


def _agreed_variable(check: FileCheck, data: dict[str, Any]) -> None:
    known = check.scheme.scheme.variables
    subject = name_subject(data["name"], known)
    if subject is None:
        return
    # A near miss of an agreed name (``conv.trips``) is NS003's finding: the agent meant it.
    if any(ref.variable in known or near_miss(ref.variable, known) for ref in check.source.refs):
        return
    variable, word = subject
    article = "an" if variable[:1].lower() in "aeiou" else "a"
    check.add(
        "NS028",
        ("name",),
        f"agent '{data['name']}' is about {article} {variable} (the '{word}' in its name) but "
        f"reads and writes no agreed conversation variable: use conv.{variable}, so it builds "
        f"on the {variable} earlier agents found and the next agent finds this one",
        f"conv.{variable}",
    )
