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
    ActionError,
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


class WorkflowsClient:
    """The workflows half of a demo client (``client`` is the demo's own client).

    With ``identity`` (the account administrator only), the calls that read progress, list,
    approve or reject actions and read the outbox act for that channel identity instead.
    """

    def __init__(self, client: Any, identity: str | None = None) -> None:
        self.client = client
        self.identity = identity

    def _local(self, user: str, call: Callable[[Any, Any, str, str], T]) -> T:
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
            return call(deployment.workflows, deployment.actions, found.account, whose)
        except _REFUSALS as exc:
            raise ClientError(str(exc)) from exc

    def _remote(self, path: str, body: dict[str, Any], key: str) -> Any:
        if self.identity is not None:
            body = {**body, "identity": self.identity}
        data, _ = self.client._post(f"/api/harness/{path}", body)
        return data[key]

    @property
    def _embedded(self) -> bool:
        if isinstance(self.client, InProcessClient):
            return True
        if isinstance(self.client, HttpClient):
            return False
        raise ClientError("This client cannot show workflows.")

    def workflows(self, user: str) -> list[dict[str, Any]]:
        if self._embedded:
            return self._local(user, lambda wf, _a, account, who: wf.list_for(account, who))
        return list(self._remote("listWorkflows", {}, "workflows"))

    def submit(self, user: str, workflow: str, values: dict[str, Any]) -> dict[str, Any]:
        if self._embedded:
            return self._local(
                user, lambda wf, _a, account, who: wf.submit(account, who, workflow, values)
            )
        return dict(
            self._remote(
                "submitWorkflowValues", {"workflow": workflow, "values": values}, "progress"
            )
        )

    def advance(self, user: str, workflow: str) -> dict[str, Any]:
        if self._embedded:
            return self._local(
                user, lambda wf, _a, account, who: wf.advance(account, who, workflow, by=who)
            )
        return dict(self._remote("advanceWorkflow", {"workflow": workflow}, "progress"))

    def actions(self, user: str) -> list[dict[str, Any]]:
        if self._embedded:
            return self._local(user, lambda _w, ledger, account, who: ledger.list(account, who))
        return list(self._remote("listActions", {}, "actions"))

    def propose(self, user: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        if self._embedded:
            return self._local(
                user,
                lambda _w, ledger, account, who: ledger.propose(
                    account, who, kind=kind, payload=payload
                )[0],
            )
        return dict(self._remote("createAction", {"kind": kind, "payload": payload}, "action"))

    def approve(self, user: str, action_id: str) -> dict[str, Any]:
        if self._embedded:
            return self._local(
                user,
                lambda _w, ledger, account, who: ledger.approve_and_execute(
                    account, who, action_id
                ),
            )
        return dict(self._remote("approveAction", {"actionId": action_id}, "action"))

    def reject(self, user: str, action_id: str) -> dict[str, Any]:
        if self._embedded:
            return self._local(
                user, lambda _w, ledger, account, who: ledger.reject(account, who, action_id)
            )
        return dict(self._remote("rejectAction", {"actionId": action_id}, "action"))

    def outbox(self, user: str) -> list[dict[str, Any]]:
        if self._embedded:
            return self._local(user, lambda _w, ledger, account, who: ledger.outbox(account, who))
        return list(self._remote("getOutbox", {}, "outbox"))
