"""The HTTP API over the generated 200-agent account: a travel request hands off to expenses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from api_helpers import token_of
from fastapi.testclient import TestClient

from mock_account.api import create_app
from mock_account.deployment import AccountConfig, build_deployment, default_account_dir

TRIP = "I need to fly to Berlin next week for the client workshop"
EXPENSES = "file my travel expenses for that trip"
# What a person types where a form asks for it and offers nothing (what a claim paid).
TYPED = {"amount": "45.60 EUR"}


def run(client: TestClient, query: str, convid: str | None) -> dict[str, Any]:
    """Search, run the best match, answer any ask with its defaults; the final answer."""
    hits = client.post("/api/exec/search", json={"query": query}).json()["searchResults"]
    assert hits, query
    agent = hits[0]["agentName"]
    body: dict[str, Any] = {"agentName": agent, "inputs": {"query": query}}
    if convid:
        body["convid"] = convid
    reply = client.post("/api/exec/execAgent", json=body).json()
    for _ in range(5):
        if reply["resultCode"] != "ask":
            break
        answers = {
            i["name"]: i.get("default")
            or (i.get("options") or [TYPED.get(i["name"], "yes, go ahead")])[0]
            for i in reply["askInput"]["inputs"]
        }
        reply = client.post(
            "/api/exec/execAgent",
            json={"agentName": agent, "convid": reply["convid"], "inputs": answers},
        ).json()
    assert reply["resultCode"] == "success", reply
    return dict(reply)


@pytest.mark.slow
def test_travel_then_expenses_on_the_real_account(tmp_path: Path) -> None:
    config = AccountConfig(
        data_dir=tmp_path, store_url="memory://", account_dir=default_account_dir()
    )
    deployment = build_deployment(config)
    try:
        token = token_of(deployment, deployment.users.users[0])
        with TestClient(
            create_app(deployment), headers={"Authorization": f"Bearer {token}"}
        ) as client:
            assert client.get("/health").json()["agents"] == 200
            first = run(client, TRIP, None)
            convid = first["convid"]
            second = run(client, EXPENSES, convid)
            assert second["convid"] == convid
            assert second["agentName"] != first["agentName"]
            view = client.post("/api/harness/getConversationState", json={"convid": convid})
            runs = view.json()["state"]["runs"]
            assert [r["agent"] for r in runs] == [first["agentName"], second["agentName"]]
            assert "trip" in runs[0]["writes"] and "trip" in runs[1]["reads"]
            destination = view.json()["state"]["conv"]["trip"]["destination"]
            assert any(destination in p["text"] for p in second["output"]["parts"]), second
    finally:
        deployment.close()
