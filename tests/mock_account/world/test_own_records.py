"""A user's own records are the same records whichever agent works on them."""

from __future__ import annotations

from handoff_journeys import last_tool_result, run_agent


def test_the_laptop_reported_stolen_is_the_one_a_refresh_replaces(deployment, user) -> None:
    lost = run_agent(
        deployment, user, "ReportLostDevice", "My laptop was stolen at the airport", None
    )
    state = deployment.account.state_view(user, lost.convid)["state"]
    stolen = last_tool_result(state, "ReportLostDevice")
    refresh = run_agent(
        deployment, user, "RequestLaptopRefresh", "Order me a replacement laptop", lost.convid
    )
    state = deployment.account.state_view(user, lost.convid)["state"]
    replaced = last_tool_result(state, "RequestLaptopRefresh")
    assert (replaced["tag"], replaced["model"]) == (stolen["tag"], stolen["model"])
    assert f"refresh of {stolen['tag']} ({stolen['model']})" in refresh.parts[0]["text"]
    # In a conversation of its own too: "my laptop" is always the same laptop.
    alone = run_agent(deployment, user, "RequestLaptopRefresh", "My laptop is five years old", None)
    assert f"refresh of {stolen['tag']}" in alone.parts[0]["text"]
