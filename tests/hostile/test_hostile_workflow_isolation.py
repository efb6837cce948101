"""Isolation of workflow progress and actions: every other user, in the same account and in
another one, gets for the owner's actions exactly what a never-existing action gets, and their
probes change nothing the owner sees."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hostile_env import build_app, deployment_in, signed_in, token_of, users_by_account

from mock_account.deployment import Deployment

MAIL = {"to": "board@example.test", "subject": "Merger", "body": "Strictly confidential"}
ACTION_PATHS = ("/api/harness/approveAction", "/api/harness/rejectAction")


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    with deployment_in(tmp_path_factory.mktemp("hostile-workflows")) as built:
        yield built


def _owner_view(owner: TestClient) -> dict[str, Any]:
    return {
        path: owner.post(f"/api/harness/{path}", json={}).json()
        for path in ("listActions", "getOutbox", "listWorkflows")
    }


def test_other_users_cannot_tell_an_action_exists(deployment: Deployment) -> None:
    app = build_app(deployment)
    accounts = users_by_account(deployment)
    owner_user = accounts["acme"][0]
    others = [*accounts["acme"][1:], *accounts["globex"]]
    with signed_in(app, token_of(deployment, owner_user)) as owner:
        pending = owner.post(
            "/api/harness/createAction", json={"kind": "email", "payload": MAIL}
        ).json()["action"]["actionId"]
        done = owner.post(
            "/api/harness/createAction",
            json={"kind": "email", "payload": MAIL, "requiresApproval": False},
        ).json()["action"]
        assert done["status"] == "done"
        before = _owner_view(owner)
        probes = 0
        for other in others:
            with signed_in(app, token_of(deployment, other)) as intruder:
                for path in ACTION_PATHS:
                    missing = "act_" + secrets.token_hex(8)
                    baseline = intruder.post(path, json={"actionId": missing})
                    for action_id in (pending, done["actionId"]):
                        reply = intruder.post(path, json={"actionId": action_id})
                        probes += 1
                        assert (reply.status_code, reply.json()) == (
                            baseline.status_code,
                            baseline.json(),
                        )
                        assert reply.status_code == 404
                mine = _owner_view(intruder)
                assert mine["getOutbox"]["outbox"] == [] and mine["listActions"]["actions"] == []
                assert pending not in str(mine) and "Strictly confidential" not in str(mine)
                # Reusing the owner's id: refused in the owner's account (saying nothing of the
                # action); in another account ids are that account's own (the first user there
                # gets an action of their own, the next one is refused the same way).
                taken = intruder.post(
                    "/api/harness/createAction",
                    json={"kind": "im", "payload": {"to": "x", "text": "y"}, "actionId": pending},
                )
                assert "Merger" not in taken.text
                if other.account == owner_user.account:
                    assert taken.status_code == 422
                else:
                    assert taken.status_code in (200, 422)
        assert _owner_view(owner) == before
        assert probes == len(others) * len(ACTION_PATHS) * 2


def test_only_the_accounts_administrator_can_act_for_its_senders(deployment: Deployment) -> None:
    """A channel identity's actions are reachable by its own account's administrator only: a
    member is refused, and another account's administrator gets what a never-seen identity
    gets."""
    app = build_app(deployment)
    accounts = users_by_account(deployment)
    admin, member = accounts["acme"][0], accounts["acme"][1]
    outsider = accounts["globex"][0]
    with signed_in(app, token_of(deployment, admin)) as owner:
        sent = owner.post(
            "/api/harness/deliverMessage",
            json={"channel": "email", "sender": "dora@example.test", "query": "VPN drops again"},
        ).json()
        identity = sent["identity"]
        assert deployment.actions is not None
        made, _ = deployment.actions.propose(
            admin.account, f"email:{identity}", kind="email", payload=MAIL
        )
        before = owner.post("/api/harness/listActions", json={"identity": identity}).json()
        assert [a["actionId"] for a in before["actions"]] == [made["actionId"]]
    never = secrets.token_hex(len(identity) // 2)
    calls = [(path, {"actionId": made["actionId"]}) for path in ACTION_PATHS] + [
        ("/api/harness/listActions", {}),
        ("/api/harness/getOutbox", {}),
    ]
    with signed_in(app, token_of(deployment, member)) as colleague:
        for path, body in calls:
            assert colleague.post(path, json={**body, "identity": identity}).status_code == 403
    with signed_in(app, token_of(deployment, outsider)) as intruder:
        for path, body in calls:
            reply = intruder.post(path, json={**body, "identity": identity})
            baseline = intruder.post(path, json={**body, "identity": never})
            assert (reply.status_code, reply.json()) == (baseline.status_code, baseline.json())
            assert reply.status_code == 404 and "Merger" not in reply.text
    with signed_in(app, token_of(deployment, admin)) as owner:
        after = owner.post("/api/harness/listActions", json={"identity": identity}).json()
        assert after == before
