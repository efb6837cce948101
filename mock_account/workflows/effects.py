"""The ``workflow`` and ``action`` commands of agents, wired to the account's services.

The engine calls these with the run's owner: a user's email (``execAgent``, the dashboard, the
``web`` channel) or a channel identity, ``<channel>:<identity id>`` (a sender on ``email``,
``im``...), so each identity has its own progress and actions. The account (``acme``,
``globex``) is the user's, or the one the channel run names (``account_of(owner, account)``).
A workflow step never fails the run for what the user gave: a bad value or a stage that is not
complete comes back in the view (``error``, ``unmet``) for the agent to say so.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from agents_catalog.agent_format import AgentDefinition
from mock_account.workflows.actions import ActionLedger
from mock_account.workflows.progress import (
    InvalidValue,
    StageIncomplete,
    TransitionRefused,
    WorkflowService,
)


class AgentEffects:
    """Implements the engine's ``Effects`` over a workflow service and an action ledger."""

    def __init__(
        self,
        workflows: WorkflowService,
        ledger: ActionLedger,
        account_of: Callable[[str, str | None], str],
    ) -> None:
        self.workflows = workflows
        self.ledger = ledger
        self.account_of = account_of

    def workflow_step(
        self,
        *,
        user: str,
        account: str | None = None,
        agent: AgentDefinition,
        workflow: str | None,
        collect: dict[str, Any],
        advance: bool,
    ) -> dict[str, Any]:
        name = workflow or (agent.workflow.name if agent.workflow is not None else None)
        if name is None:
            raise ValueError(f"agent '{agent.name}' declares no workflow and names none")
        account = self.account_of(user, account)
        error: str | None = None
        advanced = False
        given = {k: v for k, v in collect.items() if v is not None and v != ""}
        if given:
            try:
                self.workflows.submit(account, user, name, given)
            except (InvalidValue, TransitionRefused) as exc:
                error = str(exc)
        if advance and error is None:
            try:
                self.workflows.advance(account, user, name, by=agent.name)
                advanced = True
            except StageIncomplete:
                pass  # the open goals are in the view
            except TransitionRefused as exc:
                error = str(exc)
        view = self.workflows.view(account, user, name)
        unmet = [g for g, r in view["goals"].items() if r["required"] and not r["met"]]
        return {
            **view,
            "advanced": advanced,
            "unmet": unmet,
            # Read out in sentences ("Still open: {unmetText}."): never an empty list.
            "unmetText": ", ".join(unmet) or "nothing",
            "error": error or "",
        }

    def action(
        self,
        *,
        user: str,
        account: str | None = None,
        agent: AgentDefinition,
        convid: str,
        seed: str,
        kind: str,
        payload: dict[str, Any],
        approval: bool,
    ) -> dict[str, Any]:
        account = self.account_of(user, account)
        digest = hashlib.sha256(f"{account}|{user}|{seed}".encode()).hexdigest()[:32]
        view, _created = self.ledger.propose(
            account,
            user,
            kind=kind,
            payload={k: v if isinstance(v, str) else json.dumps(v) for k, v in payload.items()},
            requires_approval=approval,
            action_id=f"act_{digest}",
            agent=agent.name,
            convid=convid,
        )
        if not approval:
            view = self.ledger.execute(account, view["actionId"]) or view
        return {"actionId": view["actionId"], "status": view["status"], "kind": kind}
