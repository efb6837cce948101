"""Suggested follow-ups and starter requests, chosen from the hand-off graph.

A suggestion is an example request of an agent that reads a conversation variable the
last agent wrote, so following it visibly hands the conversation over. Only examples
that a search routes to that very agent are used, so the suggestion does what it says.
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import Catalog


@dataclass(frozen=True)
class Suggestion:
    request: str
    agent: str
    department: str
    variable: str  # the conv.x it will pick up


# Three openings that each start a hand-off chain (trip, customer, incident).
STARTERS: tuple[str, ...] = (
    "I need to fly to Berlin next Tuesday for a client meeting",
    "Pull up the account for Hoffmann Logistics",
    "The checkout service is returning 500s for everyone, open an incident",
)


def suggest_followups(
    catalog: Catalog,
    last_agent: str,
    written: list[str] | None = None,
    already_ran: set[str] | None = None,
    limit: int = 3,
) -> list[Suggestion]:
    """Up to ``limit`` requests for readers of what ``last_agent`` wrote, varied by variable.

    ``written`` (variable names) defaults to what the agent writes in the graph; agents in
    ``already_ran`` are suggested only when nothing else is left.
    """
    io = catalog.graph.agents.get(last_agent)
    variables = sorted(written if written is not None else (io.writes if io else ()))
    ran = (already_ran or set()) | {last_agent}
    per_variable: list[list[Suggestion]] = []
    for variable in variables:
        options = []
        for reader in catalog.graph.readers(variable):
            if reader == last_agent:
                continue
            examples = catalog.routed_examples(reader)
            if examples:
                options.append(
                    Suggestion(examples[0], reader, catalog.department(reader), f"conv.{variable}")
                )
        fresh = [s for s in options if s.agent not in ran]
        per_variable.append(fresh + [s for s in options if s.agent in ran])
    chosen: list[Suggestion] = []
    seen_departments: set[str] = set()
    # Round robin over variables; prefer a department not suggested yet.
    while len(chosen) < limit and any(per_variable):
        for options in per_variable:
            if not options or len(chosen) >= limit:
                continue
            pick = next((s for s in options if s.department not in seen_departments), options[0])
            options.remove(pick)
            if any(s.agent == pick.agent for s in chosen):
                continue
            chosen.append(pick)
            seen_departments.add(pick.department)
    return chosen
