"""Harness extras: the caller's workflow progress, actions awaiting approval, and the outbox.

Every call acts for the signed-in user in their own account: another user's action is
answered exactly like one that does not exist (404, "There is no such action."). The account's
administrator may name one of the account's channel identities (``identity``, from
``getInbox`` or ``getContacts``) to follow that sender's progress and to approve or reject
the actions proposed in their conversations, since an email or IM sender has no dashboard;
anyone else naming an identity gets 403, an unknown identity 404.

Statuses: 404 unknown workflow or action; 409 a stage with open required goals (the body's
``error.data.unmet`` lists them), a move the workflow does not allow, approving a rejected
action or rejecting an approved one; 422 a bad value or payload (the message says which).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field
from starlette.responses import JSONResponse

from mock_account.api.auth import CurrentUser, DeploymentDep
from mock_account.api.docs import error_doc
from mock_account.api.harness_router import harness_router
from mock_account.api.models import IDENTITY_PATTERN, AnswerResponse, RequestModel
from mock_account.api.responses import error_response
from mock_account.deployment import Deployment
from mock_account.users import User
from mock_account.workflows import (
    ActingFor,
    ActionError,
    ActionRefused,
    InvalidValue,
    StageIncomplete,
    TransitionRefused,
    UnknownAction,
    UnknownWorkflow,
)

router = harness_router(
    {
        404: error_doc("Unknown workflow, action or identity (also another user's action)."),
        409: error_doc("A stage with open goals, or a move that is not allowed."),
    },
    admin_only=True,
)

WorkflowName = Field(pattern=r"^[a-z][a-z0-9_]{0,47}$", description="The workflow's name.")
ActionId = Field(pattern=r"^[A-Za-z0-9_-]{8,64}$", description="The action's id.")


class ForIdentity(RequestModel):
    """For the caller, or (administrator only) for one identity of the account."""

    identity: str | None = Field(
        default=None,
        pattern=IDENTITY_PATTERN,
        description="Administrator only: the channel identity to act for (from getInbox).",
    )


class WorkflowRequest(ForIdentity):
    workflow: str = WorkflowName


class SubmitValuesRequest(RequestModel):
    workflow: str = WorkflowName
    values: dict[str, Any] = Field(description="Values to collect, by name.")


class AdvanceRequest(RequestModel):
    workflow: str = WorkflowName
    to_stage: str | None = Field(
        default=None, description="The next stage, when the stage has several ways out."
    )


ActionStatus = Literal["awaitingApproval", "approved", "rejected", "executing", "done"]


class ListActionsRequest(ForIdentity):
    status: ActionStatus | None = Field(
        default=None, description="Only the actions in this status."
    )


class ActionRequest(ForIdentity):
    action_id: str = ActionId


class CreateActionRequest(RequestModel):
    kind: Literal["email", "im", "connector"] = Field(description="What the action does.")
    payload: dict[str, Any] = Field(
        description="email: to, subject, body; im: to, text; connector: connector, operation."
    )
    requires_approval: bool = Field(
        default=True, description="Wait for approval (else it runs at once)."
    )
    action_id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_-]{8,64}$",
        description="An id of your choice: the same id again finds the first action.",
    )


class WorkflowsResponse(AnswerResponse):
    workflows: list[dict[str, Any]] = Field(description="The caller's progress in each workflow.")


class ProgressResponse(AnswerResponse):
    progress: dict[str, Any] = Field(
        description="Stage, collected values, goal results of the stage, history, version."
    )


class ActionsResponse(AnswerResponse):
    actions: list[dict[str, Any]] = Field(description="The actions, newest first.")


class ActionResponse(AnswerResponse):
    action: dict[str, Any] = Field(
        description="The action: id, status, kind, payload, events (proposed, approved...)."
    )


class OutboxResponse(AnswerResponse):
    outbox: list[dict[str, Any]] = Field(description="Delivered effects, newest first.")


def _answer(key: str, make: Callable[[], object]) -> dict[str, Any] | JSONResponse:
    """``{"success": true, key: make()}``, with the workflow and action errors answered as
    refusals."""
    try:
        return {"success": True, key: make()}
    except (UnknownWorkflow, UnknownAction) as exc:
        return error_response(404, str(exc.args[0]))
    except StageIncomplete as exc:
        return error_response(
            409, str(exc), extra={"error": {"message": str(exc), "data": {"unmet": exc.unmet}}}
        )
    except (TransitionRefused, ActionRefused) as exc:
        return error_response(409, str(exc))
    except (InvalidValue, ActionError) as exc:
        return error_response(422, str(exc))


def _acting(deployment: Deployment, user: User, identity: str | None = None) -> ActingFor:
    """The caller, or (administrator only) the channel identity they named."""
    if deployment.workflows is None or deployment.actions is None:
        raise RuntimeError("this deployment has no workflow services")
    owner = user.email if identity is None else deployment.channels.identity_owner(user, identity)
    return ActingFor(deployment.workflows, deployment.actions, user.account, owner)


@router.post(
    "/listWorkflows", response_model=WorkflowsResponse, summary="Harness extra: my workflows"
)
def list_workflows(body: ForIdentity, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """The caller's progress in every workflow of the account (unstarted ones at stage one)."""
    on = _acting(deployment, user, body.identity)
    return {"success": True, "workflows": on.workflows.list_for(on.account, on.owner)}


