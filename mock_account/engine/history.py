"""What the conversation says this agent did before the run: the record it made (and whether
the request asks about it), the answers its form was given."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents_catalog.agent_format import DataArgs
from agents_catalog.capabilities import VARIABLE_SOURCES
from mock_account.engine.agent_facts import creating_command, writes_of
from mock_account.engine.request import RequestReading
from mock_account.engine.setting import RunSetting

#: Where a record stands once it is over: another agent ended it.
_ENDED = frozenset(
    "cancelled canceled terminated closed returned withdrawn declined rejected".split()
)


@dataclass(frozen=True)
class AgentHistory:
    """Reads this agent's earlier runs and records out of the conversation state."""

    setting: RunSetting
    request: RequestReading

    def asks_about_made(self) -> bool:
        """Whether the request asks about the record this agent made in the conversation."""
        creating = creating_command(self.setting.agent)
        made = self.made(creating) if creating is not None else None
        if creating is None or made is None:
            return False
        return self.setting.engine.world.asks_about_made(
            creating.source, self.request.query, self.request.today, made
        )

    def earlier_answers(self) -> dict[str, Any]:
        """The answers this agent was last given to its form here (runs that skipped the
        form have none)."""
        for run in reversed(self.setting.state.get("runs") or ()):
            answers = (run.get("inputs") or {}).get("answers")
            if run.get("agent") == self.setting.agent.name and isinstance(answers, dict):
                return dict(answers)
        return {}

    def made(self, args: DataArgs) -> dict[str, Any] | None:
        """The record of ``args.source`` this agent made earlier in the conversation: the one
        it wrote, still in the conversation (no later agent wrote over it), or, for a record
        no variable holds (a laptop reserved), the last one it made here."""
        agent, state = self.setting.agent, self.setting.state
        conv, runs = state["conv"], state.get("runs") or []
        held = False
        for variable in sorted(writes_of(agent)):
            record = conv.get(variable)
            if VARIABLE_SOURCES.get(variable) != args.source:
                continue
            held = True
            if not isinstance(record, dict):
                continue
            writers = [r.get("agent") for r in runs if variable in (r.get("writes") or ())]
            if agent.name not in writers:
                continue
            later = writers[len(writers) - writers[::-1].index(agent.name) :]
            # Still the one it made when every agent that wrote it since only changed it ("cut
            # the budget by 20%"), none made another nor ended it (a trip cancelled since is
            # no booking to change: a new flight is a new trip).
            ended = bool(later) and str(record.get("status", "")).lower() in _ENDED
            if not ended and all(not self._makes(name) for name in later):
                return record
        if held or not args.prompt:
            return None
        history = (state.get("prompts") or {}).get(args.prompt) or {}
        for message in reversed(history.get("messages") or ()):
            if (
                message.get("role") == "tool_result"
                and message.get("agent") == agent.name
                and message.get("name") == f"data.{args.source}"
            ):
                content = message.get("content")
                # A run that made nothing (a refusal, "made already") leaves the earlier record
                # the one this agent made: asked again after it, it is still not made twice.
                if isinstance(content, dict):
                    return self._as_it_stands(args.source, content, runs)
        return None

    def _makes(self, agent: str | None) -> bool:
        """Whether ``agent`` makes records (its data command creates), as opposed to changing
        or reading the one the conversation holds; an agent unknown here is taken to."""
        definition = self.setting.engine.agents.get(agent or "")
        return definition is None or creating_command(definition) is not None

    def _as_it_stands(
        self, source: str, made: dict[str, Any], runs: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """``made`` as the conversation holds it now: a variable this agent wrote that a later
        run of another agent wrote again (a trip moved, with the room this agent booked on it)
        changes the record too, as its recipe says (``World.as_it_stands``)."""
        name = self.setting.agent.name
        since: set[str] = set()
        for run in reversed(runs):
            if run.get("agent") == name and run.get("writes"):
                break  # the run that made it (one that only answered wrote nothing)
            if run.get("agent") != name:
                since.update(run.get("writes") or ())
        conv = self.setting.state["conv"]
        rewritten = since & writes_of(self.setting.agent)
        moved = {v: conv[v] for v in rewritten if isinstance(conv.get(v), dict)}
        return self.setting.engine.world.as_it_stands(source, made, moved) if moved else made
