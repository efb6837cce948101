"""Workflows and approved actions over HTTP and through agents (harness extras)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from workflow_agents import write_workflow_account

from mock_account.deployment import Deployment

EXEC = "/api/exec/execAgent"
WF = "new_hire_onboarding"


@pytest.fixture(scope="module")
def account_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_workflow_account(tmp_path_factory.mktemp("workflow-account"))


def _run(client: TestClient, agent: str, inputs: dict[str, Any], convid: str | None = None) -> Any:
    body: dict[str, Any] = {"agentName": agent, "inputs": inputs}
    if convid:
        body["convid"] = convid
    reply = client.post(EXEC, json=body)
    assert reply.status_code == 200, reply.text
    return reply.json()


def _text(answer: dict[str, Any]) -> str:
    return " ".join(p["text"] for p in answer["output"]["parts"])


def test_an_agent_moves_a_user_through_stages_across_conversations(client: TestClient) -> None:
    first = _run(client, "OnboardNewHire", {"query": "start my onboarding", "legal_name": "Ann"})
    assert first["resultCode"] == "success"
    assert _text(first) == (
        "Stage paperwork; open: start_date, contract_signed, contract_is_signed; error: "
    )
    # Another conversation, the same user: the progress is theirs, not the conversation's.
    second = _run(
        client,
        "OnboardNewHire",
        {"query": "continue my onboarding", "start_date": "2026-12-07", "contract_signed": "no"},
    )
    assert second["convid"] != first["convid"]
    assert _text(second) == "Stage paperwork; open: contract_is_signed; error: "
    bad = _run(client, "OnboardNewHire", {"query": "continue my onboarding", "laptop": "mac"})
    assert "belongs to stage 'equipment', which is not reached yet" in _text(bad)
    third = _run(
        client, "OnboardNewHire", {"query": "continue my onboarding", "contract_signed": "yes"}
    )
    assert _text(third) == "Stage equipment; open: laptop; error: "
    progress = client.post("/api/harness/getWorkflowProgress", json={"workflow": WF}).json()
    assert progress["progress"]["stage"] == "equipment"
    assert progress["progress"]["values"] == {
        "legal_name": "Ann",
        "start_date": "2026-12-07",
        "contract_signed": True,
    }
    assert [(h["from"], h["to"], h["by"]) for h in progress["progress"]["history"]] == [
        ("paperwork", "equipment", "OnboardNewHire")
    ]


def test_stages_cannot_be_skipped_over_http(client: TestClient, other_client: TestClient) -> None:
    refused = client.post("/api/harness/advanceWorkflow", json={"workflow": WF})
    assert refused.status_code == 409
    assert refused.json()["error"]["data"]["unmet"] == [
        "legal_name",
        "start_date",
        "contract_signed",
        "contract_is_signed",
    ]
    bad = client.post(
        "/api/harness/submitWorkflowValues",
        json={"workflow": WF, "values": {"start_date": "soon"}},
    )
    assert bad.status_code == 422 and "must be a date" in bad.json()["error"]["message"]
    ok = client.post(
        "/api/harness/submitWorkflowValues",
        json={
            "workflow": WF,
            "values": {"legal_name": "Ann", "start_date": "2026-12-07", "contract_signed": True},
        },
    )
    assert ok.status_code == 200 and ok.json()["progress"]["version"] == 1
    moved = client.post("/api/harness/advanceWorkflow", json={"workflow": WF})
    assert moved.json()["progress"]["stage"] == "equipment"
    # The other user of the account has their own progress, untouched.
    mine = other_client.post("/api/harness/listWorkflows", json={}).json()["workflows"]
    assert [(w["workflow"], w["stage"], w["version"]) for w in mine] == [(WF, "paperwork", 0)]
    unknown = client.post("/api/harness/getWorkflowProgress", json={"workflow": "payroll"})
    assert unknown.status_code == 404
    extra = client.post("/api/harness/getWorkflowProgress", json={"workflow": WF, "x": 1})
    assert extra.status_code == 422


def test_an_agent_action_waits_for_approval_and_runs_once(
    client: TestClient, other_client: TestClient
) -> None:
    answer = _run(client, "SendTeamNotice", {"query": "email the team that we close at 3"})
    action_id = answer["output"]["parts"][0]["text"].split()[1]
    assert _text(answer).endswith("is awaitingApproval.")
    pending = client.post("/api/harness/listActions", json={"status": "awaitingApproval"})
    assert [a["actionId"] for a in pending.json()["actions"]] == [action_id]
    assert client.post("/api/harness/getOutbox", json={}).json()["outbox"] == []
    # Another user cannot see, approve or reject it: it does not exist for them.
    for path in ("/api/harness/approveAction", "/api/harness/rejectAction"):
        foreign = other_client.post(path, json={"actionId": action_id})
        assert foreign.status_code == 404
        assert foreign.json()["error"]["message"] == "There is no such action."
    assert other_client.post("/api/harness/listActions", json={}).json()["actions"] == []
    for _ in range(3):
        approved = client.post("/api/harness/approveAction", json={"actionId": action_id})
        assert approved.status_code == 200 and approved.json()["action"]["status"] == "done"
    outbox = client.post("/api/harness/getOutbox", json={}).json()["outbox"]
    assert [(o["actionId"], o["payload"]["body"]) for o in outbox] == [
        (action_id, "email the team that we close at 3")
    ]
    late = client.post("/api/harness/rejectAction", json={"actionId": action_id})
    assert late.status_code == 409


def test_an_action_stands_when_the_rest_of_the_turn_fails_and_a_retry_adds_none(
    client: TestClient, deployment: Deployment
) -> None:
    start = _run(client, "PostToCrm", {"query": "log my call with Hoffmann Logistics"})
    convid = start["convid"]
    inputs = {"query": "email the team that the call went well", "fail": "yes"}
    failed = _run(client, "SendTeamNotice", inputs, convid)
    assert failed["resultCode"] == "failCommand"
    retried = _run(client, "SendTeamNotice", inputs, convid)  # the same turn again
    assert retried["resultCode"] == "failCommand"
    actions = client.post("/api/harness/listActions", json={}).json()["actions"]
    assert [(a["kind"], a["status"]) for a in actions] == [
        ("email", "awaitingApproval"),
        ("connector", "done"),
    ]
    # The failed run saved nothing in the conversation, but the action is there to approve.
    state = client.post("/api/harness/getConversationState", json={"convid": convid}).json()
    assert "notice" not in state["state"]["conv"]
    client.post("/api/harness/approveAction", json={"actionId": actions[0]["actionId"]})
    kinds = sorted(
        o["kind"] for o in client.post("/api/harness/getOutbox", json={}).json()["outbox"]
    )
    assert kinds == ["connector", "email"]


def test_created_actions_and_bad_bodies(client: TestClient) -> None:
    made = client.post(
        "/api/harness/createAction",
        json={"kind": "im", "payload": {"to": "u1", "text": "hi"}, "actionId": "act_client01"},
    )
    assert made.status_code == 200 and made.json()["action"]["status"] == "awaitingApproval"
    again = client.post(
        "/api/harness/createAction",
        json={"kind": "im", "payload": {"to": "u1", "text": "hi"}, "actionId": "act_client01"},
    )
    assert again.json()["action"]["created"] == made.json()["action"]["created"]
    missing = client.post("/api/harness/createAction", json={"kind": "im", "payload": {"to": "u"}})
    assert missing.status_code == 422 and "needs text" in missing.json()["error"]["message"]
    assert (
        client.post("/api/harness/createAction", json={"kind": "fax", "payload": {}}).status_code
        == 422
    )
    assert client.post("/api/harness/approveAction", json={"actionId": "x"}).status_code == 422
    assert client.post("/api/harness/listActions", json={"status": "sent"}).status_code == 422
    rejected = client.post("/api/harness/rejectAction", json={"actionId": "act_client01"})
    assert rejected.json()["action"]["status"] == "rejected"
    refused = client.post("/api/harness/approveAction", json={"actionId": "act_client01"})
    assert refused.status_code == 409


def test_workflow_endpoints_need_a_token(anonymous: TestClient) -> None:
    for path, body in (
        ("/api/harness/listWorkflows", {}),
        ("/api/harness/listActions", {}),
        ("/api/harness/getOutbox", {}),
    ):
        assert anonymous.post(path, json=body).status_code == 401


def test_a_message_on_a_channel_keeps_the_senders_own_progress(
    client: TestClient, deployment: Deployment
) -> None:
    """``deliverMessage`` as two email senders and one IM sender: three identities, three
    progresses; the administrator who delivered them has none of their own."""

    def deliver(channel: str, sender: str, inputs: dict[str, Any]) -> dict[str, Any]:
        body = {
            "channel": channel,
            "sender": sender,
            "agentName": "OnboardNewHire",
            "inputs": {"query": "continue my onboarding", **inputs},
        }
        reply = client.post("/api/harness/deliverMessage", json=body)
        assert reply.status_code == 200, reply.text
        return reply.json()

    paperwork = {"legal_name": "Ann", "start_date": "2026-12-07", "contract_signed": "yes"}
    ann = deliver("email", "ann@example.org", paperwork)
    assert _text(ann) == "Stage equipment; open: laptop; error: "
    bob = deliver("email", "bob@example.org", {"legal_name": "Bob"})
    assert _text(bob).startswith("Stage paperwork; open: start_date")
    again = deliver("email", "ann@example.org", {"laptop": "linux"})
    assert again["resumed"] and again["convid"] == ann["convid"]
    assert _text(again) == "Stage first_day; open: buddy; error: "
    on_im = deliver("im", "slack:U024BE7LH", {})
    assert on_im["identity"] != ann["identity"]
    assert _text(on_im).startswith("Stage paperwork; open: legal_name")

    assert deployment.workflows is not None
    account = deployment.users.users[0].account
    stages = {
        who: deployment.workflows.view(account, owner, WF)["stage"]
        for who, owner in (
            ("ann", f"email:{ann['identity']}"),
            ("bob", f"email:{bob['identity']}"),
            ("ann on im", f"im:{on_im['identity']}"),
        )
    }
    assert stages == {"ann": "first_day", "bob": "paperwork", "ann on im": "paperwork"}
    mine = client.post("/api/harness/getWorkflowProgress", json={"workflow": WF}).json()
    assert (mine["progress"]["stage"], mine["progress"]["values"]) == ("paperwork", {})


def test_the_administrator_follows_and_approves_for_a_channel_identity(
    client: TestClient, other_client: TestClient
) -> None:
    """An email sender has no dashboard: the administrator sees the identity's progress and
    approves the action proposed in its conversation; nobody else may name the identity."""
    sent = client.post(
        "/api/harness/deliverMessage",
        json={
            "channel": "email",
            "sender": "cleo@example.org",
            "agentName": "SendTeamNotice",
            "inputs": {"query": "email the team that the kit has shipped"},
        },
    ).json()
    identity = sent["identity"]
    action_id = sent["output"]["parts"][0]["text"].split()[1]
    # The administrator's own actions do not include it: it is the identity's.
    assert client.post("/api/harness/listActions", json={}).json()["actions"] == []
    theirs = client.post("/api/harness/listActions", json={"identity": identity}).json()
    assert [(a["actionId"], a["status"]) for a in theirs["actions"]] == [
        (action_id, "awaitingApproval")
    ]
    progress = client.post(
        "/api/harness/getWorkflowProgress", json={"workflow": WF, "identity": identity}
    )
    assert progress.status_code == 200 and progress.json()["progress"]["stage"] == "paperwork"
    for path, body in (
        ("/api/harness/listActions", {"identity": identity}),
        ("/api/harness/listWorkflows", {"identity": identity}),
        ("/api/harness/getOutbox", {"identity": identity}),
        ("/api/harness/approveAction", {"identity": identity, "actionId": action_id}),
    ):
        refused = other_client.post(path, json=body)
        assert refused.status_code == 403, (path, refused.text)
    unknown = client.post("/api/harness/listActions", json={"identity": "0" * len(identity)})
    assert unknown.status_code == 404
    assert client.post("/api/harness/listActions", json={"identity": "nope"}).status_code == 422
    # Approving as the administrator without naming the identity finds nothing.
    mine = client.post("/api/harness/approveAction", json={"actionId": action_id})
    assert mine.status_code == 404
    approved = client.post(
        "/api/harness/approveAction", json={"identity": identity, "actionId": action_id}
    )
    assert approved.status_code == 200 and approved.json()["action"]["status"] == "done"
    outbox = client.post("/api/harness/getOutbox", json={"identity": identity}).json()["outbox"]
    assert [o["actionId"] for o in outbox] == [action_id]
    assert client.post("/api/harness/getOutbox", json={}).json()["outbox"] == []
