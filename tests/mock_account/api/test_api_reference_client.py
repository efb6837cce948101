"""A client written for the real agent server drives a whole journey on `mock-account serve`.

``tests/support/reference_client.py`` knows nothing of this project (standard library only) and
behaves like the public client: Bearer token, search and execAgent, ``error.message``, a
non-zero exit on any status but 200. If the mock's shapes drift from the reference, it breaks.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_helpers import TRIP
from fixture_agents import write_account

from loadtests.server import ServerProcess

CLIENT = Path(__file__).resolve().parents[2] / "support" / "reference_client.py"
EXPENSES = "file my travel expenses for that trip"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("reference")
    args = [
        *("--store", "memory://", "--data-dir", str(folder / "data")),
        *("--account-dir", str(write_account(folder / "account")), "--search", "bm25"),
        *("--log-level", "warning"),
    ]
    with ServerProcess(args, startup_s=120) as running:
        yield running


@pytest.fixture(scope="module")
def token() -> str:
    printed = subprocess.run(
        [sys.executable, "-m", "mock_account.cli", "users", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return str(next(u["token"] for u in json.loads(printed.stdout) if u["account"] == "acme"))


class Refused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def client(server: ServerProcess, token: str, *args: str) -> Any:
    """Run the reference client; its JSON output, or ``Refused`` with what it printed."""
    done = subprocess.run(
        [sys.executable, str(CLIENT), server.url, token, *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        assert done.returncode == 1 and done.stdout == "", done
        raise Refused(done.stderr.strip())
    return json.loads(done.stdout)


def test_a_whole_journey_with_the_reference_client(server: ServerProcess, token: str) -> None:
    found = client(server, token, "search", TRIP)
    assert found["searchResults"][0]["agentName"] == "BookTrip"
    asked = client(server, token, "exec", "BookTrip", "--query", TRIP)
    assert asked["resultCode"] == "ask" and asked["output"]["parts"] == []
    convid = asked["convid"]
    assert [i["name"] for i in asked["askInput"]["inputs"]] == ["seat", "note"]

    # Another agent while the ask waits: refused, HTTP 200, the reference message.
    other = client(server, token, "exec", "FileExpenses", "--convid", convid, "--query", EXPENSES)
    assert other["resultCode"] == "unknownConversation" and other["success"] is False
    assert other["error"]["message"] == (
        "This conversation is waiting for your answers to another agent. "
        "Continue it with that agent."
    )

    # Short answers, flat by input name.
    done = client(
        server, token, "exec", "BookTrip", "--convid", convid, "--input", "seat=aisle",
        "--input", "note=yes",
    )  # fmt: skip
    assert done["resultCode"] == "success" and done["askInput"] is None
    assert "Booked your trip to Berlin, aisle seat." in done["output"]["parts"][-1]["text"]

    # A follow-up, searched like a new request, runs another agent in the same conversation.
    assert client(server, token, "search", EXPENSES)["searchResults"][0]["agentName"] == (
        "FileExpenses"
    )
    followed = client(
        server, token, "exec", "FileExpenses", "--convid", convid, "--query", EXPENSES
    )
    assert followed["convid"] == convid
    assert followed["output"]["parts"][0]["text"].startswith(
        "Expenses filed for your trip to Berlin."
    )

    recent = client(server, token, "user", "getUnpinnedConversations", "{}")
    assert [c["convid"] for c in recent["unpinnedConversations"]] == [convid]
    assert recent["nextCursor"] is None
    turns = client(server, token, "user", "getConversation", json.dumps({"convid": convid}))
    assert [t["response"]["agentName"] for t in turns["conversation"]] == [
        "BookTrip",
        "FileExpenses",
    ]

    rename = json.dumps({"convid": convid, "title": "Berlin workshop"})
    assert client(server, token, "user", "setConversationTitle", rename) == {"success": True}
    pin = json.dumps({"convid": convid, "pinned": True})
    assert client(server, token, "user", "setPinned", pin) == {"success": True}
    pinned = client(server, token, "user", "getPinnedConversations")["pinnedConversations"]
    assert [(c["convid"], c["title"], c["pinned"]) for c in pinned] == [
        (convid, "Berlin workshop", True)
    ]
    gone = json.dumps({"convid": convid})
    assert client(server, token, "user", "deleteConversation", gone) == {"success": True}
    with pytest.raises(Refused) as refused:
        client(server, token, "user", "getConversation", gone)
    assert refused.value.message == "Error: Could not get this conversation. It probably expired."


def test_the_reference_client_sees_refusals_as_the_real_server_sends_them(
    server: ServerProcess, token: str
) -> None:
    must_login = client(server, "s2o_not_a_token", "exec", "InvoiceStatus", "--query", TRIP)
    assert must_login["resultCode"] == "mustLogin"  # HTTP 200: the client exits 0
    with pytest.raises(Refused) as refused:
        client(server, "s2o_not_a_token", "search", TRIP)
    assert refused.value.message == "Error: The token is not valid."
    with pytest.raises(Refused) as refused:
        client(server, token, "search", "short")
    assert refused.value.message == "Error: query: must be at least 8 characters"
    expired = client(server, token, "exec", "InvoiceStatus", "--convid", "Q" * 22, "--query", TRIP)
    assert expired["error"]["message"] == "This conversation has expired. Please start a new one."
