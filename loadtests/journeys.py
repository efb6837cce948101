"""What a simulated user asks: first requests, answers to asks, follow-ups along hand-offs.

The plan comes from the account itself: agents' ``examples`` are the requests, and the hand-off
graph says, for the variables the last agent wrote, which agents read them next. A follow-up is
an example of such a reader, so the server's search routes it to an agent that builds on the
saved state. Nothing here talks to a server; the Locust users do.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from agents_catalog.graph import HandoffGraph, build_handoff_graph
from agents_catalog.loader import default_account_dir
from mock_account.search.focus import focus

MIN_QUERY = 8
PASSWORD_ANSWER = "Load-test-Passw0rd"
TEXT_ANSWER = "As discussed, please go ahead with the usual options."


@dataclass(frozen=True)
class Request:
    """A request to send: the agent whose example it is, and the text."""

    agent: str
    query: str
    via: str | None = None  # the variable a follow-up hands over, if it is one


class JourneyPlanner:
    """Picks requests from agents' examples, and follow-ups that hand off along the graph."""

    def __init__(self, examples: Mapping[str, Sequence[str]], graph: HandoffGraph) -> None:
        self.examples = {
            name: [q for q in queries if len(q.strip()) >= MIN_QUERY]
            for name, queries in examples.items()
        }
        self.examples = {name: qs for name, qs in self.examples.items() if qs}
        if not self.examples:
            raise ValueError("no agent has an example request of at least 8 characters")
        self.graph = graph
        # Journeys start at agents that hand something on, so follow-ups can hand off.
        self.starters = sorted(
            name
            for name, io in graph.agents.items()
            if name in self.examples and any(self._readers(v, name) for v in io.writes)
        ) or sorted(self.examples)

    @classmethod
    def from_account(cls, account_dir: Path | None = None) -> JourneyPlanner:
        """The planner of an account folder of agent files.

        The files are read as plain YAML: the account is validated by its own tools, and full
        validation of 200 files would stall every Locust process for seconds at start-up.
        """
        folder = account_dir or default_account_dir()
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        agents = []
        for path in sorted(folder.glob("*.yaml")):
            try:
                data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
            except (OSError, yaml.YAMLError) as exc:
                raise ValueError(f"{path}: cannot read this agent file: {exc}") from exc
            if isinstance(data, dict) and isinstance(data.get("name"), str):
                agents.append(data)
        if not agents:
            raise ValueError(f"{folder}: no agent files found")
        examples = {
            a["name"]: [q for q in a.get("examples") or [] if isinstance(q, str)] for a in agents
        }
        return cls(examples, build_handoff_graph(agents))

    def _readers(self, variable: str, besides: str) -> list[str]:
        return [r for r in self.graph.readers(variable) if r != besides and r in self.examples]

    def first_request(self, rng: random.Random) -> Request:
        """An example that opens a conversation: not one that changes what "it" is ("Make it
        a sev1 and escalate it"), which only a conversation that holds it can answer."""
        agent = rng.choice(self.starters)
        examples = self.examples[agent]
        openers = [q for q in examples if not _changes_it(q)] or examples
        return Request(agent, rng.choice(openers))

    def follow_up(self, last_agent: str, rng: random.Random) -> Request:
        """An example of an agent that reads what ``last_agent`` wrote (any agent if none does)."""
        io = self.graph.agents.get(last_agent)
        handoffs = [
            (variable, reader)
            for variable in sorted(io.writes if io else ())
            for reader in self._readers(variable, last_agent)
        ]
        if handoffs:
            variable, reader = rng.choice(handoffs)
            return Request(reader, rng.choice(self.examples[reader]), via=variable)
        agent = rng.choice(sorted(self.examples))
        return Request(agent, rng.choice(self.examples[agent]))


def _changes_it(query: str) -> bool:
    """Whether a request is a change of what was asked before, naming nothing of its own."""
    edit = focus(query).edit
    return edit is not None and not edit.nouns


def answer_ask(ask_input: Mapping[str, Any]) -> dict[str, Any]:
    """Answers to an ask, as a user in a hurry gives them: the default, else the first option."""
    answers: dict[str, Any] = {}
    for field in ask_input.get("inputs") or []:
        name, kind = field.get("name"), field.get("type", "str")
        if not isinstance(name, str):
            continue
        default, options = field.get("default"), field.get("options") or []
        if kind == "chooseMany":
            value: Any = default if isinstance(default, list) and default else options[:1]
            if isinstance(default, str):
                value = [default]
        elif default not in (None, "", []):
            value = default[0] if isinstance(default, list) else default
        elif kind == "chooseOne" and options:
            value = options[0]
        elif kind == "password":
            value = PASSWORD_ANSWER
        else:
            value = TEXT_ANSWER
        answers[name] = value
    return answers


@dataclass
class StreamOutcome:
    """What a streamed ``execAgent`` sent: its lines, when its first byte, first line and final
    line came (seconds after the request started), the final ``agent`` line's value and the
    trace phases (ms)."""

    lines: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    first_byte_s: float | None = None
    first_line_s: float | None = None
    final_line_s: float | None = None
    final: dict[str, Any] | None = None
    phases_ms: dict[str, float] = dataclasses.field(default_factory=dict)
    problem: str | None = None


def read_stream(
    chunks: Iterable[bytes | str],
    started: float,
    clock: Callable[[], float] = time.perf_counter,
) -> StreamOutcome:
    """Read an NDJSON ``execAgent`` stream chunk by chunk, timing its first byte, first line and
    final line.

    ``problem`` says what was wrong (a line that is not a JSON object, no final ``agent`` line,
    lines after it); the outcome is still filled as far as it got.
    """
    outcome = StreamOutcome()
    buffer = b""

    def take(raw: bytes) -> None:
        if not raw.strip() or outcome.problem:
            return
        now = clock() - started
        try:
            line = json.loads(raw)
        except ValueError:
            outcome.problem = f"a line is not JSON: {raw[:80]!r}"
            return
        if not isinstance(line, dict) or "type" not in line:
            outcome.problem = f"a line is not a typed JSON object: {raw[:80]!r}"
            return
        if outcome.final is not None:
            outcome.problem = "a line came after the final agent line"
            return
        if outcome.first_line_s is None:
            outcome.first_line_s = now
        outcome.lines.append(line)
        value = line.get("value")
        if line["type"] == "trace" and isinstance(value, dict):
            duration = value.get("duration")
            if isinstance(duration, int | float) and isinstance(value.get("path"), str):
                outcome.phases_ms[value["path"]] = float(duration)
        elif line["type"] == "agent" and isinstance(value, dict):
            outcome.final, outcome.final_line_s = value, now

    for chunk in chunks:
        if chunk and outcome.first_byte_s is None:
            outcome.first_byte_s = clock() - started
        buffer += chunk.encode("utf-8") if isinstance(chunk, str) else chunk
        *complete, buffer = buffer.split(b"\n")
        for raw in complete:
            take(raw)
    take(buffer)
    if outcome.final is None and outcome.problem is None:
        outcome.problem = "the stream ended without the final agent line"
    return outcome
