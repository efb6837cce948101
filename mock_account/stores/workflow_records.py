"""The workflow records contract: typed records and the abstract store every backend implements.

Three kinds of records, all with opaque (encrypted) blobs:

- **progress**, one per ``(account, identity, workflow)``: compare-and-swap on ``version``
  (0 creates), so two turns of the same user never overwrite each other's progress;
- **actions**, one per ``(account, action_id)``: created insert-if-absent (a retried turn that
  proposes the same action finds the first one) and moved from status to status by
  compare-and-swap on the status (``approved`` → ``executing`` → ``done``);
- **outbox**, one per ``(account, action_id)``: what an executed action delivered, insert-if-absent,
  so delivering the same action twice leaves one record (the idempotent receiver).

The backends live next to the conversation store they are opened from (same SQLite file, same
PostgreSQL schema, same Redis prefix): ``mock_account.stores.registry.workflow_store(store)``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from mock_account.stores.errors import VersionConflict


@dataclass(frozen=True)
class ProgressRecord:
    account: str
    identity: str
    workflow: str
    version: int
    blob: bytes
    updated: datetime


@dataclass(frozen=True)
class ActionRecord:
    account: str
    action_id: str
    identity: str
    status: str
    blob: bytes
    created: datetime
    updated: datetime


@dataclass(frozen=True)
class OutboxRecord:
    account: str
    action_id: str
    identity: str
    blob: bytes
    delivered: datetime


@dataclass(frozen=True)
class ProgressSave:
    """One ``save_progress``, its names checked: what a backend's ``commit_progress`` writes."""

    account: str
    identity: str
    workflow: str
    expected_version: int
    blob: bytes
    now: datetime

    def conflict(self) -> VersionConflict:
        """The error of a save that found another version than the one it expected."""
        return VersionConflict(
            f"workflow {self.workflow!r} progress is no longer at version {self.expected_version}"
        )


@dataclass(frozen=True)
class ActionMove:
    """One ``move_action`` with at least one status to move from: what a backend's
    ``commit_move`` applies."""

    account: str
    action_id: str
    from_statuses: tuple[str, ...]
    to_status: str
    now: datetime
    blob: bytes | None


def check_names(**values: str) -> None:
    """``ValueError`` unless every value is a non-empty string (every backend checks the same)."""
    for name, value in values.items():
        if not isinstance(value, str) or not value:
            raise ValueError(f"{name} must be a non-empty string")


class WorkflowStore(ABC):
    """The records of workflows and actions of every account, on one backend."""

    @abstractmethod
    def load_progress(self, account: str, identity: str, workflow: str) -> ProgressRecord | None:
        """The identity's progress in one workflow, or ``None`` if it never started it."""

    def save_progress(
        self,
        account: str,
        identity: str,
        workflow: str,
        *,
        expected_version: int,
        blob: bytes,
        now: datetime,
    ) -> ProgressRecord:
        """Compare-and-swap: 0 creates (``VersionConflict`` if it exists), else the stored
        version must equal ``expected_version``; the new version is one more."""
        check_names(account=account, identity=identity, workflow=workflow)
        return self.commit_progress(
            ProgressSave(account, identity, workflow, expected_version, bytes(blob), now)
        )

    @abstractmethod
    def commit_progress(self, save: ProgressSave) -> ProgressRecord:
        """``save_progress`` of one checked save: what each backend implements."""

    @abstractmethod
    def list_progress(self, account: str, identity: str) -> list[ProgressRecord]:
        """Every workflow the identity has progress in, by workflow name."""

    @abstractmethod
    def add_action(
        self, account: str, action_id: str, identity: str, status: str, blob: bytes, now: datetime
    ) -> tuple[ActionRecord, bool]:
        """Insert-if-absent: ``(record, True)`` when new, ``(the stored one, False)`` if not."""

    @abstractmethod
    def get_action(self, account: str, action_id: str) -> ActionRecord | None:
        """One action, or ``None``."""

    def move_action(
        self,
        account: str,
        action_id: str,
        *,
        from_statuses: Iterable[str],
        to_status: str,
        now: datetime,
        blob: bytes | None = None,
    ) -> ActionRecord | None:
        """Set the status (and the blob when given) only if the current status is one of
        ``from_statuses``, atomically; ``None`` when it is missing or in another status."""
        allowed = tuple(from_statuses)
        if not allowed:
            return None
        fresh = None if blob is None else bytes(blob)
        return self.commit_move(ActionMove(account, action_id, allowed, to_status, now, fresh))

    @abstractmethod
    def commit_move(self, move: ActionMove) -> ActionRecord | None:
        """``move_action`` of one move: what each backend implements."""

    @abstractmethod
    def list_actions(
        self, account: str, identity: str | None = None, statuses: Iterable[str] | None = None
    ) -> list[ActionRecord]:
        """Actions of the account (of one identity, in some statuses), newest first."""

    @abstractmethod
    def deliver(
        self, account: str, action_id: str, identity: str, blob: bytes, now: datetime
    ) -> bool:
        """Put an action's effect in the outbox once: ``True`` if new, ``False`` if it was
        already there (nothing is changed then)."""

    @abstractmethod
    def list_outbox(self, account: str, identity: str | None = None) -> list[OutboxRecord]:
        """Delivered effects, newest first."""

    # --- every record, for key rotation -----------------------------------------------

    @abstractmethod
    def all_progress(self) -> list[ProgressRecord]:
        """Every progress record of every account."""

    @abstractmethod
    def all_actions(self) -> list[ActionRecord]:
        """Every action of every account."""

    @abstractmethod
    def all_outbox(self) -> list[OutboxRecord]:
        """Every outbox record of every account."""

    @abstractmethod
    def replace_outbox_blob(self, account: str, action_id: str, blob: bytes) -> bool:
        """Swap a delivered record's blob (re-encryption); ``False`` if it is missing."""

    # --- retention ----------------------------------------------------------------------

    @abstractmethod
    def forget_identity(self, account: str, identity: str) -> int:
        """Remove every record of one identity of the account, at once: its progress, its
        actions in every status and its outbox records; the number of records removed.

        An action approved but not yet run goes too: the identity it would act for is gone,
        so it is never run. Records of other identities and other accounts are left alone.
        """
