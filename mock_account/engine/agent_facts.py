"""What an agent definition says of itself that every run of it asks again: the record it
creates, the conversation variables it writes, the words it uses of itself.

Each is found once per definition (definitions are immutable) and kept by identity, with the
definition kept alive so its id is not reused (as ``program.compiled`` does).
"""

from __future__ import annotations

import re

from agents_catalog.agent_format import (
    AgentDefinition,
    AskArgs,
    DataArgs,
    command_args,
    walk_commands,
)
from agents_catalog.graph import AgentIO, agent_io
from mock_account.world.details import word_key

_IO_CACHE: dict[int, tuple[AgentDefinition, AgentIO]] = {}
_CREATING_CACHE: dict[int, tuple[AgentDefinition, DataArgs | None]] = {}
_VOCABULARY_CACHE: dict[int, tuple[AgentDefinition, frozenset[str]]] = {}
_WORDS = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def creating_command(agent: AgentDefinition) -> DataArgs | None:
    """The agent's data command that creates a record, if it has one."""
    hit = _CREATING_CACHE.get(id(agent))
    if hit is None:
        found = None
        for command in walk_commands(list(agent.main)):
            args = command_args(command)
            if isinstance(args, DataArgs) and args.action == "create":
                found = args
                break
        hit = _CREATING_CACHE[id(agent)] = (agent, found)
    return hit[1]


def vocabulary_of(agent: AgentDefinition) -> frozenset[str]:
    """The words an agent uses of itself (title, description, examples, name), as
    ``details.word_key`` compares them: what its answer need not repeat of a request. An agent
    that only answers says what it was asked about, its own words included ("the liability
    cap" to the agent that looks up clauses)."""
    if not agent.acts:
        return frozenset()
    hit = _VOCABULARY_CACHE.get(id(agent))
    if hit is None:
        name = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", agent.name)
        # What its form asks and offers is its own too ("travel" to the agent whose form
        # asks for a claim's category, travel among them).
        asked = [
            " ".join((spec.label or spec.name, *(spec.options or ())))
            for command in walk_commands(list(agent.main))
            if isinstance(args := command_args(command), AskArgs)
            for spec in args.inputs
        ]
        said = " ".join((agent.title, agent.description, *agent.examples, name, *asked))
        words = frozenset(word_key(w) for w in _WORDS.findall(said))
        hit = _VOCABULARY_CACHE[id(agent)] = (agent, words)
    return hit[1]


def writes_of(agent: AgentDefinition) -> frozenset[str]:
    """The conversation variables an agent writes."""
    return _io_of(agent).writes


def replaces_of(agent: AgentDefinition) -> frozenset[str]:
    """The conversation variables an agent writes whole (not only some of their fields)."""
    return _io_of(agent).replaces


def _io_of(agent: AgentDefinition) -> AgentIO:
    hit = _IO_CACHE.get(id(agent))
    if hit is None:
        hit = _IO_CACHE[id(agent)] = (agent, agent_io(agent))
    return hit[1]
