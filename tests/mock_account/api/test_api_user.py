"""``/api/user`` and the harness state view: the caller's conversations, and only theirs."""

from __future__ import annotations

import pytest
from api_helpers import START, TRIP, new_conversation, start_trip
from fastapi.testclient import TestClient

from mock_account.deployment import Deployment
from mock_account.stores import StoreUnavailable

USER = "/api/user"
EXPENSES = "file my travel expenses for that trip"
UNKNOWN = {
    "success": False,
    "error": {"message": "Could not get this conversation. It probably expired.", "data": {}},
}
MARCH_1_9AM_MS = int(START.timestamp() * 1000)


def test_get_conversation_lists_every_saved_run(client: TestClient) -> None:
    convid = start_trip(client)
    reply = client.post(f"{USER}/getConversation", json={"convid": convid})
    assert reply.status_code == 200
    body = reply.json()
    assert list(body) == ["success", "convid", "conversation"]
    assert body["success"] is True and body["convid"] == convid
    (turn,) = body["conversation"]  # the ask and its answer are one run
    assert list(turn) == ["query", "response", "resultCode", "respondedAt"]
    assert turn["query"] == TRIP and turn["resultCode"] == "success"
    assert turn["response"]["agentName"] == "BookTrip"
    assert "Booked your trip to Berlin" in turn["response"]["parts"][-1]["text"]
    assert MARCH_1_9AM_MS <= turn["respondedAt"] < MARCH_1_9AM_MS + 3_600_000

    client.post(
        "/api/exec/execAgent",
        json={"agentName": "FileExpenses", "convid": convid, "inputs": {"query": EXPENSES}},
    )
    client.post(
        "/api/exec/execAgent", json={"agentName": "BookTrip", "inputs": {"query": TRIP}}
    )  # another conversation: not listed here
    turns = client.post(f"{USER}/getConversation", json={"convid": convid}).json()
    assert [(t["response"]["agentName"], t["query"]) for t in turns["conversation"]] == [
        ("BookTrip", TRIP),
        ("FileExpenses", EXPENSES),
    ]
    assert turns["conversation"][0]["respondedAt"] <= turns["conversation"][1]["respondedAt"]


def test_a_run_paused_on_ask_is_listed_as_ask(client: TestClient) -> None:
    asked = client.post(
        "/api/exec/execAgent", json={"agentName": "BookTrip", "inputs": {"query": TRIP}}
    ).json()
    body = client.post(f"{USER}/getConversation", json={"convid": asked["convid"]}).json()
    assert [t["resultCode"] for t in body["conversation"]] == ["ask"]


def test_unknown_and_foreign_conversations_get_the_same_404(
    client: TestClient, other_client: TestClient
) -> None:
    convid = start_trip(client)
    calls = [
        ("getConversation", {}),
        ("setConversationTitle", {"title": "mine now"}),
        ("setPinned", {"pinned": True}),
        ("deleteConversation", {}),
    ]
    for path, extra in calls:
        foreign = other_client.post(f"{USER}/{path}", json={"convid": convid, **extra})
        missing = other_client.post(f"{USER}/{path}", json={"convid": "Z" * 22, **extra})
        assert foreign.status_code == missing.status_code == 404, path
        assert foreign.json() == missing.json() == UNKNOWN, path
    foreign = other_client.post("/api/harness/getConversationState", json={"convid": convid})
    assert foreign.status_code == 404 and foreign.json() == UNKNOWN
    # ...and nothing the other user tried changed the owner's conversation.
    mine = client.post(f"{USER}/getUnpinnedConversations", json={}).json()
    assert [(c["title"], c["pinned"]) for c in mine["unpinnedConversations"]] == [(TRIP, False)]


def test_the_other_user_lists_nothing(client: TestClient, other_client: TestClient) -> None:
    start_trip(client)
    pinned = other_client.post(f"{USER}/getPinnedConversations", json={}).json()
    recent = other_client.post(f"{USER}/getUnpinnedConversations", json={}).json()
    assert pinned == {"success": True, "pinnedConversations": []}
    assert recent == {"success": True, "unpinnedConversations": [], "nextCursor": None}


