"""Whom a workflow call acts for: the caller, or the channel identity the administrator named.

The HTTP API and the demo's embedded client both resolve that once, then call the services
with ``whose`` (account and owner) the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from mock_account.workflows.actions import ActionLedger
from mock_account.workflows.progress import WorkflowService


@dataclass(frozen=True)
class ActingFor:
    """The workflow services, and whose progress and actions a call is about."""

    workflows: WorkflowService
    ledger: ActionLedger
    account: str
    owner: str

    @property
    def whose(self) -> tuple[str, str]:
        """``(account, owner)``, the first two arguments of every service call."""
        return self.account, self.owner
