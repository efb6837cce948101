"""Isolation: another user's conversation is indistinguishable from one that never existed.

The owner (first acme user) holds conversations in every condition: finished, handed off,
paused on an ask, pinned, renamed. Another user of the same account, a user of another
account, an anonymous caller and a caller with a wrong token then probe every endpoint with
the owner's convids and with convids that never existed; each pair of answers must be
byte-identical (status and body), the intruders' lists never show the owner's conversations,
and nothing the intruders sent changes them.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hostile_env import EXPENSES, INVOICE, TRIP, build_app, deployment_in, signed_in, token_of

from mock_account.deployment import Deployment

ALPHABET = string.ascii_letters + string.digits
EXEC = "/api/exec/execAgent"


def never_existed() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(22))


def probes(convid: str) -> list[tuple[str, dict[str, Any]]]:
    """Every call that names a conversation, with ``convid``."""
    return [
        ("/api/user/getConversation", {"convid": convid}),
        ("/api/harness/getConversationState", {"convid": convid}),
        ("/api/user/setConversationTitle", {"convid": convid, "title": "taken over"}),
        ("/api/user/setPinned", {"convid": convid, "pinned": True}),
        ("/api/user/setPinned", {"convid": convid, "pinned": False}),
        (EXEC, {"agentName": "InvoiceStatus", "convid": convid, "inputs": {"query": INVOICE}}),
        (EXEC, {"agentName": "FileExpenses", "convid": convid, "inputs": {"query": EXPENSES}}),
        (EXEC, {"agentName": "BookTrip", "convid": convid, "inputs": {"seat": "window"}}),
        (EXEC, {"agentName": "BookTrip", "convid": convid, "inputs": {"query": TRIP}}),
        (EXEC, {"agentName": "IssueRefund", "convid": convid, "inputs": {"query": INVOICE}}),
        ("/api/harness/getInboxConversation", {"convid": convid}),
        ("/api/harness/deliverMessage", {"channel": "web", "query": INVOICE, "convid": convid}),
        ("/api/user/deleteConversation", {"convid": convid}),
    ]


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    with deployment_in(tmp_path_factory.mktemp("hostile-isolation")) as built:
        yield built


def _exec(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    reply = client.post(EXEC, json=body)
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def owned_conversations(owner: TestClient) -> dict[str, str]:
    """The owner's conversations, one per condition, by what they are."""
    finished = _exec(owner, {"agentName": "InvoiceStatus", "inputs": {"query": INVOICE}})
    asked = _exec(owner, {"agentName": "BookTrip", "inputs": {"query": TRIP}})
    answered = _exec(
        owner, {"agentName": "BookTrip", "convid": asked["convid"], "inputs": {"seat": "aisle"}}
    )
    handed = _exec(
        owner,
        {"agentName": "FileExpenses", "convid": answered["convid"], "inputs": {"query": EXPENSES}},
    )
    paused = _exec(owner, {"agentName": "BookTrip", "inputs": {"query": TRIP + " again"}})
    pinned = _exec(owner, {"agentName": "InvoiceStatus", "inputs": {"query": INVOICE + "?"}})
    renamed = _exec(owner, {"agentName": "InvoiceStatus", "inputs": {"query": INVOICE + "!"}})
    assert [r["resultCode"] for r in (finished, handed, paused, pinned, renamed)] == [
        "success",
        "success",
        "ask",
        "success",
        "success",
    ]
    assert (
        owner.post(
            "/api/user/setPinned", json={"convid": pinned["convid"], "pinned": True}
        ).status_code
        == 200
    )
    assert (
        owner.post(
            "/api/user/setConversationTitle",
            json={"convid": renamed["convid"], "title": "secret deal"},
        ).status_code
        == 200
    )
    return {
        "finished": finished["convid"],
        "handed off": handed["convid"],
        "paused on ask": paused["convid"],
        "pinned": pinned["convid"],
        "renamed": renamed["convid"],
    }


def owner_view(owner: TestClient, convids: dict[str, str]) -> dict[str, Any]:
    """Everything the owner can see of their conversations."""
    view: dict[str, Any] = {
        "pinned": owner.post("/api/user/getPinnedConversations", json={}).json(),
        "recent": owner.post("/api/user/getUnpinnedConversations", json={}).json(),
    }
    for convid in convids.values():
        for path in ("/api/user/getConversation", "/api/harness/getConversationState"):
            reply = owner.post(path, json={"convid": convid})
            assert reply.status_code == 200, reply.text
            view[f"{path} {convid}"] = reply.json()
    return view


