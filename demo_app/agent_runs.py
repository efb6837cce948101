"""What both clients share about running agents: the checked request a run starts from, and
the agent a request goes to (the best match, or in a conversation the agent that answered
last when nothing matches)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from mock_account.search.routing import choose_agent

from .views import AnswerView, ClientError, Match, SearchOutcome, check_query

NO_MATCH = "No agent matches that request; try saying what you need in other words."


@dataclass(frozen=True)
class AgentRun:
    """One ``run``: ``text`` is the checked query, ``convid`` None for a new conversation."""

    user: str
    agent: str
    text: str
    convid: str | None
    matches: tuple[Match, ...]


class RoutedRuns(ABC):
    """``run`` and ``ask`` of a client that can ``find`` a request's matches and ``start`` one
    ``AgentRun``."""

    @abstractmethod
    def find(self, user: str, query: str, convid: str | None = None) -> SearchOutcome: ...

    @abstractmethod
    def start(self, run: AgentRun) -> AnswerView: ...

    def run(
        self,
        user: str,
        agent: str,
        query: str,
        convid: str | None = None,
        matches: tuple[Match, ...] = (),
    ) -> AnswerView:
        return self.start(AgentRun(user, agent, check_query(query), convid, matches))

    def ask(self, user: str, query: str, convid: str | None = None) -> AnswerView:
        found = self.find(user, query, convid)
        names = [m.agent_name for m in found.matches]
        agent = choose_agent(names, previous_agent=found.previous_agent).agent_name
        if agent is None:
            raise ClientError(NO_MATCH)
        return self.run(user, agent, found.query, convid, found.matches)
