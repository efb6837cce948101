"""Every hand-off of the account: the reader computes from the writer's saved values.

For each edge of the hand-off graph (`agents-catalog graph`), the writer runs on one of
its own examples, then the reader runs in the same conversation on its suggested
follow-up. The reader must read the variable and its record must carry the saved values
its data command takes from it (structured fields, not words in the answer).
"""

from __future__ import annotations

from handoff_journeys import REFUSED, SUMMARY, run_journey

from agents_catalog.graph import build_handoff_graph


def test_every_reader_uses_the_structured_values_its_writer_saved(deployment, user) -> None:
    account = deployment.account
    graph = build_handoff_graph(list(account.agents.values()))
    edges = graph.edges()
    problems: list[str] = []
    checked = 0
    REFUSED.clear()
    for writer, variable, reader in edges:
        journey = run_journey(deployment, user, writer, reader, variable)
        checked += journey.checked
        problems.extend(f"{writer} -> conv.{variable} -> {reader}: {p}" for p in journey.problems)
    SUMMARY.append(
        f"hand-off suite: {len(edges)} writer -> reader journeys ({len(REFUSED)} where the "
        f"reader rightly does not work from what was saved), {checked} structured values checked, "
        f"{len(problems)} contradictions"
    )
    assert len(edges) > 300
    assert not problems, "\n".join(problems[:40])
