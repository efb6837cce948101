"""Inject naming-scheme violations into generated agents, to prove the checker finds them.

    texts, injected = inject_violations(files, count=3, seed=7)
    # texts: the same files with 3 of them modified, each with a different kind of violation
    # injected: [InjectedViolation(file, rule_id, description), ...]

Each kind breaks exactly one rule the way an author would (a typo in a prompt or
variable name, a wrong scope, a value that misses a required field, a bad name, title
or tag, broken YAML). The choice of files, kinds and variants depends only on the seed.
Modified files are written back with ``yaml.safe_dump`` (the invalid-YAML kind edits
the text instead).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from .graph import iter_raw_commands
from .scheme import NamingScheme, load_scheme

Agent = dict[str, Any]


@dataclass(frozen=True)
class InjectedViolation:
    file: str
    rule_id: str
    description: str


def _dump(agent: Agent) -> str:
    return yaml.safe_dump(agent, sort_keys=False, allow_unicode=True, width=100)


def _commands(agent: Agent, kind: str) -> list[dict[str, Any]]:
    return [args for k, args, _ in iter_raw_commands(agent) if k == kind and isinstance(args, dict)]


def _standard_prompt(scheme: NamingScheme) -> str:
    return "chat" if "chat" in scheme.prompts else sorted(scheme.prompts)[0]


def _append_to_reply(agent: Agent, text: str) -> str:
    """Add ``text`` to the first llm reply; without one, add an output command. Says where."""
    for args in _commands(agent, "llm"):
        if isinstance(args.get("reply"), str):
            args["reply"] = f"{args['reply']} {text}"
            return "the llm reply"
    agent["main"].insert(max(len(agent["main"]) - 1, 0), {"output": text})
    return "a new output command"


def _near_miss(name: str, rng: random.Random) -> str:
    return rng.choice([name.capitalize(), name + "s", name + "_v2", name.upper()])


def _prompt_near_miss(agent: Agent, rng: random.Random, scheme: NamingScheme) -> str:
    standard = _standard_prompt(scheme)
    wrong = _near_miss(standard, rng)
    declarations = [a for a in _commands(agent, "prompt") if a.get("name") == standard]
    if not declarations:
        agent["main"].insert(0, {"prompt": {"name": wrong, "system": "You help the user."}})
        return f"new conversation prompt named '{wrong}'"
    for args in declarations:
        args["name"] = wrong
    for kind in ("llm", "data"):
        for args in _commands(agent, kind):
            if args.get("prompt") == standard:
                args["prompt"] = wrong
    return f"prompt '{standard}' renamed to '{wrong}'"


def _prompt_scope(agent: Agent, rng: random.Random, scheme: NamingScheme) -> str:
    standard = _standard_prompt(scheme)
    wanted = scheme.prompts[standard].scope
    scope = rng.choice([s for s in ("conversation", "agent", "local") if s != wanted])
    declarations = [a for a in _commands(agent, "prompt") if a.get("name") == standard]
    if declarations:
        declarations[0]["scope"] = scope
    else:
        agent["main"].insert(0, {"prompt": {"name": standard, "scope": scope}})
    return f"prompt '{standard}' given scope {scope}"


def _first_field(scheme: NamingScheme, variable: str) -> str:
    schema = scheme.variables[variable].schema
    required = schema.get("required") or sorted(schema.get("properties", {})) or ["value"]
    return str(required[0])


def _unknown_variable(agent: Agent, rng: random.Random, scheme: NamingScheme) -> str:
    variable = rng.choice(sorted(scheme.variables))
    wrong = _near_miss(variable, rng)
    placeholder = f"{{conv.{wrong}.{_first_field(scheme, variable)}}}"
    where = _append_to_reply(agent, f"(see {placeholder})")
    return f"{placeholder} added to {where}"


def _typo(word: str, rng: random.Random) -> str:
    if len(word) < 3:
        return word + word[-1]
    index = rng.randrange(1, len(word) - 1)
    return word[:index] + word[index + 1 :]


def _unknown_field(agent: Agent, rng: random.Random, scheme: NamingScheme) -> str:
    candidates = [
        (v, sorted(props))
        for v, spec in sorted(scheme.variables.items())
        if isinstance(props := spec.schema.get("properties"), dict) and props
    ]
    variable, fields = rng.choice(candidates)
    field = rng.choice(fields)
    wrong = _typo(field, rng)
    if wrong in fields:
        wrong = field + "x"
    placeholder = f"{{conv.{variable}.{wrong}}}"
    where = _append_to_reply(agent, f"(see {placeholder})")
    return f"{placeholder} added to {where}"


def _schema_mismatch(agent: Agent, rng: random.Random, scheme: NamingScheme) -> str:
    for args in _commands(agent, "var"):
        name, value = args.get("name"), args.get("value")
        if not (isinstance(name, str) and name.count(".") == 1 and name.startswith("conv.")):
            continue
        agreed = scheme.variables.get(name[5:])
        required = agreed.schema.get("required", []) if agreed else []
        present = [key for key in required if isinstance(value, dict) and key in value]
        if present:
            dropped = rng.choice(present)
            del value[dropped]
            return f"required field '{dropped}' removed from the value written to {name}"
    candidates = [v for v, s in sorted(scheme.variables.items()) if s.schema.get("required")]
    variable = rng.choice(candidates)
    required = list(scheme.variables[variable].schema["required"])
    value = {key: f"{{record.{key}}}" for key in required[1:]}
    agent["main"].insert(0, {"var": {"name": f"conv.{variable}", "value": value}})
    return f"conv.{variable} written without its required field '{required[0]}'"


def _bad_name(agent: Agent, rng: random.Random, scheme: NamingScheme) -> str:
    name = str(agent.get("name", "Agent"))
    long_name = name
    while len(long_name) <= 32:
        long_name += "AndMore"
    wrong = rng.choice([name[:1] + "-" + name[1:], "2" + name, name + "_", long_name])
    agent["name"] = wrong
    return f"agent name changed to '{wrong}'"


def _long_title(agent: Agent, rng: random.Random, scheme: NamingScheme) -> str:
    title = str(agent.get("title", "An agent"))
    filler = rng.choice([" for every team", " in every region", " with all the details"])
    while len(title) <= 80:
        title += filler
    agent["title"] = title
    return f"title made {len(title)} characters long"


def _bad_tag(agent: Agent, rng: random.Random, scheme: NamingScheme) -> str:
    tag = str(agent.get("tag", "team"))
    wrong = rng.choice([tag.upper(), tag + "-dept", tag + "_department_team_x", "dept " + tag])
    agent["tag"] = wrong
    return f"tag changed to '{wrong}'"


Mutation = Callable[[Agent, random.Random, NamingScheme], str]

_DATA_KINDS: list[tuple[str, Mutation]] = [
    ("NS001", _prompt_near_miss),
    ("NS002", _prompt_scope),
    ("NS003", _unknown_variable),
    ("NS004", _unknown_field),
    ("NS005", _schema_mismatch),
    ("NS008", _bad_name),
    ("NS009", _long_title),
    ("NS010", _bad_tag),
]
INVALID_YAML = "NS011"
KINDS: tuple[str, ...] = (*(rule for rule, _ in _DATA_KINDS), INVALID_YAML)


def _invalid_yaml(text: str, rng: random.Random) -> tuple[str, str]:
    broken = rng.choice(["notes: [unclosed, list\n", "notes: {open: mapping\n"])
    body = text if text.endswith("\n") else text + "\n"
    return body + broken, f"unclosed flow collection appended: {broken.strip()!r}"


def inject_violations(
    files: dict[str, str], count: int, seed: int, scheme: NamingScheme | None = None
) -> tuple[dict[str, str], list[InjectedViolation]]:
    """Break ``count`` distinct files, each with a different kind of violation.

    ``files`` maps a file name to the YAML text of a valid agent. Returns all files (the
    untouched ones unchanged) and what was injected where, in file-name order.
    ValueError when ``count`` exceeds the kinds (or the files) available, or a file
    chosen is not an agent mapping with a ``main`` list.
    """
    if count < 0:
        raise ValueError(f"count must be 0 or more, not {count}")
    if count > len(KINDS):
        raise ValueError(
            f"cannot inject {count} violations: there are {len(KINDS)} kinds "
            f"({', '.join(KINDS)}) and each file gets a different one"
        )
    if count > len(files):
        raise ValueError(f"cannot inject {count} violations into {len(files)} files")
    scheme = scheme or _default_scheme()
    rng = random.Random(seed)
    targets = rng.sample(sorted(files), count)
    kinds = rng.sample(KINDS, count)
    out = dict(files)
    injected = []
    mutations = dict(_DATA_KINDS)
    for name, rule_id in zip(targets, kinds, strict=True):
        agent = _agent(name, files[name])
        if rule_id == INVALID_YAML:
            out[name], description = _invalid_yaml(files[name], rng)
        else:
            description = mutations[rule_id](agent, rng, scheme)
            out[name] = _dump(agent)
        injected.append(InjectedViolation(name, rule_id, description))
    return out, sorted(injected, key=lambda v: v.file)


@cache
def _default_scheme() -> NamingScheme:
    return load_scheme()


def _agent(name: str, text: str) -> Agent:
    try:
        agent = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"{name}: not valid YAML, cannot inject into it") from exc
    if not isinstance(agent, dict) or not isinstance(agent.get("main"), list):
        raise ValueError(f"{name}: not an agent file (a mapping with a 'main' list)")
    return agent
