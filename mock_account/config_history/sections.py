"""An agent's configuration as sections, and back.

An agent definition splits into four sections, each versioned on its own:

- ``description``: what search matches and how the agent presents itself (``title``, ``tag``,
  ``description``, ``examples``, ``followups``);
- ``commands``: ``main`` and the named ``functions``, where every ``ask`` command is written
  ``{"ask": {"ref": i}}``, the ``i``-th entry of the ``asks`` section;
- ``asks``: the arguments of the ``ask`` commands (message, inputs, ``into``), in the order the
  commands use them (depth first);
- ``workflow``: the workflow the agent declares (stages, goals, transitions), or null.

So changing the wording of a form is a version of ``asks`` alone, and adding a command is a
version of ``commands``. A ``commands`` section given with full ``ask`` commands (as written in
an agent file) is accepted too: the asks are taken out into ``asks`` when it is split again.

The name is the agent's key, not a section. The agent's ``version`` is not a section either:
it is the file's version with the configuration revision added to its last number (``1.0.0``
at revision 3 is ``1.0.3``), so a run paused on an ask knows which configuration asked.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from typing import Any

from pydantic import ValidationError

from agents_catalog.agent_format import AgentDefinition
from mock_account.stores.config_versions import SECTIONS

DESCRIPTION_FIELDS: tuple[str, ...] = ("title", "tag", "description", "examples", "followups")
COMMAND_FIELDS: tuple[str, ...] = ("main", "functions")

Sections = dict[str, Any]


class ConfigFormatError(ValueError):
    """A configuration that does not make a valid agent; ``problems`` says where and why."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


def canonical(value: Any) -> str:
    """The one JSON text of a section's content (sorted keys): equal content, equal text."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def content_hash(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def agent_json(agent: AgentDefinition) -> dict[str, Any]:
    """The agent as the JSON of its file (round-trips through ``AgentDefinition``)."""
    return agent.model_dump(mode="json", by_alias=True, exclude_none=True)


def _take_asks(node: Any, asks: list[Any]) -> Any:
    if isinstance(node, list):
        return [_take_asks(item, asks) for item in node]
    if isinstance(node, dict):
        if set(node) == {"ask"} and isinstance(node["ask"], dict) and "ref" not in node["ask"]:
            asks.append(node["ask"])
            return {"ask": {"ref": len(asks) - 1}}
        return {key: _take_asks(value, asks) for key, value in node.items()}
    return node


def _put_asks(node: Any, asks: list[Any], used: set[int]) -> Any:
    if isinstance(node, list):
        return [_put_asks(item, asks, used) for item in node]
    if isinstance(node, dict):
        ask = node.get("ask")
        if set(node) == {"ask"} and isinstance(ask, dict) and set(ask) == {"ref"}:
            ref = ask["ref"]
            if not isinstance(ref, int) or isinstance(ref, bool) or not 0 <= ref < len(asks):
                raise ConfigFormatError(
                    f"commands refer to ask {ref!r}, but the asks section has {len(asks)} "
                    f"entr{'y' if len(asks) == 1 else 'ies'} (0 to {len(asks) - 1})"
                )
            used.add(ref)
            return {"ask": asks[ref]}
        return {key: _put_asks(value, asks, used) for key, value in node.items()}
    return node


def uses_ask_refs(node: Any) -> bool:
    """Whether commands refer to the asks section (``{"ask": {"ref": i}}``) anywhere."""
    if isinstance(node, list):
        return any(uses_ask_refs(item) for item in node)
    if isinstance(node, dict):
        ask = node.get("ask")
        if set(node) == {"ask"} and isinstance(ask, dict) and set(ask) == {"ref"}:
            return True
        return any(uses_ask_refs(value) for value in node.values())
    return False


def split_agent(agent: AgentDefinition) -> Sections:
    """The sections of an agent."""
    data = agent_json(agent)
    asks: list[Any] = []
    commands = _take_asks({key: data.get(key, {}) for key in COMMAND_FIELDS}, asks)
    return {
        "description": {key: data[key] for key in DESCRIPTION_FIELDS if key in data},
        "commands": commands,
        "asks": asks,
        "workflow": data.get("workflow"),
    }


def _check_shape(section: str, value: Any) -> None:
    if section == "asks":
        if not isinstance(value, list):
            raise ConfigFormatError("the asks section is a list of ask arguments")
        return
    if section == "workflow":
        if value is not None and not isinstance(value, dict):
            raise ConfigFormatError(
                "the workflow section is a workflow (name, stages...) or null for none"
            )
        return
    fields = DESCRIPTION_FIELDS if section == "description" else COMMAND_FIELDS
    if not isinstance(value, dict):
        raise ConfigFormatError(
            f"the {section} section is an object with the fields {', '.join(fields)}"
        )
    unknown = sorted(set(value) - set(fields))
    if unknown:
        raise ConfigFormatError(
            f"the {section} section has no field {', '.join(map(repr, unknown))} "
            f"(its fields: {', '.join(fields)})"
        )


def check_section_name(section: str) -> str:
    if section not in SECTIONS:
        raise ConfigFormatError(
            f"unknown section {section!r}; the sections are {', '.join(SECTIONS)}"
        )
    return section


def join_sections(name: str, version: str, sections: Sections) -> AgentDefinition:
    """The agent made of ``sections``, validated against the current agent format."""
    sections = {"workflow": None, **sections}  # an agent without a workflow may leave it out
    for section in SECTIONS:
        if section not in sections:
            raise ConfigFormatError(f"the {section} section is missing")
        _check_shape(section, sections[section])
    asks = list(sections["asks"])
    used: set[int] = set()
    commands = _put_asks(sections["commands"], asks, used)
    unused = sorted(set(range(len(asks))) - used)
    if unused:
        raise ConfigFormatError(
            f"asks {', '.join(map(str, unused))} are used by no command "
            "(add an ask command with that ref, or remove them from the asks section)"
        )
    data = {"name": name, "version": version, **sections["description"], **commands}
    if sections["workflow"] is not None:
        data["workflow"] = sections["workflow"]
    try:
        return AgentDefinition.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in error['loc']) or 'agent'}: {error['msg']}"
            for error in exc.errors()
        ]
        raise ConfigFormatError(
            "this configuration is not a valid agent: " + "; ".join(problems[:5]), problems
        ) from None


def versioned(base_version: str, revision: int) -> str:
    """The agent's version at a configuration revision (``1.0.0`` + 3 -> ``1.0.3``)."""
    parts = [int(p) for p in base_version.split(".")]
    while len(parts) < 3:
        parts.append(0)
    parts[-1] += revision
    return ".".join(str(p) for p in parts)


def diff_text(before: Any, after: Any, *, before_label: str, after_label: str) -> str:
    """A unified diff of two contents, as indented JSON lines."""
    old = json.dumps(before, indent=2, sort_keys=True, ensure_ascii=False).splitlines()
    new = json.dumps(after, indent=2, sort_keys=True, ensure_ascii=False).splitlines()
    return "\n".join(
        difflib.unified_diff(old, new, fromfile=before_label, tofile=after_label, lineterm="")
    )