def listed(client: TestClient) -> set[str]:
    """Every convid the client's lists show (all pages)."""
    found = {
        c["convid"]
        for c in client.post("/api/user/getPinnedConversations", json={}).json()[
            "pinnedConversations"
        ]
    }
    cursor = None
    while True:
        body: dict[str, Any] = {"limit": 25}
        if cursor:
            body["nextCursor"] = cursor
        page = client.post("/api/user/getUnpinnedConversations", json=body).json()
        found |= {c["convid"] for c in page["unpinnedConversations"]}
        cursor = page["nextCursor"]
        if not cursor:
            return found


def answer(client: TestClient, path: str, body: dict[str, Any], convid: str) -> tuple[int, bytes]:
    """Status and body, with the probed convid itself (if echoed) as a placeholder."""
    reply = client.post(path, json=body)
    return reply.status_code, reply.content.replace(convid.encode(), b"<convid>")


def test_another_users_conversation_looks_like_one_that_never_existed(
    deployment: Deployment,
) -> None:
    app = build_app(deployment)
    acme = [u for u in deployment.users.users if u.account == "acme"]
    globex = [u for u in deployment.users.users if u.account == "globex"]
    with (
        signed_in(app, token_of(deployment, acme[0])) as owner,
        signed_in(app, token_of(deployment, acme[1])) as colleague,
        signed_in(app, token_of(deployment, globex[0])) as outsider,
        signed_in(app, None) as anonymous,
        signed_in(app, "s2o_" + "0" * 40) as forger,
    ):
        convids = owned_conversations(owner)
        # The intruders have conversations of their own, so their lists are not empty.
        for intruder in (colleague, outsider):
            _exec(intruder, {"agentName": "InvoiceStatus", "inputs": {"query": INVOICE}})
        before = owner_view(owner, convids)
        intruders = {
            "same-account user": colleague,
            "other-account user": outsider,
            "anonymous": anonymous,
            "wrong token": forger,
        }
        compared = 0
        differences: list[str] = []
        statuses: dict[int, int] = {}
        for who, intruder in intruders.items():
            for what, convid in convids.items():
                for (path, body), (_, control_body) in zip(
                    probes(convid), probes(never_existed()), strict=True
                ):
                    got = answer(intruder, path, body, convid)
                    control = answer(intruder, path, control_body, control_body["convid"])
                    compared += 1
                    statuses[got[0]] = statuses.get(got[0], 0) + 1
                    if got != control:
                        differences.append(
                            f"{who} on {what} {path}: {got!r} but never-existed {control!r}"
                        )
            leaked = (
                listed(intruder) & set(convids.values())
                if intruder in (colleague, outsider)
                else set()
            )
            if leaked:
                differences.append(f"{who} lists the owner's conversations {sorted(leaked)}")
        after = owner_view(owner, convids)
        owner_lists = listed(owner)
    print(
        f"\nHOSTILE isolation: {compared} probes ({len(intruders)} intruders x "
        f"{len(convids)} owned conversations x {len(probes('x'))} calls) byte-identical to a "
        f"never-existed convid: {compared - len(differences)}; statuses {statuses}; owner's "
        f"view unchanged: {after == before}"
    )
    assert differences == []
    assert after == before
    assert set(convids.values()) <= owner_lists


def test_exec_agent_with_someone_elses_convid_starts_nothing(deployment: Deployment) -> None:
    """A stolen convid in execAgent answers like a random one and creates no conversation."""
    app = build_app(deployment)
    acme = [u for u in deployment.users.users if u.account == "acme"]
    globex = [u for u in deployment.users.users if u.account == "globex"]
    with (
        signed_in(app, token_of(deployment, acme[2])) as owner,
        signed_in(app, token_of(deployment, globex[1])) as outsider,
    ):
        paused = _exec(owner, {"agentName": "BookTrip", "inputs": {"query": TRIP}})
        lists_before = listed(outsider)
        stolen = _exec(
            outsider,
            {"agentName": "BookTrip", "convid": paused["convid"], "inputs": {"seat": "window"}},
        )
        random = _exec(
            outsider,
            {"agentName": "BookTrip", "convid": never_existed(), "inputs": {"seat": "window"}},
        )
        resumed = _exec(
            owner,
            {"agentName": "BookTrip", "convid": paused["convid"], "inputs": {"seat": "aisle"}},
        )
        lists_after = listed(outsider)
    print(
        f"\nHOSTILE stolen convid in execAgent: {stolen['resultCode']} (random convid: "
        f"{random['resultCode']}); owner resumes with {resumed['resultCode']}"
    )
    assert stolen == random
    assert stolen["resultCode"] == "unknownConversation" and stolen["convid"] is None
    assert lists_after == lists_before
    assert resumed["resultCode"] == "success"
    assert "aisle" in resumed["output"]["parts"][0]["text"]
