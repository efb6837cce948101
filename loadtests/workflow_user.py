"""Approved actions and workflow progress over the HTTP API, under load.

Each simulated user proposes actions (an email, an IM message) under ids of its own, approves
them, and now and then approves one again or retries the proposal (as a client retrying a turn
would). It checks, from the outbox, that every action it approved was delivered exactly once:
a missing or a second delivery is a failure (``outbox [exactly once]``). When the account has
workflows (the shipped one has two: new-hire and supplier onboarding) it also reads its progress
and tries to advance, which the server refuses while goals are open (409, expected).

    locust -f loadtests/workflow_user.py --host http://127.0.0.1:9020
"""

from __future__ import annotations

import secrets
from collections import Counter
from typing import Any

from locust import task

from loadtests.conversation_user import ApiUser
from loadtests.settings import weight

KEPT_ACTIONS = 200


class ApprovalUser(ApiUser):
    """Proposes, approves and retries actions; checks each was delivered exactly once."""

    def on_start(self) -> None:
        super().on_start()
        self.prefix = "lt_" + secrets.token_hex(6)
        self.approved: list[str] = []
        self.numbers = 0

    def _propose(self, action_id: str) -> dict[str, Any]:
        kind = self.rng.choice(["email", "im"])
        payload = (
            {"to": "team@example.test", "subject": f"Load {action_id}", "body": "hello"}
            if kind == "email"
            else {"to": "u-load", "text": f"Load {action_id}"}
        )
        body = {"kind": kind, "payload": payload, "actionId": action_id}
        return self.call("/api/harness/createAction", body)

    @task(weight("approve", 6))
    def propose_and_approve(self) -> None:
        self.numbers += 1
        action_id = f"{self.prefix}_{self.numbers:06d}"
        made = self._propose(action_id)
        if not made:
            return
        if self.rng.random() < 0.2:  # a retried turn proposes the same action again
            self._propose(action_id)
        done = self.call("/api/harness/approveAction", {"actionId": action_id})
        if (done.get("action") or {}).get("status") == "done":
            self.approved = [*self.approved, action_id][-KEPT_ACTIONS:]
        if self.rng.random() < 0.2:  # a double click on "approve"
            self.call(
                "/api/harness/approveAction",
                {"actionId": action_id},
                "/api/harness/approveAction [again]",
            )

    @task(weight("outbox", 1))
    def check_outbox(self) -> None:
        with self.client.post(
            "/api/harness/getOutbox",
            json={},
            headers=self.headers,
            name="outbox [exactly once]",
            catch_response=True,
        ) as response:
            data = self._json(response)
            if data is None:
                return
            delivered = Counter(o["actionId"] for o in data.get("outbox") or [])
            wrong = [a for a in self.approved if delivered[a] != 1]
            if wrong:
                response.failure(
                    f"{len(wrong)} approved actions not delivered exactly once: {wrong[:3]}"
                )

    @task(weight("workflow", 2))
    def workflow_progress(self) -> None:
        listed = self.call("/api/harness/listWorkflows", {})
        workflows = listed.get("workflows") or []
        if not workflows:
            return
        name = self.rng.choice(workflows)["workflow"]
        with self.client.post(
            "/api/harness/advanceWorkflow",
            json={"workflow": name},
            headers=self.headers,
            name="/api/harness/advanceWorkflow",
            catch_response=True,
        ) as response:
            if response.status_code in (200, 409):  # 409: goals still open, as it should
                response.success()
            else:
                self._json(response)