@router.post(
    "/getWorkflowProgress",
    response_model=ProgressResponse,
    summary="Harness extra: my progress in a workflow",
)
def get_workflow_progress(
    body: WorkflowRequest, user: CurrentUser, deployment: DeploymentDep
) -> Any:
    """Stage, collected values, the current stage's goal results and the history."""
    on = _acting(deployment, user, body.identity)
    return _answer("progress", lambda: on.workflows.view(on.account, on.owner, body.workflow))


@router.post(
    "/submitWorkflowValues",
    response_model=ProgressResponse,
    summary="Harness extra: give values to a workflow",
)
def submit_workflow_values(
    body: SubmitValuesRequest, user: CurrentUser, deployment: DeploymentDep
) -> Any:
    """Collect values of the current (or an earlier) stage; 422 for a value of a stage not
    reached yet, of no stage, or of the wrong type."""
    on = _acting(deployment, user)
    return _answer(
        "progress", lambda: on.workflows.submit(on.account, on.owner, body.workflow, body.values)
    )


@router.post(
    "/advanceWorkflow",
    response_model=ProgressResponse,
    summary="Harness extra: move past the current stage",
)
def advance_workflow(body: AdvanceRequest, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """Move to the next stage; 409 with the open goals while required ones are not met."""
    on = _acting(deployment, user)
    return _answer(
        "progress",
        lambda: on.workflows.advance(
            on.account, on.owner, body.workflow, to=body.to_stage, by=user.email
        ),
    )


@router.post("/listActions", response_model=ActionsResponse, summary="Harness extra: my actions")
def list_actions(body: ListActionsRequest, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """The caller's actions, newest first (optionally in one status)."""
    on = _acting(deployment, user, body.identity)
    statuses = None if body.status is None else [body.status]
    return {"success": True, "actions": on.ledger.list(on.account, on.owner, statuses)}


@router.post(
    "/createAction", response_model=ActionResponse, summary="Harness extra: propose an action"
)
def create_action(body: CreateActionRequest, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """Propose an action as an agent would (the same ``actionId`` again finds the first)."""
    on = _acting(deployment, user)

    def make() -> dict[str, Any]:
        view, _created = on.ledger.propose(
            on.account,
            on.owner,
            kind=body.kind,
            payload=body.payload,
            requires_approval=body.requires_approval,
            action_id=body.action_id,
        )
        if not body.requires_approval:
            view = on.ledger.execute(on.account, view["actionId"]) or view
        return view

    return _answer("action", make)


@router.post(
    "/approveAction",
    response_model=ActionResponse,
    summary="Harness extra: approve an action (it runs once)",
)
def approve_action(body: ActionRequest, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """Approve and run it; approving again changes nothing. 409 for a rejected action."""
    on = _acting(deployment, user, body.identity)
    return _answer(
        "action", lambda: on.ledger.approve_and_execute(on.account, on.owner, body.action_id)
    )


@router.post(
    "/rejectAction", response_model=ActionResponse, summary="Harness extra: reject an action"
)
def reject_action(body: ActionRequest, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """Reject an action awaiting approval; 409 once it is approved."""
    on = _acting(deployment, user, body.identity)
    return _answer("action", lambda: on.ledger.reject(on.account, on.owner, body.action_id))


@router.post("/getOutbox", response_model=OutboxResponse, summary="Harness extra: my outbox")
def get_outbox(body: ForIdentity, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """What the caller's executed actions delivered (the mock's emails, IM messages and
    connector writes), newest first."""
    on = _acting(deployment, user, body.identity)
    return {"success": True, "outbox": on.ledger.outbox(on.account, on.owner)}
