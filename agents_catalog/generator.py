"""Build the mock account: one agent file per capability, deterministic for a seed.

Every agent talks to the user through the standard ``chat`` prompt. An agent that
*writes* an agreed variable looks up a record of the variable's data source and
copies the fields of the variable's schema into ``conv.<name>``; an agent that
*reads* one uses it when present (in its data lookup and in a hand-off sentence of
its reply). That is what makes a follow-up move from one agent to another that
already knows what the first one found.

The seed picks the wording of each agent's system text and, for ``count`` below
the number of capabilities, which agents are in the account. The same seed gives
byte-identical files.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml

from .capabilities import VARIABLE_SOURCES, Capability, Department, load_departments
from .scheme import NamingScheme, load_scheme

DEFAULT_SEED = 7
VERSION = "1.0.0"

# How a reader mentions what an earlier agent saved; every path here is in the schema.
HANDOFF_PHRASES = {
    "trip": "I used the trip to {conv.trip.destination} ({conv.trip.start_date} to "
    "{conv.trip.end_date}) already saved in this conversation.",
    "customer": "I used the customer {conv.customer.name} ({conv.customer.id}) already saved "
    "in this conversation.",
    "order": "I used order {conv.order.id} ({conv.order.status}) already saved in this "
    "conversation.",
    "employee": "I used the employee {conv.employee.name} ({conv.employee.id}) already saved "
    "in this conversation.",
    "ticket": "I used ticket {conv.ticket.id} ({conv.ticket.subject}) already saved in this "
    "conversation.",
    "invoice": "I used invoice {conv.invoice.number} ({conv.invoice.amount} "
    "{conv.invoice.currency}) already saved in this conversation.",
    "expense": "I used the {conv.expense.category} expense of {conv.expense.amount} "
    "{conv.expense.currency} already saved in this conversation.",
    "incident": "I used incident {conv.incident.id} on {conv.incident.service} already saved "
    "in this conversation.",
    "contract": "I used contract {conv.contract.id} with {conv.contract.counterparty} already "
    "saved in this conversation.",
    "vendor": "I used the vendor {conv.vendor.name} ({conv.vendor.id}) already saved in this "
    "conversation.",
    "campaign": "I used the campaign {conv.campaign.name} ({conv.campaign.channel}) already "
    "saved in this conversation.",
    "candidate": "I used the candidate {conv.candidate.name} for {conv.candidate.role} already "
    "saved in this conversation.",
}
# The field of each variable that best identifies it in a free-text data lookup.
KEY_FIELDS = {
    "trip": "destination",
    "customer": "name",
    "order": "product",
    "employee": "name",
    "ticket": "subject",
    "invoice": "party",
    "expense": "category",
    "incident": "service",
    "contract": "counterparty",
    "vendor": "name",
    "campaign": "name",
    "candidate": "role",
}
SYSTEM_STYLES = (
    "You are {title}, an assistant of the {label} department. Be brief and concrete.",
    "You are the {label} department's assistant for this task: {title}. Answer in two sentences.",
    "Role: {title} ({label}). Use what earlier agents saved in this conversation.",
)


class GeneratorError(ValueError):
    """The account cannot be generated as asked (bad count, bad capability)."""


def _agent_document(
    cap: Capability, label: str, scheme: NamingScheme, rng: random.Random
) -> dict[str, Any]:
    main: list[dict[str, Any]] = []
    for phrase in cap.refuses:
        main.append(
            {
                "if": {
                    "when": {"left": "{sys.query}", "op": "contains", "right": phrase},
                    "then": [
                        {"fail": {"message": cap.refusal or f"{cap.title}: I can't do that."}}
                    ],
                }
            }
        )
    system = rng.choice(SYSTEM_STYLES).format(title=cap.title, label=label)
    main.append(
        {
            "prompt": {
                "name": "chat",
                "scope": "conversation",
                "system": system,
                "user": "{sys.query}",
            }
        }
    )
    if cap.extra_prompt == "agent":
        main.append(
            {
                "prompt": {
                    "name": "notes",
                    "scope": "agent",
                    "system": f"Working notes of {cap.name}, kept for this conversation.",
                    "user": "Request: {sys.query}",
                }
            }
        )
    elif cap.extra_prompt == "local":
        main.append(
            {
                "prompt": {
                    "name": "draft",
                    "scope": "local",
                    "system": f"Scratch drafts of {cap.name} for this run only.",
                    "user": "Draft an answer to: {sys.query}",
                }
            }
        )
    reply = cap.reply or f"{cap.title}: done."
    if cap.ask:
        ask = {"message": cap.ask["message"], "inputs": cap.ask["inputs"], "into": "answers"}
        main.append({"ask": ask})
        shown = [
            i for i in cap.ask["inputs"] if i.get("type") != "password" and not i.get("hidden")
        ]
        if shown:
            noted = ", ".join(f"{i['label']}: {{answers.{i['name']}}}" for i in shown[:3])
            reply = f"{reply} Noted - {noted}."
    if cap.data:
        match = "{sys.query}" + "".join(
            f" {{conv.{var}.{KEY_FIELDS[var]}}}" for var in cap.reads if var in KEY_FIELDS
        )
        main.append(
            {"data": {"source": cap.data, "match": match, "into": "record", "prompt": "chat"}}
        )
    for var in cap.reads:
        main.append(
            {
                "if": {
                    "when": {"exists": f"conv.{var}"},
                    "then": [{"var": {"name": f"handoff_{var}", "value": HANDOFF_PHRASES[var]}}],
                }
            }
        )
        reply = f"{reply} {{handoff_{var}}}"
    for var in cap.writes:
        properties = scheme.variables[var].schema.get("properties", {})
        value = {prop: f"{{record.{prop}}}" for prop in properties}
        main.append({"var": {"name": f"conv.{var}", "value": value}})
    if cap.extra_prompt == "agent":
        main.append({"llm": {"prompt": "notes", "reply": f"Noted for {cap.name}.", "into": "note"}})
        main.append({"var": {"name": "agent.last_request", "value": "{sys.query}"}})
    elif cap.extra_prompt == "local":
        main.append({"llm": {"prompt": "draft", "reply": reply, "into": "draft"}})
    main.append({"llm": {"prompt": "chat", "reply": reply}})
    main.append({"output": "{result}"})
    main.append({"end": {}})
    return {
        "name": cap.name,
        "title": cap.title,
        "tag": cap.tag,
        "description": cap.description,
        "examples": list(cap.examples),
        "version": VERSION,
        "main": main,
    }


def _check_capability(cap: Capability, scheme: NamingScheme) -> None:
    for var in (*cap.writes, *cap.reads):
        if var not in scheme.variables:
            raise GeneratorError(f"{cap.name}: '{var}' is not an agreed variable")
    for var in cap.writes:
        if cap.data != VARIABLE_SOURCES[var]:
            raise GeneratorError(
                f"{cap.name}: writing conv.{var} needs data: {VARIABLE_SOURCES[var]}"
            )


def _dump(document: dict[str, Any]) -> str:
    return yaml.safe_dump(
        document, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False
    )


def generate_files(
    count: int = 200,
    seed: int = DEFAULT_SEED,
    departments: list[Department] | None = None,
    scheme: NamingScheme | None = None,
) -> dict[str, str]:
    """The account's agent files, as ``{file name: YAML text}``."""
    departments = departments if departments is not None else load_departments()
    scheme = scheme or load_scheme()
    pool = [(cap, dep.label) for dep in departments for cap in dep.capabilities]
    if not 1 <= count <= len(pool):
        raise GeneratorError(f"--count must be between 1 and {len(pool)} (got {count})")
    chosen = (
        sorted(random.Random(seed).sample(range(len(pool)), count))
        if count < len(pool)
        else (list(range(len(pool))))
    )
    files: dict[str, str] = {}
    for index in chosen:
        cap, label = pool[index]
        _check_capability(cap, scheme)
        digest = hashlib.sha256(f"{seed}:{cap.name}".encode()).digest()
        rng = random.Random(int.from_bytes(digest[:8], "big"))
        files[f"{cap.name}.yaml"] = _dump(_agent_document(cap, label, scheme, rng))
    return files


def write_account(files: dict[str, str], out: str | Path, *, force: bool = False) -> Path:
    """Write the files to `out` all at once: a temporary folder renamed into place."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise GeneratorError(f"{out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise GeneratorError(f"{out} is not empty (use --force to replace it)")
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name, text in files.items():
            (staging / name).write_text(text, encoding="utf-8")
        if out.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            os.replace(out, retired / out.name)
            os.replace(staging, out)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.replace(staging, out)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise GeneratorError(f"cannot write {out}: {exc.strerror or exc}") from exc
    return out
