"""What agents do beyond the conversation: the ``workflow`` and ``action`` commands, run
through the engine's ``Effects``."""

from __future__ import annotations

from typing import Any, Protocol

from agents_catalog.agent_format import ActionArgs, AgentDefinition, WorkflowStepArgs
from mock_account.engine.errors import AgentError
from mock_account.engine.setting import RunSetting
from mock_account.engine.variables import Variables


class Effects(Protocol):
    """What agents do beyond the conversation: per-identity workflow progress and actions with
    an effect outside (``mock_account.workflows.effects`` implements it). Both are kept apart
    from the conversation state, so a run that fails later does not undo them.

    ``user`` is whose they are: the run's ``sys.user``, the conversation's owner (a user's
    email through ``execAgent`` and on ``web``, ``<channel>:<identity id>`` for a sender on
    another channel). ``account`` is the run's account when the server gave it (channels),
    else ``None`` and the effects find it from the user."""

    def workflow_step(
        self,
        *,
        user: str,
        account: str | None,
        agent: AgentDefinition,
        workflow: str | None,
        collect: dict[str, Any],
        advance: bool,
    ) -> dict[str, Any]: ...

    def action(
        self,
        *,
        user: str,
        account: str | None,
        agent: AgentDefinition,
        convid: str,
        seed: str,
        kind: str,
        payload: dict[str, Any],
        approval: bool,
    ) -> dict[str, Any]: ...


class EffectCommands:
    """Runs one run's ``workflow`` and ``action`` commands."""

    def __init__(self, setting: RunSetting, variables: Variables) -> None:
        self.setting = setting
        self.variables = variables
        self.actions = 0  # action commands run so far: part of each action's stable id

    def run(self, frame: dict[str, Any], args: WorkflowStepArgs | ActionArgs) -> dict[str, Any]:
        setting = self.setting
        effects = setting.engine.effects
        if effects is None:
            raise AgentError("workflows and actions are not available in this deployment")
        try:
            if isinstance(args, WorkflowStepArgs):
                return effects.workflow_step(
                    user=setting.sys["user"],
                    account=setting.account,
                    agent=setting.agent,
                    workflow=args.workflow,
                    collect=self.variables.render(frame, args.collect),
                    advance=args.advance,
                )
            self.actions += 1
            # The same turn retried (same conversation, same saved runs, same command) gets
            # the same id, so its action is found rather than proposed twice.
            seed = "|".join(
                str(part)
                for part in (
                    setting.sys["convid"],
                    len(setting.state.get("runs") or []),
                    setting.agent.name,
                    frame["function"],
                    frame["pc"],
                    self.actions,
                )
            )
            return effects.action(
                user=setting.sys["user"],
                account=setting.account,
                agent=setting.agent,
                convid=setting.sys["convid"],
                seed=seed,
                kind=args.kind,
                payload=self.variables.render(frame, args.payload),
                approval=args.approval,
            )
        except AgentError:
            raise
        except Exception as exc:  # a store that is down, a payload the ledger refuses
            raise AgentError(str(exc)) from exc
