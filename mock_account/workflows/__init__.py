"""Per-identity workflow progress and approved actions that run at most once.

- ``WorkflowDefinition`` / ``parse_workflow``: stages, goals (values to collect, checks to
  pass) and transitions, as an agent declares them under ``workflow``.
- ``WorkflowService``: each identity's stage, collected values, goal results and history,
  encrypted and saved with compare-and-swap; a stage with open required goals cannot be left.
- ``ActionLedger``: actions with an effect outside (email, IM, connector), approved and then
  executed at most once into the outbox, also across retries and crashes.
- ``ActingFor``: the services, and whose progress and actions a call is about.
- ``open_workflow_store``: their records next to a conversation store (SQLite, PostgreSQL,
  Redis, memory): ``mock_account.stores.registry.workflow_store``; the contract is
  ``mock_account.stores.workflow_records``, the backends are in ``mock_account.stores``.
"""

from agents_catalog.workflow_format import (
    InvalidValue,
    WorkflowDefinition,
    WorkflowDefinitionError,
    definition_problems,
    parse_workflow,
)
from mock_account.stores.registry import workflow_store as open_workflow_store
from mock_account.stores.workflow_records import (
    ActionRecord,
    OutboxRecord,
    ProgressRecord,
    WorkflowStore,
)
from mock_account.workflows.acting import ActingFor
from mock_account.workflows.actions import (
    ACTION_KINDS,
    STATUSES,
    ActionError,
    ActionLedger,
    ActionRefused,
    UnknownAction,
)
from mock_account.workflows.progress import (
    StageIncomplete,
    TransitionRefused,
    UnknownWorkflow,
    WorkflowService,
)

__all__ = [
    "ACTION_KINDS",
    "STATUSES",
    "ActingFor",
    "ActionError",
    "ActionLedger",
    "ActionRecord",
    "ActionRefused",
    "InvalidValue",
    "OutboxRecord",
    "ProgressRecord",
    "StageIncomplete",
    "TransitionRefused",
    "UnknownAction",
    "UnknownWorkflow",
    "WorkflowDefinition",
    "WorkflowDefinitionError",
    "WorkflowService",
    "WorkflowStore",
    "definition_problems",
    "open_workflow_store",
    "parse_workflow",
]
