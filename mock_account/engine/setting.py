"""What every part of one run works on (``interpreter.Run`` hands it to each of them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agents_catalog.agent_format import AgentDefinition

if TYPE_CHECKING:
    from mock_account.engine.runtime import Engine


@dataclass(frozen=True)
class RunSetting:
    """The engine, the agent that runs, the run's working copy of the conversation state and
    its ``sys`` values. The dicts are shared, never copied: a resumed run sets its query in
    ``sys`` after the parts are made, and every part must read that one.

    The engine is kept rather than its model, data or world, so a run reads them as the
    engine holds them when it needs them (a live edit replaces ``engine.agents``).
    ``account`` is the account the run is for, when the server gave it (channels)."""

    engine: Engine
    agent: AgentDefinition
    state: dict[str, Any]
    sys: dict[str, Any]
    account: str | None = None
