"""The history of the agents' configurations: save, list, diff, restore, clone, apply live.

``ConfigHistory`` sits between the agent files (the configuration at revision 0) and the store.
A save reads the agent's revision and then its current sections from the store, replaces one
section, validates the whole agent against the current agent format (and the naming scheme,
refusing or warning per ``conformance``), splits it again and commits a version of every section
whose content changed (none: nothing is written). The first change of a section also writes the
file's content as its version 0, so it can be restored. Versions are encrypted like conversation
state (AES-256-GCM, a key derived per agent section and revision, bound to the scope).

Live: ``refresh()`` compares the scope's revision in the store with the one this process
applied; when another process (or this one) saved, it rebuilds the agents and hands them to
``apply`` (the account's engine, search index and list). A server calls it before every search
and run, so an edit acknowledged by any process is what the next search and run of every process
use. The definition an edit replaces is kept by the engine, so a conversation paused on an ask
resumes on the version that asked.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from agents_catalog.agent_format import NAME_PATTERN, AgentDefinition
from mock_account.config_history.sections import (
    SECTIONS,
    ConfigFormatError,
    Sections,
    canonical,
    check_section_name,
    diff_text,
    join_sections,
    split_agent,
    uses_ask_refs,
    versioned,
)
from mock_account.crypto import StateCipher
from mock_account.crypto.reencryption import ReencryptCounts, report_lines
from mock_account.stores.config_versions import ConfigVersionStore, NewVersion, StoredVersion
from mock_account.stores.errors import VersionConflict

DEFAULT_KEEP = 20
DEFAULT_SCOPE = "agents"
CLONE_BASE_VERSION = "1.0.0"
SAVE_ATTEMPTS = 20
Conformance = Literal["refuse", "warn", "off"]
CONFORMANCE_MODES: tuple[str, ...] = ("refuse", "warn", "off")
Checker = Callable[[AgentDefinition], list[dict[str, Any]]]


def sealing_context(scope: str, agent: str, section: str, revision: int) -> dict[str, Any]:
    """What a version's blob is bound to: the scope is the owner, the version's place the
    "conversation", so a blob copied to another agent, section or revision does not open."""
    return {
        "convid": f"agent-config|{agent}|{section}|{revision}",
        "owner": f"scope:{scope}",
        "purpose": "state",
    }


@dataclass
class ReencryptedVersions(ReencryptCounts):
    reencrypted: int = 0
    changed: int = 0  # replaced meanwhile (pruned or re-encrypted by another run)

    def lines(self) -> list[str]:
        counts = {
            "agent configuration versions re-encrypted": self.reencrypted,
            "agent configuration versions already on the current key": self.current,
        }
        return report_lines(
            counts, self.unreadable, unreadable_label="unreadable agent configuration version"
        )


def reencrypt_versions(
    store: ConfigVersionStore, cipher: StateCipher, scope: str = DEFAULT_SCOPE
) -> ReencryptedVersions:
    """Re-encrypt every kept version under the current key (resumable: done ones are skipped;
    a version is replaced only if its blob is still the one that was read)."""
    report = ReencryptedVersions()
    for stored in store.all_versions(scope):
        name = f"{stored.agent}/{stored.section}@{stored.revision}"
        context = sealing_context(scope, stored.agent, stored.section, stored.revision)
        fresh = report.resealed(cipher, stored.blob, name, **context)
        if fresh is None:
            continue
        if store.replace_blob(
            scope, stored.agent, stored.section, stored.revision, stored.blob, fresh
        ):
            report.reencrypted += 1
        else:
            report.changed += 1
    return report


class UnknownAgent(LookupError):
    """No agent, or no such version of a section."""


class ConfigRefused(ValueError):
    """A save the naming scheme refuses; ``findings`` are the checker's."""

    def __init__(self, message: str, findings: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.findings = findings


@dataclass(frozen=True)
class Version:
    section: str
    revision: int
    created: datetime | None
    origin: str  # file, edit, template, restore, clone
    author: str | None
    content: Any
    current: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "section": self.section,
            "revision": self.revision,
            "created": self.created.isoformat() if self.created else None,
            "origin": self.origin,
            "author": self.author,
            "current": self.current,
            "content": self.content,
        }


@dataclass(frozen=True)
class SaveResult:
    agent: str
    revision: int
    version: str
    changed: tuple[str, ...]
    warnings: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "agentName": self.agent,
            "revision": self.revision,
            "version": self.version,
            "changedSections": list(self.changed),
            "warnings": self.warnings,
        }


@dataclass(frozen=True)
class _Snapshot:
    revision: int
    sections: Sections
    stored: dict[str, StoredVersion | None]
    base_version: str