def test_rename_pin_unpin_and_delete(client: TestClient) -> None:
    convid = start_trip(client)
    renamed = client.post(
        f"{USER}/setConversationTitle", json={"convid": convid, "title": "Berlin workshop"}
    )
    assert renamed.status_code == 200 and renamed.json() == {"success": True}
    assert client.post(f"{USER}/setPinned", json={"convid": convid, "pinned": True}).json() == {
        "success": True
    }
    pinned = client.post(f"{USER}/getPinnedConversations", json={}).json()["pinnedConversations"]
    assert [(c["convid"], c["title"], c["pinned"]) for c in pinned] == [
        (convid, "Berlin workshop", True)
    ]
    recent = client.post(f"{USER}/getUnpinnedConversations", json={}).json()
    assert recent["unpinnedConversations"] == []

    client.post(f"{USER}/setPinned", json={"convid": convid, "pinned": False})
    recent = client.post(f"{USER}/getUnpinnedConversations", json={}).json()[
        "unpinnedConversations"
    ]
    assert [c["convid"] for c in recent] == [convid]

    deleted = client.post(f"{USER}/deleteConversation", json={"convid": convid})
    assert deleted.status_code == 200 and deleted.json() == {"success": True}
    gone = client.post(f"{USER}/getConversation", json={"convid": convid})
    assert gone.status_code == 404 and gone.json() == UNKNOWN
    again = client.post(f"{USER}/deleteConversation", json={"convid": convid})
    assert again.status_code == 404


def test_list_bodies_may_be_omitted(client: TestClient) -> None:
    new_conversation(client)
    assert client.post(f"{USER}/getPinnedConversations").json()["pinnedConversations"] == []
    recent = client.post(f"{USER}/getUnpinnedConversations").json()["unpinnedConversations"]
    assert len(recent) == 1


def test_cursor_paging_goes_most_recent_first_without_repeats(client: TestClient) -> None:
    made = [new_conversation(client, f"show the open invoice number {i}") for i in range(7)]
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        body: dict[str, object] = {"limit": 3}
        if cursor is not None:
            body["nextCursor"] = cursor
        page = client.post(f"{USER}/getUnpinnedConversations", json=body).json()
        assert len(page["unpinnedConversations"]) <= 3
        seen += [c["convid"] for c in page["unpinnedConversations"]]
        cursor = page["nextCursor"]
        pages += 1
        if cursor is None:
            break
    assert pages == 3
    assert seen == list(reversed(made))


def test_listing_defaults_to_10_per_page_and_an_empty_cursor_is_the_first_page(
    client: TestClient,
) -> None:
    for i in range(11):
        new_conversation(client, f"show the open invoice number {i}")
    page = client.post(f"{USER}/getUnpinnedConversations", json={}).json()
    assert len(page["unpinnedConversations"]) == 10 and page["nextCursor"] is not None
    empty = client.post(f"{USER}/getUnpinnedConversations", json={"nextCursor": ""}).json()
    assert empty == page
    item = page["unpinnedConversations"][0]
    assert list(item) == ["convid", "title", "lastExecuted", "pinned"]
    assert isinstance(item["lastExecuted"], int)
    assert MARCH_1_9AM_MS <= item["lastExecuted"] < MARCH_1_9AM_MS + 3_600_000


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"limit": 0}, "limit: must be at least 1"),
        ({"limit": 26}, "limit: must be at most 25"),
        ({"limit": "five"}, "limit: must be a whole number"),
        ({"limit": 2.5}, "limit: must be a whole number"),
        ({"nextCursor": "not-a-cursor"}, "nextCursor: not a cursor this server handed out"),
        ({"cursor": "x"}, "unknown field 'cursor'"),
    ],
)
def test_bad_paging_is_422(client: TestClient, body: dict[str, object], message: str) -> None:
    reply = client.post(f"{USER}/getUnpinnedConversations", json=body)
    assert reply.status_code == 422
    assert reply.json()["error"]["message"] == message


