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
