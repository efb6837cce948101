"""`mock-account serve` as a real process, driven over real HTTP like any Search2o client."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from api_helpers import TRIP

from loadtests.server import ServerProcess

EXPENSES = "file my travel expenses for that trip"


@pytest.fixture(scope="module")
def tokens() -> list[dict[str, str]]:
    """The users and tokens as `mock-account users --json` prints them."""
    printed = subprocess.run(
        [sys.executable, "-m", "mock_account.cli", "users", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return list(json.loads(printed.stdout))


@pytest.fixture
def server(tmp_path: Path, account_dir: Path) -> Iterator[ServerProcess]:
    args = [
        "--store",
        "memory://",
        "--data-dir",
        str(tmp_path),
        "--account-dir",
        str(account_dir),
        "--log-level",
        "warning",
    ]
    with ServerProcess(args, startup_s=60) as running:
        yield running


def signed_in(server: ServerProcess, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30
    )


@pytest.mark.slow
def test_a_hand_off_conversation_over_real_http(
    server: ServerProcess, tokens: list[dict[str, str]]
) -> None:
    acme = [t for t in tokens if t["account"] == "acme"]
    assert httpx.get(f"{server.url}/health").json() == {
        "status": "ok",
        "agents": 6,
        "store": "memory",
    }
    with signed_in(server, acme[0]["token"]) as alice, signed_in(server, acme[1]["token"]) as bob:
        # A new request: search, run the best match, answer its question.
        found = alice.post("/api/exec/search", json={"query": TRIP}).json()["searchResults"]
        assert found[0]["agentName"] == "BookTrip"
        asked = alice.post(
            "/api/exec/execAgent", json={"agentName": "BookTrip", "inputs": {"query": TRIP}}
        )
        assert asked.status_code == 200 and asked.json()["resultCode"] == "ask"
        assert [i["name"] for i in asked.json()["askInput"]["inputs"]] == ["seat", "note"]
        convid = asked.json()["convid"]
        booked = alice.post(
            "/api/exec/execAgent",
            json={"agentName": "BookTrip", "convid": convid, "inputs": {"seat": "window"}},
            headers={"Idempotency-Key": "answer-1"},
        )
        assert booked.json()["resultCode"] == "success"
        assert "restore;dur=" in booked.headers["server-timing"]

        # A follow-up is searched like a new request and goes to another agent, which
        # continues from what the first one saved.
        found = alice.post("/api/exec/search", json={"query": EXPENSES}).json()["searchResults"]
        assert found[0]["agentName"] == "FileExpenses"
        filed = alice.post(
            "/api/exec/execAgent",
            json={"agentName": "FileExpenses", "convid": convid, "inputs": {"query": EXPENSES}},
        ).json()
        assert filed["resultCode"] == "success" and filed["convid"] == convid
        assert "Expenses filed for your trip to Berlin." in filed["output"]["parts"][0]["text"]
        state = alice.post("/api/harness/getConversationState", json={"convid": convid}).json()
        assert [r["agent"] for r in state["state"]["runs"]] == ["BookTrip", "FileExpenses"]

        # The retried answer is replayed, not run again.
        replay = alice.post(
            "/api/exec/execAgent",
            json={"agentName": "BookTrip", "convid": convid, "inputs": {"seat": "window"}},
            headers={"Idempotency-Key": "answer-1"},
        )
        assert replay.headers["idempotent-replayed"] == "true"
        assert replay.json() == booked.json()

        # Listing, renaming, pinning.
        recent = alice.post("/api/user/getUnpinnedConversations", json={}).json()
        assert [(c["convid"], c["title"]) for c in recent["unpinnedConversations"]] == [
            (convid, TRIP)
        ]
        alice.post(
            "/api/user/setConversationTitle", json={"convid": convid, "title": "Berlin trip"}
        ).raise_for_status()
        alice.post("/api/user/setPinned", json={"convid": convid, "pinned": True})
        pinned = alice.post("/api/user/getPinnedConversations", json={}).json()[
            "pinnedConversations"
        ]
        assert [(c["convid"], c["title"], c["pinned"]) for c in pinned] == [
            (convid, "Berlin trip", True)
        ]

        # Another user of the same account sees none of it.
        for path in ("/api/user/getConversation", "/api/harness/getConversationState"):
            hidden = bob.post(path, json={"convid": convid})
            assert hidden.status_code == 404
            assert hidden.json() == {
                "success": False,
                "error": {
                    "message": "Could not get this conversation. It probably expired.",
                    "data": {},
                },
            }
        assert (
            bob.post("/api/user/getPinnedConversations", json={}).json()["pinnedConversations"]
            == []
        )
        assert (
            bob.post("/api/user/getUnpinnedConversations", json={}).json()["unpinnedConversations"]
            == []
        )
        intruder = bob.post(
            "/api/exec/execAgent",
            json={"agentName": "FileExpenses", "convid": convid, "inputs": {"query": EXPENSES}},
        ).json()
        assert intruder["resultCode"] == "unknownConversation"
        assert bob.post("/api/user/deleteConversation", json={"convid": convid}).status_code == 404

        # The owner deletes it; then it is gone for the owner too.
        assert alice.post("/api/user/deleteConversation", json={"convid": convid}).json() == {
            "success": True
        }
        assert alice.post("/api/user/getConversation", json={"convid": convid}).status_code == 404
        assert (
            alice.post("/api/user/getPinnedConversations", json={}).json()["pinnedConversations"]
            == []
        )

    # No token, no access.
    assert httpx.post(f"{server.url}/api/exec/search", json={"query": TRIP}).status_code == 401
