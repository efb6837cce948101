"""The channel and Inbox endpoints over HTTP: shapes, permissions, refusals, isolation."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from mock_account.api import create_app
from mock_account.deployment import Deployment
from mock_account.users import User

PARCEL = "where is my parcel"
GREET = "greet me by my name please"


def token(deployment: Deployment, user: User) -> str:
    return next(t.token for t in deployment.users.tokens() if t.user == user)


@pytest.fixture
def store_url() -> str:
    return "memory://"


@pytest.fixture
def clients(deployment: Deployment) -> Iterator[dict[str, TestClient]]:
    app = create_app(deployment)
    users = deployment.users.users
    globex = next(u for u in users if u.account != users[0].account)
    made = {
        name: TestClient(
            app,
            headers={"Authorization": f"Bearer {token(deployment, who)}"},
            raise_server_exceptions=False,
        )
        for name, who in (("admin", users[0]), ("member", users[1]), ("globex", globex))
    }
    made["anonymous"] = TestClient(app, raise_server_exceptions=False)
    yield made


def post(client: TestClient, path: str, body: dict) -> tuple[int, dict]:
    response = client.post(f"/api/harness/{path}", json=body)
    return response.status_code, response.json()


def test_an_email_sender_resumes_and_the_inbox_shows_both_channels_under_one_contact(
    clients: dict[str, TestClient],
) -> None:
    admin = clients["admin"]
    mail = {"channel": "email", "sender": "ada@example.com", "query": PARCEL}
    status, first = post(admin, "deliverMessage", mail)
    assert status == 200 and first["success"] and first["resumed"] is False
    assert first["channel"] == "email" and len(first["identity"]) == 32
    assert first["searchResults"][0]["agentName"] == "TrackParcel"
    _, second = post(admin, "deliverMessage", mail)
    assert second["resumed"] is True and second["convid"] == first["convid"]
    _, im = post(
        admin,
        "deliverMessage",
        {"channel": "im", "sender": "slack:U1", "query": PARCEL, "contact": "Ada Lovelace"},
    )
    assert im["convid"] != first["convid"]
    status, _ = post(
        admin, "setIdentityContact", {"identity": first["identity"], "contact": "Ada Lovelace"}
    )
    assert status == 200
    status, inbox = post(admin, "getInbox", {"contact": "Ada Lovelace"})
    assert status == 200 and inbox["nextCursor"] is None
    assert [c["channel"] for c in inbox["conversations"]] == ["im", "email"]
    _, contacts = post(admin, "getContacts", {})
    assert [len(c["identities"]) for c in contacts["contacts"]] == [2]
    status, detail = post(admin, "getInboxConversation", {"convid": first["convid"]})
    assert status == 200
    conversation = detail["conversation"]
    assert len(conversation["transcript"]) == 2 and len(conversation["turns"]) == 2
    assert conversation["turns"][0]["agentName"] == "TrackParcel"
    assert conversation["turns"][0]["writes"] == ["conv.parcel"]
    status, identity = post(admin, "getIdentity", {"identity": first["identity"]})
    assert status == 200 and identity["identity"]["sender"] == "ada@example.com"


def test_members_write_only_as_themselves_on_web_and_never_see_the_inbox(
    clients: dict[str, TestClient],
) -> None:
    member = clients["member"]
    status, body = post(member, "deliverMessage", {"channel": "web", "query": PARCEL})
    assert status == 200 and body["success"] and body["channel"] == "web"
    for path, request in (
        ("deliverMessage", {"channel": "email", "sender": "ada@example.com", "query": PARCEL}),
        ("getInbox", {}),
        ("getContacts", {}),
        ("getInboxConversation", {"convid": body["convid"]}),
        ("getIdentity", {"identity": body["identity"]}),
        ("setIdentityContact", {"identity": body["identity"], "contact": "x"}),
    ):
        status, refused = post(member, path, request)
        assert status == 403, path
        assert refused["success"] is False and "administrator" in refused["error"]["message"]
    status, _ = post(clients["anonymous"], "getInbox", {})
    assert status == 401


def test_accounts_are_isolated(clients: dict[str, TestClient]) -> None:
    _, acme = post(
        clients["admin"],
        "deliverMessage",
        {"channel": "email", "sender": "ada@example.com", "query": PARCEL},
    )
    globex = clients["globex"]  # the administrator of the other account
    status, inbox = post(globex, "getInbox", {})
    assert status == 200 and inbox["conversations"] == []
    status, _ = post(globex, "getInboxConversation", {"convid": acme["convid"]})
    assert status == 404
    status, _ = post(globex, "getIdentity", {"identity": acme["identity"]})
    assert status == 404
    status, _ = post(globex, "setIdentityContact", {"identity": acme["identity"], "contact": "x"})
    assert status == 404
    _, theirs = post(
        globex,
        "deliverMessage",
        {"channel": "email", "sender": "ada@example.com", "query": PARCEL},
    )
    assert theirs["resumed"] is False
    assert theirs["identity"] != acme["identity"] and theirs["convid"] != acme["convid"]


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("deliverMessage", {"channel": "fax", "sender": "x", "query": PARCEL}, 422, "channel"),
        ("deliverMessage", {"channel": "email", "sender": "nobody", "query": PARCEL}, 422,
         "not an email address"),
        ("deliverMessage", {"channel": "email", "query": PARCEL}, 422, "sender is required"),
        ("deliverMessage", {"channel": "im", "sender": "u1"}, 422, "needs a query"),
        ("deliverMessage", {"channel": "im", "sender": "u1", "query": PARCEL, "bogus": 1}, 422,
         "bogus"),
        ("deliverMessage", {"channel": "email", "sender": "a@b.example", "query": PARCEL,
                            "convid": "A" * 22}, 422, "send no convid"),
        ("deliverMessage", {"channel": "web", "query": PARCEL, "convid": "A" * 22}, 404,
         "probably expired"),
        ("getInbox", {"nextCursor": "@@@"}, 422, "nextCursor"),
        ("getInbox", {"limit": 0}, 422, "limit"),
        ("getInboxConversation", {"convid": "A" * 22}, 404, "probably expired"),
        ("getIdentity", {"identity": "0" * 32}, 404, "no such identity"),
        ("getIdentity", {"identity": "not-hex"}, 422, "identity"),
    ],
)  # fmt: skip
def test_bad_requests_get_the_right_status_and_say_why(
    clients: dict[str, TestClient], path: str, body: dict, status: int, words: str
) -> None:
    got, answer = post(clients["admin"], path, body)
    assert got == status, answer
    assert answer["success"] is False
    assert words.lower() in answer["error"]["message"].lower()


def test_the_endpoints_are_documented_as_harness_extras(clients: dict[str, TestClient]) -> None:
    paths = clients["anonymous"].get("/openapi.json").json()["paths"]
    for name in (
        "deliverMessage",
        "getInbox",
        "getInboxConversation",
        "getContacts",
        "getIdentity",
        "setIdentityContact",
    ):
        operation = paths[f"/api/harness/{name}"]["post"]
        assert operation["tags"] == ["harness"]
