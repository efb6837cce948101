"""Workflow progress, actions and the outbox for the demo, from either client.

Embedded, the calls go to the deployment's services directly; over a server, to the harness
endpoints (``/api/harness/listWorkflows``, ``approveAction``...). Both raise ``ClientError``
with a message to show.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from demo_app.http_client import HttpClient
from demo_app.inprocess_client import InProcessClient
from demo_app.views import ClientError
from mock_account.channels import NotAccountAdmin, UnknownIdentity
from mock_account.stores import StoreError
from mock_account.workflows import (
    ActingFor,
    ActionError,
    ActionLedger,
    ActionRefused,
    InvalidValue,
    StageIncomplete,
    TransitionRefused,
    UnknownAction,
    UnknownWorkflow,
)

T = TypeVar("T")
_REFUSALS = (
    ActionError,
    ActionRefused,
    InvalidValue,
    StageIncomplete,
    TransitionRefused,
    UnknownAction,
    UnknownWorkflow,
    StoreError,
    NotAccountAdmin,
    UnknownIdentity,
)
# The field of each endpoint's answer that holds what the call asked for.
_ANSWER_FIELD = {
    "listWorkflows": "workflows",
    "submitWorkflowValues": "progress",
    "advanceWorkflow": "progress",
    "listActions": "actions",
    "createAction": "action",
    "approveAction": "action",
    "rejectAction": "action",
    "getOutbox": "outbox",
}


class WorkflowsClient:
    """The workflows half of a demo client (``client`` is the demo's own client).

    With ``identity`` (the account administrator only), the calls that read progress, list,
    approve or reject actions and read the outbox act for that channel identity instead.
    """

    def __init__(self, client: Any, identity: str | None = None) -> None:
        self.client = client
        self.identity = identity

    def _local(self, user: str, call: Callable[[ActingFor], T]) -> T:
        deployment = self.client.deployment
        found = deployment.users.by_email(user)
        if found is None or deployment.workflows is None or deployment.actions is None:
            raise ClientError("Workflows are not available for this user.")
        try:
            whose = (
                found.email
                if self.identity is None
                else deployment.channels.identity_owner(found, self.identity)
            )
            return call(ActingFor(deployment.workflows, deployment.actions, found.account, whose))
        except _REFUSALS as exc:
            raise ClientError(str(exc)) from exc

    def _remote(self, path: str, body: dict[str, Any]) -> Any:
        if self.identity is not None:
            body = {**body, "identity": self.identity}
        data, _ = self.client._post(f"/api/harness/{path}", body)
        return data[_ANSWER_FIELD[path]]

    def _call(self, user: str, path: str, local: Callable[[ActingFor], T], **body: Any) -> T:
        """``local`` on the embedded account's services, else the harness endpoint ``path`` with
        ``body`` (its fields by their wire names)."""
        if isinstance(self.client, InProcessClient):
            return self._local(user, local)
        if isinstance(self.client, HttpClient):
            return self._remote(path, body)
        raise ClientError("This client cannot show workflows.")

    def workflows(self, user: str) -> list[dict[str, Any]]:
        return list(self._call(user, "listWorkflows", lambda on: on.workflows.list_for(*on.whose)))

    def submit(self, user: str, workflow: str, values: dict[str, Any]) -> dict[str, Any]:
        return dict(
            self._call(
                user,
                "submitWorkflowValues",
                lambda on: on.workflows.submit(*on.whose, workflow, values),
                workflow=workflow,
                values=values,
            )
        )

    def advance(self, user: str, workflow: str) -> dict[str, Any]:
        return dict(
            self._call(
                user,
                "advanceWorkflow",
                lambda on: on.workflows.advance(*on.whose, workflow, by=on.owner),
                workflow=workflow,
            )
        )

    def actions(self, user: str) -> list[dict[str, Any]]:
        return list(self._call(user, "listActions", lambda on: on.ledger.list(*on.whose)))

    def propose(self, user: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        return dict(
            self._call(
                user,
                "createAction",
                lambda on: on.ledger.propose(*on.whose, kind=kind, payload=payload)[0],
                kind=kind,
                payload=payload,
            )
        )

    def approve(self, user: str, action_id: str) -> dict[str, Any]:
        return self._decide(user, "approveAction", action_id, ActionLedger.approve_and_execute)

    def reject(self, user: str, action_id: str) -> dict[str, Any]:
        return self._decide(user, "rejectAction", action_id, ActionLedger.reject)

    def _decide(
        self,
        user: str,
        path: str,
        action_id: str,
        decide: Callable[[ActionLedger, str, str, str], dict[str, Any]],
    ) -> dict[str, Any]:
        """Approve or reject: the same call, but for the ledger's method and the endpoint."""
        return dict(
            self._call(
                user, path, lambda on: decide(on.ledger, *on.whose, action_id), actionId=action_id
            )
        )

    def outbox(self, user: str) -> list[dict[str, Any]]:
        return list(self._call(user, "getOutbox", lambda on: on.ledger.outbox(*on.whose)))