#: The longest a process serves its configuration without reading the store's revision,
#: when the store has a change stamp (``ConfigVersionStore.change_stamp``).
RECHECK_S = 1.0


class ConfigHistory:
    """Versioned agent configurations of one scope, applied live to a running account."""

    def __init__(
        self,
        store: ConfigVersionStore,
        cipher: StateCipher,
        file_agents: list[AgentDefinition],
        *,
        clock: Callable[[], datetime],
        apply: Callable[[dict[str, AgentDefinition]], None] | None = None,
        scope: str = DEFAULT_SCOPE,
        keep: int = DEFAULT_KEEP,
        conformance: Conformance = "refuse",
        checker: Checker | None = None,
    ) -> None:
        if keep < 1:
            raise ValueError(f"the versions kept per section must be at least 1, got {keep}")
        if conformance not in CONFORMANCE_MODES:
            raise ValueError(
                f"conformance must be one of {', '.join(CONFORMANCE_MODES)}, got {conformance!r}"
            )
        self.store = store
        self.cipher = cipher
        self.files = {a.name: a for a in file_agents}
        self.clock = clock
        self.apply = apply
        self.scope = scope
        self.keep = keep
        self.conformance = conformance
        self.checker = checker
        self._applied = -1
        # The store's change stamp when the revision was last found applied, and when the
        # revision was last read (``refresh``).
        self._stamp: object | None = None
        self._read_at = float("-inf")
        self._agents: dict[str, AgentDefinition] = dict(self.files)
        self._refreshing = threading.Lock()
        self._saving = threading.Lock()

    # --- encryption -----------------------------------------------------------------

    def _context(self, agent: str, section: str, revision: int) -> dict[str, Any]:
        return sealing_context(self.scope, agent, section, revision)

    def _seal(self, agent: str, section: str, revision: int, content: Any, author: str) -> bytes:
        plain = json.dumps({"content": content, "author": author}, ensure_ascii=False)
        return self.cipher.encrypt(plain.encode("utf-8"), **self._context(agent, section, revision))

    def _open(self, stored: StoredVersion) -> dict[str, Any]:
        plain = self.cipher.decrypt(
            stored.blob, **self._context(stored.agent, stored.section, stored.revision)
        )
        return json.loads(plain)

    # --- reading ---------------------------------------------------------------------

    def agent_names(self) -> list[str]:
        return sorted(set(self.files) | set(self.store.agent_revisions(self.scope)))

    def _snapshot(self, agent: str) -> _Snapshot:
        # The revision first: sections read after it are at least as new, so a save from a
        # stale snapshot fails its compare-and-swap rather than overwriting a newer version.
        revision = self.store.agent_revisions(self.scope).get(agent, 0)
        file = self.files.get(agent)
        if file is None and revision == 0:
            raise UnknownAgent(f"there is no agent named {agent!r}")
        sections = split_agent(file) if file is not None else {}
        stored: dict[str, StoredVersion | None] = {}
        for section in SECTIONS:
            kept = self.store.history(self.scope, agent, section)
            stored[section] = kept[0] if kept else None
            if kept:
                sections[section] = self._open(kept[0])["content"]
        base = file.version if file is not None else CLONE_BASE_VERSION
        return _Snapshot(revision, sections, stored, base)

    def current(self, agent: str) -> AgentDefinition:
        """The agent as the store says now."""
        snap = self._snapshot(agent)
        return join_sections(agent, versioned(snap.base_version, snap.revision), snap.sections)

    def versions(self, agent: str, section: str) -> list[Version]:
        """The kept versions of a section, newest first (the file's, when never changed)."""
        check_section_name(section)
        snap = self._snapshot(agent)
        kept = self.store.history(self.scope, agent, section)
        if not kept:
            return [Version(section, 0, None, "file", None, snap.sections[section], True)]
        found = []
        for i, stored in enumerate(kept):
            opened = self._open(stored)
            found.append(
                Version(
                    section,
                    stored.revision,
                    stored.created,
                    stored.origin,
                    opened.get("author"),
                    opened["content"],
                    i == 0,
                )
            )
        return found

    def version(self, agent: str, section: str, revision: int) -> Version:
        for found in self.versions(agent, section):
            if found.revision == revision:
                return found
        raise UnknownAgent(
            f"agent {agent!r} keeps no version {revision} of its {section} section "
            f"(the most recent {self.keep} of each section are kept)"
        )

    def diff(self, agent: str, section: str, revision: int, against: int | None = None) -> str:
        """A unified diff from ``revision`` to ``against`` (the current version by default)."""
        old = self.version(agent, section, revision)
        new = (
            self.versions(agent, section)[0]
            if against is None
            else self.version(agent, section, against)
        )
        return diff_text(
            old.content,
            new.content,
            before_label=f"{agent}/{section}@{old.revision}",
            after_label=f"{agent}/{section}@{new.revision}",
        )

    def definition_at(self, agent: str, version: str) -> AgentDefinition | None:
        """The agent as it was at ``version`` (``1.0.3``: revision 3), rebuilt from the kept
        versions; None when that version is unknown or no longer kept whole."""
        file = self.files.get(agent)
        base = file.version if file is not None else CLONE_BASE_VERSION
        try:
            revision = int(version.rsplit(".", 1)[-1]) - int(versioned(base, 0).rsplit(".", 1)[-1])
        except ValueError:
            return None
        if revision < 0 or versioned(base, revision) != version:
            return None
        if revision > self.store.agent_revisions(self.scope).get(agent, 0):
            return None
        sections = split_agent(file) if file is not None else {}
        for section in SECTIONS:
            kept = self.store.history(self.scope, agent, section)
            if not kept:
                if section not in sections:
                    return None
                continue  # never changed: the file's content
            at = [v for v in kept if v.revision <= revision]
            if not at:
                return None  # pruned: the version that was current then is gone
            sections[section] = self._open(at[0])["content"]
        try:
            return join_sections(agent, version, sections)
        except ConfigFormatError:
            return None

    # --- writing ---------------------------------------------------------------------

    def _check(
        self, agent: AgentDefinition, before: AgentDefinition | None = None
    ) -> list[dict[str, Any]]:
        """The checker's findings; with ``refuse``, ``ConfigRefused`` when the save brings
        errors the configuration before it did not have (an agent that already breaks a rule
        can still be edited, and fixed)."""
        if self.conformance == "off" or self.checker is None:
            return []
        findings = self.checker(agent)
        errors = [f for f in findings if f.get("severity") == "error"]
        if errors and before is not None:
            known = {(f["rule"], f["message"]) for f in self.checker(before)}
            errors = [f for f in errors if (f["rule"], f["message"]) not in known]
        if errors and self.conformance == "refuse":
            raise ConfigRefused(
                f"this configuration of {agent.name} breaks the naming scheme: "
                + "; ".join(f"{f['rule']} {f['message']}" for f in errors[:5]),
                findings,
            )
        return findings

    def save(
        self,
        agent: str,
        section: str,
        content: Any,
        *,
        author: str,
        origin: str = "edit",
        base_revision: int | None = None,
    ) -> SaveResult:
        """Save one section. ``base_revision``: refuse (``VersionConflict``) unless the agent
        is still at that revision; without it, a concurrent save is merged by trying again
        on top of it (each save replaces its own section)."""
        check_section_name(section)
        # Saves of one process queue here (a lost compare-and-swap only costs a retry when
        # another process saved the agent meanwhile).
        with self._saving:
            return self._save(agent, section, content, author, origin, base_revision)

    def _save(
        self,
        agent: str,
        section: str,
        content: Any,
        author: str,
        origin: str,
        base_revision: int | None,
    ) -> SaveResult:
        for attempt in range(SAVE_ATTEMPTS):
            if attempt:
                time.sleep(random.uniform(0.0, 0.005 * attempt))
            snap = self._snapshot(agent)
            if base_revision is not None and snap.revision != base_revision:
                raise VersionConflict(
                    f"agent {agent!r} is at revision {snap.revision}, not {base_revision}: "
                    "reload it and save again"
                )
            wanted = dict(snap.sections)
            wanted[section] = content
            if section == "commands" and not uses_ask_refs(content):
                # Commands as written in an agent file, asks inline: they bring their asks.
                wanted["asks"] = []
            revision = snap.revision + 1
            definition = join_sections(agent, versioned(snap.base_version, revision), wanted)
            resplit = split_agent(definition)
            changed = [s for s in SECTIONS if canonical(resplit[s]) != canonical(snap.sections[s])]
            if not changed:
                return SaveResult(
                    agent, snap.revision, versioned(snap.base_version, snap.revision), ()
                )
            try:
                before: AgentDefinition | None = join_sections(
                    agent, versioned(snap.base_version, snap.revision), snap.sections
                )
            except ConfigFormatError:  # saved under a format that no longer validates
                before = None
            warnings = self._check(definition, before)
            new: list[NewVersion] = []
            for s in changed:
                if snap.stored[s] is None:
                    # The file's content becomes version 0: the previous version is kept.
                    new.append(
                        NewVersion(s, 0, "file", self._seal(agent, s, 0, snap.sections[s], ""))
                    )
                new.append(
                    NewVersion(
                        s, revision, origin, self._seal(agent, s, revision, resplit[s], author)
                    )
                )
            try:
                done = self.store.commit(
                    self.scope, agent, snap.revision, new, now=self.clock(), keep=self.keep
                )
            except VersionConflict:
                if base_revision is not None:
                    raise
                continue
            self.refresh()
            return SaveResult(
                agent, done, versioned(snap.base_version, done), tuple(changed), warnings
            )
        raise VersionConflict(
            f"agent {agent!r} was saved by others {SAVE_ATTEMPTS} times while this save was "
            "being made; try again"
        )

    def restore(self, agent: str, section: str, revision: int, *, author: str) -> SaveResult:
        """Make a kept version current again, validated against the current agent format.
        The current version stays in the history, so restoring it undoes the restore."""
        old = self.version(agent, section, revision)
        return self.save(agent, section, old.content, author=author, origin="restore")

    def clone(self, agent: str, new_name: str, *, author: str) -> SaveResult:
        """A new agent with ``agent``'s current configuration and no history of its own."""
        if (
            not isinstance(new_name, str)
            or not re.match(NAME_PATTERN, new_name)
            or not (2 <= len(new_name) <= 32)
        ):
            raise ConfigFormatError(
                f"agent name {new_name!r} is invalid: 2 to 32 letters, digits or underscores, "
                "starting with a letter and not ending with an underscore"
            )
        if new_name in self.files or new_name in self.store.agent_revisions(self.scope):
            raise VersionConflict(f"there is already an agent named {new_name!r}")
        snap = self._snapshot(agent)
        definition = join_sections(new_name, versioned(CLONE_BASE_VERSION, 1), snap.sections)
        warnings = self._check(definition)
        sections = split_agent(definition)
        new = [
            NewVersion(s, 1, "clone", self._seal(new_name, s, 1, sections[s], author))
            for s in SECTIONS
        ]
        try:
            done = self.store.commit(self.scope, new_name, 0, new, now=self.clock(), keep=self.keep)
        except VersionConflict:
            raise VersionConflict(f"there is already an agent named {new_name!r}") from None
        self.refresh()
        return SaveResult(new_name, done, versioned(CLONE_BASE_VERSION, done), SECTIONS, warnings)

    # --- live ------------------------------------------------------------------------

    def agents(self) -> dict[str, AgentDefinition]:
        """The agents as last applied."""
        return self._agents

    def refresh(self, *, force: bool = False) -> bool:
        """Apply what the store holds if it changed since the last time; whether it did.

        A store with a change stamp (SQLite) is only read when the stamp moved, or when the
        last read is ``RECHECK_S`` old (a save whose stamp was never written is still seen):
        the read ran before every search and run, in the event loop for a search, and under a
        saturating load it took longer than the engine's run (it waits on the store's locks).
        """
        stamp = self.store.change_stamp(self.scope)
        if (
            not force
            and stamp is not None
            and stamp == self._stamp
            and time.monotonic() - self._read_at < RECHECK_S
        ):
            return False
        seen = self.store.scope_revision(self.scope)
        if seen == self._applied and not force:
            self._seen(stamp)
            return False
        with self._refreshing:
            seen = self.store.scope_revision(self.scope)
            if seen == self._applied and not force:
                self._seen(stamp)
                return False
            revisions = self.store.agent_revisions(self.scope)
            latest: dict[str, Sections] = {}
            for stored in self.store.latest(self.scope):
                latest.setdefault(stored.agent, {})[stored.section] = self._open(stored)["content"]
            agents = dict(self.files)
            for name, sections in latest.items():
                file = self.files.get(name)
                merged = split_agent(file) if file is not None else {}
                merged.update(sections)
                base = file.version if file is not None else CLONE_BASE_VERSION
                try:
                    agents[name] = join_sections(
                        name, versioned(base, revisions.get(name, 0)), merged
                    )
                except ConfigFormatError:
                    # Saved under an older format that no longer validates: keep what runs.
                    if name in self._agents:
                        agents[name] = self._agents[name]
            if self.apply is not None and agents != self._agents:
                self.apply(agents)
            self._agents = agents
            self._applied = seen
            self._seen(stamp)
            return True

    def _seen(self, stamp: object | None) -> None:
        # ``stamp`` was read before the revision that is now applied: a save after it moves
        # the stamp again, so an equal stamp later means nothing was saved since.
        self._stamp = stamp
        self._read_at = time.monotonic()
