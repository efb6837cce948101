"""The account's agents as the demo knows them: departments, hand-off graph, examples.

Loaded once per process from the catalog shipped with the project. Used for what the
wire format does not carry (an agent's department) and for suggested follow-ups.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from agents_catalog.agent_format import AgentDefinition
from agents_catalog.graph import HandoffGraph, build_handoff_graph
from agents_catalog.loader import load_account
from mock_account.conversations.followups import Followups
from mock_account.deployment import default_account_dir
from mock_account.search.index import SearchIndex


@dataclass(frozen=True)
class Catalog:
    agents: dict[str, AgentDefinition]
    graph: HandoffGraph
    index: SearchIndex

    def department(self, agent_name: str) -> str:
        agent = self.agents.get(agent_name)
        return agent.tag if agent else ""

    def departments(self) -> list[str]:
        return sorted({a.tag for a in self.agents.values()})

    @cached_property
    def followups(self) -> Followups:
        return Followups(self.agents.values(), self.index, self.graph)

    def routed_examples(self, agent_name: str) -> list[str]:
        """The agent's examples that a search sends to this very agent (best first)."""
        return self.followups.routed_examples(agent_name)


def catalog_from_agents(agents: list[AgentDefinition], index: SearchIndex | None = None) -> Catalog:
    """A catalog of already loaded agents (the embedded account shares its own)."""
    return Catalog(
        agents={a.name: a for a in agents},
        graph=build_handoff_graph(agents),
        index=index or SearchIndex.build(agents),
    )


@lru_cache(maxsize=4)
def load_catalog(account_dir: Path | None = None) -> Catalog:
    """The catalog shipped with the project (or the account folder given)."""
    return catalog_from_agents(load_account(account_dir or default_account_dir()))
