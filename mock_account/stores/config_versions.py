"""The configuration versions contract: typed records and the abstract store every backend
implements, next to the conversations of the same store.

Every agent with a history has a **revision**, raised by one at each save; the versions a save
writes carry that revision as their number, so "version 7" of a section is what it held after
the agent's 7th save (a section a save did not change keeps its older number). The scope (one
agent account's configuration) also has a revision, raised by every save of any of its agents:
a server process compares it with the one it loaded to know, with one small read, whether
another process changed a configuration.

``commit`` is a compare-and-swap on the agent's revision, in one transaction with the new
versions, the two revisions and the pruning of versions beyond the most recent ``keep`` of each
section: a crash leaves the old configuration or the new one, never a mix, and of two concurrent
saves from the same revision one wins and the other gets ``VersionConflict``.

Blobs are opaque here (the history encrypts them before they arrive).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from mock_account.stores.codec import utc
from mock_account.stores.errors import VersionConflict

#: The sections an agent's configuration is versioned in (``mock_account.config_history.sections``
#: splits an agent into them). Here because a backend that cannot list a scope's keys cheaply
#: (Redis) reads the versions section by section.
SECTIONS: tuple[str, ...] = ("description", "commands", "asks", "workflow")

ACCOUNT_ROW = "*"  # the scope's own revision; no agent name can be "*"


@dataclass(frozen=True)
class NewVersion:
    section: str
    revision: int
    origin: str
    blob: bytes


@dataclass(frozen=True)
class StoredVersion:
    agent: str
    section: str
    revision: int
    created: datetime
    origin: str
    blob: bytes


@dataclass(frozen=True)
class ConfigCommit:
    """One checked ``commit``: what a backend's ``commit_versions`` writes (``created`` in UTC)."""

    scope: str
    agent: str
    base_revision: int
    versions: tuple[NewVersion, ...]
    created: datetime
    keep: int

    def conflict(self) -> VersionConflict:
        """The error of a commit that found the agent at another revision."""
        return conflict(self.agent, self.base_revision)


def conflict(agent: str, base: int) -> VersionConflict:
    """The conflict of a save that expected the agent at revision ``base``."""
    return VersionConflict(
        f"the configuration of agent {agent!r} is no longer at revision {base}: "
        "someone saved it meanwhile"
    )


class ConfigVersionStore(ABC):
    """The contract every backend implements (see the module's documentation)."""

    @abstractmethod
    def scope_revision(self, scope: str) -> int:
        """How many saves the scope has seen (0: none)."""

    def change_stamp(self, scope: str) -> object | None:
        """Something cheaper to read than ``scope_revision`` that changes whenever a save
        commits (compared for equality only), or None when the store has none."""
        return None

    @abstractmethod
    def agent_revisions(self, scope: str) -> dict[str, int]:
        """The revision of every agent of the scope that has a history."""

    def commit(
        self,
        scope: str,
        agent: str,
        base_revision: int,
        versions: Sequence[NewVersion],
        *,
        now: datetime,
        keep: int,
    ) -> int:
        """Write ``versions`` if the agent is still at ``base_revision``; its new revision."""
        check_commit(keep, versions)
        created = utc(now, "now")
        return self.commit_versions(
            ConfigCommit(scope, agent, base_revision, tuple(versions), created, keep)
        )

    @abstractmethod
    def commit_versions(self, commit: ConfigCommit) -> int:
        """``commit`` of one checked commit: what each backend implements."""

    @abstractmethod
    def history(self, scope: str, agent: str, section: str) -> list[StoredVersion]:
        """The kept versions of one section, newest first."""

    @abstractmethod
    def latest(self, scope: str) -> list[StoredVersion]:
        """The newest version of every section of every agent with a history."""

    @abstractmethod
    def all_versions(self, scope: str) -> list[StoredVersion]:
        """Every kept version of the scope (key rotation walks them)."""

    @abstractmethod
    def replace_blob(
        self, scope: str, agent: str, section: str, revision: int, old: bytes, new: bytes
    ) -> bool:
        """Swap a version's blob for ``new`` if it still is ``old`` (re-encryption)."""


def check_commit(keep: int, versions: Sequence[NewVersion]) -> None:
    """``ValueError`` unless ``commit`` can write ``versions`` keeping ``keep`` of each section."""
    if keep < 1:
        raise ValueError(f"keep must be at least 1, got {keep}")
    if not versions:
        raise ValueError("a save writes at least one version")