def test_pin_limit_is_409_with_a_clear_message(client: TestClient, deployment: Deployment) -> None:
    deployment.account.pin_limit = 2
    convids = [new_conversation(client, f"show the open invoice number {i}") for i in range(3)]
    for convid in convids[:2]:
        assert client.post(f"{USER}/setPinned", json={"convid": convid, "pinned": True}).is_success
    refused = client.post(f"{USER}/setPinned", json={"convid": convids[2], "pinned": True})
    assert refused.status_code == 409
    assert refused.json() == {
        "success": False,
        "error": {
            "message": "You can pin at most 2 conversations; unpin one first.",
            "data": {},
        },
    }
    # Pinning one that is already pinned is not a new pin.
    assert client.post(f"{USER}/setPinned", json={"convid": convids[0], "pinned": True}).is_success


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("setConversationTitle", {"title": ""}, "title: must be at least 1 character"),
        ("setConversationTitle", {"title": "x" * 201}, "title: must be at most 200 characters"),
        ("setConversationTitle", {"title": "   "}, "title: must not be blank"),
        ("setConversationTitle", {}, "title: is required"),
        ("setPinned", {"pinned": "maybe"}, "pinned: must be true or false"),
        ("setPinned", {}, "pinned: is required"),
        ("getConversation", {"convid": "not/a/convid"}, "convid: must be 22 letters or digits"),
        ("getPinnedConversations", {"limit": 3}, "unknown field 'limit'"),
    ],
)
def test_bad_user_bodies_are_422(
    client: TestClient, path: str, body: dict[str, object], message: str
) -> None:
    convid = new_conversation(client)
    reply = client.post(f"{USER}/{path}", json={"convid": convid, **body})
    if path == "getPinnedConversations":
        reply = client.post(f"{USER}/{path}", json=body)
    assert reply.status_code == 422
    assert message in reply.json()["error"]["message"]


def test_a_title_is_stored_as_given(client: TestClient) -> None:
    convid = new_conversation(client)
    title = "Ünïcode — and 200 characters " + "x" * 170
    client.post(f"{USER}/setConversationTitle", json={"convid": convid, "title": title})
    got = client.post(f"{USER}/getUnpinnedConversations", json={}).json()
    assert got["unpinnedConversations"][0]["title"] == title


def test_an_unavailable_store_is_503_for_user_calls(
    client: TestClient, deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*args: object, **kwargs: object) -> None:
        raise StoreUnavailable("memory store: switched off for the test")

    monkeypatch.setattr(deployment.account.store, "list_pinned", down)
    monkeypatch.setattr(deployment.account.store, "get_entry", down)
    monkeypatch.setattr(deployment.account.store, "load", down)
    for path, body in (("getPinnedConversations", {}), ("getConversation", {"convid": "A" * 22})):
        reply = client.post(f"{USER}/{path}", json=body)
        assert reply.status_code == 503
        assert reply.json()["error"]["message"] == (
            "The conversation store is unavailable: memory store: switched off for the test"
        )


def test_state_view_is_the_owners_decrypted_state(client: TestClient) -> None:
    convid = start_trip(client)
    client.post(
        "/api/exec/execAgent",
        json={
            "agentName": "FileExpenses",
            "convid": convid,
            "inputs": {"query": "file my travel expenses for that trip"},
        },
    )
    reply = client.post("/api/harness/getConversationState", json={"convid": convid})
    assert reply.status_code == 200
    body = reply.json()
    assert body["success"] is True and body["convid"] == convid
    state = body["state"]
    assert [r["agent"] for r in state["runs"]] == ["BookTrip", "FileExpenses"]
    assert state["conv"]["trip"] == {"destination": "Berlin", "seat": "aisle"}
    assert state["conv"]["expense"] == {"trip": "Berlin"}
    assert "trip" in state["runs"][1]["reads"]
    record = body["record"]
    assert record["stateVersion"] == 3  # ask, answer, follow-up
    assert record["size"] > 0 and len(record["hexPreview"]) == 96
    assert "Berlin" not in bytes.fromhex(record["hexPreview"]).decode("latin-1")
