"""Which agent answers a follow-up: the four follow-up behaviours.

A follow-up is searched like a new request; the behaviour then decides between the
matches and the agent that answered last:

- ``executeTopMatch`` (default): the best match runs; when nothing matches, the previous
  agent answers again; with neither, nothing runs and the (empty) results are shown.
- ``executeOnlyMatch``: runs only when exactly one agent matched; otherwise the results
  are shown so the user chooses.
- ``showResults``: never runs an agent; the results are shown.
- ``executePrevious``: the previous agent answers again whatever matched; on the first
  request of a conversation (no previous agent) the best match runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

FollowupBehavior = Literal["executeTopMatch", "executeOnlyMatch", "showResults", "executePrevious"]
FOLLOWUP_BEHAVIORS: tuple[str, ...] = get_args(FollowupBehavior)
DEFAULT_FOLLOWUP_BEHAVIOR: FollowupBehavior = "executeTopMatch"


@dataclass(frozen=True)
class RoutingDecision:
    agent_name: str | None  # the agent to run, or None when none should run
    reason: str
    show_results: bool  # whether the interface should offer the matches to choose from


def choose_agent(
    hits: Sequence[str],
    *,
    behavior: FollowupBehavior = DEFAULT_FOLLOWUP_BEHAVIOR,
    previous_agent: str | None = None,
) -> RoutingDecision:
    """Decide which agent runs for a request, given the names of its matches (best first).

    Every client decides here: the account for its own ``route``, and the demo and load-test
    clients over HTTP with the names of the search results.
    """
    top = hits[0] if hits else None
    if behavior == "executeTopMatch":
        if top is not None:
            return RoutingDecision(top, "the best match runs", False)
        if previous_agent:
            return RoutingDecision(
                previous_agent, "nothing matched; the agent that answered last answers", False
            )
        return RoutingDecision(None, "nothing matched and no agent has answered yet", True)
    if behavior == "executeOnlyMatch":
        if len(hits) == 1:
            return RoutingDecision(top, "the only match runs", False)
        if hits:
            return RoutingDecision(None, f"{len(hits)} agents matched; choose one", True)
        return RoutingDecision(None, "nothing matched", True)
    if behavior == "showResults":
        return RoutingDecision(None, "the matches are shown; choose one", True)
    if behavior == "executePrevious":
        if previous_agent:
            return RoutingDecision(previous_agent, "the agent that answered last answers", False)
        if top is not None:
            return RoutingDecision(top, "no agent has answered yet; the best match runs", False)
        return RoutingDecision(None, "nothing matched and no agent has answered yet", True)
    raise ValueError(
        f"unknown follow-up behaviour '{behavior}'; one of: {', '.join(FOLLOWUP_BEHAVIORS)}"
    )
