"""Per-identity workflow progress: where a user is, what they gave, which goals are met.

Progress is one JSON document per ``(account, identity, workflow)``::

    {"workflow", "stage", "values": {...}, "goals": {goal: {"met", "required", "kind"}},
     "history": [{"from", "to", "at", "by"}], "completed", "started", "updated"}

It is encrypted (purpose ``workflow``, bound to the workflow and the identity) and saved with
compare-and-swap on its version, so two turns at once never lose one another's values. A user
moves past a stage only when every required goal of that stage is met; values of a later stage
are refused until that stage is reached (nobody skips ahead by sending them early).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from agents_catalog.workflow_format import InvalidValue, Stage, WorkflowDefinition
from mock_account.crypto import StateCipher
from mock_account.stores import VersionConflict
from mock_account.stores.workflow_records import WorkflowStore

MAX_VALUES_BYTES = 64 * 1024
CAS_ATTEMPTS = 8


class UnknownWorkflow(LookupError):
    """No workflow of that name is declared in the account."""


class StageIncomplete(Exception):
    """The current stage has required goals that are not met."""

    def __init__(self, stage: str, unmet: list[str]) -> None:
        super().__init__(
            f"stage '{stage}' is not complete: {', '.join(unmet)} "
            f"{'is' if len(unmet) == 1 else 'are'} still open"
        )
        self.stage = stage
        self.unmet = unmet


class TransitionRefused(Exception):
    """The asked move is not one the workflow allows from here (or it is already finished)."""


def _iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


def goal_results(stage: Stage, values: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each goal of ``stage``: met or not, required or not, and of which kind."""
    return {
        g.goal_name: {
            "met": g.met(dict(values)),
            "required": g.required,
            "kind": "collect" if g.collect is not None else "check",
            **({"label": g.label} if g.label else {}),
            **({"check": g.check.describe()} if g.check is not None else {}),
        }
        for g in stage.goals
    }


@dataclass(frozen=True)
class Progress:
    """A document and the version it was read at (0: never saved)."""

    doc: dict[str, Any]
    version: int


class WorkflowService:
    """Reads and moves the progress of identities through the account's workflows."""

    def __init__(
        self,
        store: WorkflowStore,
        cipher: StateCipher,
        clock: Callable[[], datetime],
        workflows: Mapping[str, WorkflowDefinition],
    ) -> None:
        self.store = store
        self.cipher = cipher
        self.clock = clock
        self.workflows = dict(workflows)

    # --- reading ------------------------------------------------------------

    def definition(self, workflow: str) -> WorkflowDefinition:
        found = self.workflows.get(workflow)
        if found is None:
            raise UnknownWorkflow(f"There is no workflow named '{workflow}'.")
        return found

    @staticmethod
    def _context(workflow: str) -> str:
        return f"workflow|{workflow}"

    @staticmethod
    def _owner(account: str, identity: str) -> str:
        return f"{account}|{identity}"

    def _fresh(self, definition: WorkflowDefinition) -> dict[str, Any]:
        now = _iso(self.clock())
        first = definition.first
        return {
            "workflow": definition.name,
            "stage": first.name,
            "values": {},
            "goals": goal_results(first, {}),
            "history": [],
            "completed": False,
            "started": now,
            "updated": now,
        }

    def load(self, account: str, identity: str, workflow: str) -> Progress:
        """The identity's progress (a fresh, unsaved one when it never started)."""
        definition = self.definition(workflow)
        record = self.store.load_progress(account, identity, workflow)
        if record is None:
            return Progress(self._fresh(definition), 0)
        plain = self.cipher.decrypt(
            record.blob,
            convid=self._context(workflow),
            owner=self._owner(account, identity),
            purpose="workflow",
        )
        return Progress(json.loads(plain), record.version)

    def view(self, account: str, identity: str, workflow: str) -> dict[str, Any]:
        """What a client shows: the progress plus the current stage's definition."""
        progress = self.load(account, identity, workflow)
        definition = self.definition(workflow)
        stage = definition.stage(progress.doc["stage"])
        return {
            **progress.doc,
            "version": progress.version,
            "title": definition.title,
            "stages": [s.name for s in definition.stages],
            "stageTitle": stage.title or stage.name,
            "next": [t.to for t in stage.exits],
        }

    def list_for(self, account: str, identity: str) -> list[dict[str, Any]]:
        """The identity's progress in every declared workflow (unstarted ones as fresh)."""
        return [self.view(account, identity, name) for name in sorted(self.workflows)]

    # --- moving -------------------------------------------------------------

    def _save(
        self,
        account: str,
        identity: str,
        workflow: str,
        change: Callable[[dict[str, Any]], None],
    ) -> dict[str, Any]:
        """Read, change and save under compare-and-swap, again on a lost race."""
        for _ in range(CAS_ATTEMPTS):
            progress = self.load(account, identity, workflow)
            doc = json.loads(json.dumps(progress.doc))
            change(doc)
            doc["updated"] = _iso(self.clock())
            plain = json.dumps(doc, separators=(",", ":"), allow_nan=False).encode()
            blob = self.cipher.encrypt(
                plain,
                convid=self._context(workflow),
                owner=self._owner(account, identity),
                purpose="workflow",
            )
            try:
                record = self.store.save_progress(
                    account,
                    identity,
                    workflow,
                    expected_version=progress.version,
                    blob=blob,
                    now=self.clock(),
                )
            except VersionConflict:
                continue
            return {**doc, "version": record.version}
        raise VersionConflict(f"workflow '{workflow}' progress kept changing; try again")

    def submit(
        self, account: str, identity: str, workflow: str, values: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Collect values for the current stage (or an earlier one) and re-evaluate its goals.

        ``InvalidValue`` for a value no stage collects, one of a stage not reached yet, or one
        of the wrong type; nothing is saved then."""
        definition = self.definition(workflow)
        if not isinstance(values, Mapping) or not values:
            raise InvalidValue("give at least one value")

        def change(doc: dict[str, Any]) -> None:
            if doc["completed"]:
                raise TransitionRefused(f"workflow '{workflow}' is already complete")
            order = [s.name for s in definition.stages]
            here = order.index(doc["stage"])
            for name, raw in values.items():
                stage = definition.collector(name)
                if stage is None:
                    raise InvalidValue(
                        f"'{name}' is not a value of workflow '{workflow}' "
                        f"(it collects: {', '.join(sorted(definition.collected()))})"
                    )
                if order.index(stage.name) > here:
                    raise InvalidValue(
                        f"'{name}' belongs to stage '{stage.name}', which is not reached yet "
                        f"(current stage: '{doc['stage']}')"
                    )
                goal = next(g for g in stage.goals if g.collect == name)
                doc["values"][name] = goal.coerce(raw)
            if len(json.dumps(doc["values"])) > MAX_VALUES_BYTES:
                raise InvalidValue(f"the collected values exceed {MAX_VALUES_BYTES} bytes")
            doc["goals"] = goal_results(definition.stage(doc["stage"]), doc["values"])

        return self._save(account, identity, workflow, change)

    def advance(
        self,
        account: str,
        identity: str,
        workflow: str,
        *,
        to: str | None = None,
        by: str = "user",
    ) -> dict[str, Any]:
        """Move past the current stage: ``StageIncomplete`` while required goals are open,
        ``TransitionRefused`` for a stage that is not a way out of this one."""
        definition = self.definition(workflow)

        def change(doc: dict[str, Any]) -> None:
            if doc["completed"]:
                raise TransitionRefused(f"workflow '{workflow}' is already complete")
            stage = definition.stage(doc["stage"])
            results = goal_results(stage, doc["values"])
            doc["goals"] = results
            unmet = [name for name, r in results.items() if r["required"] and not r["met"]]
            if unmet:
                raise StageIncomplete(stage.name, unmet)
            at = _iso(self.clock())
            if stage.final:
                if to is not None:
                    raise TransitionRefused(f"stage '{stage.name}' is the last one")
                doc["completed"] = True
                doc["history"].append({"from": stage.name, "to": None, "at": at, "by": by})
                return
            open_exits = [t for t in stage.exits if t.when is None or t.when.holds(doc["values"])]
            if to is not None:
                if to not in {t.to for t in stage.exits}:
                    raise TransitionRefused(
                        f"'{to}' is not a next stage of '{stage.name}' "
                        f"(next: {', '.join(t.to for t in stage.exits)})"
                    )
                chosen = next((t for t in open_exits if t.to == to), None)
                if chosen is None:
                    raise TransitionRefused(f"the way from '{stage.name}' to '{to}' is closed")
            else:
                if not open_exits:
                    raise TransitionRefused(f"no way out of stage '{stage.name}' holds yet")
                chosen = open_exits[0]
            doc["stage"] = chosen.to
            doc["goals"] = goal_results(definition.stage(chosen.to), doc["values"])
            doc["history"].append({"from": stage.name, "to": chosen.to, "at": at, "by": by})

        return self._save(account, identity, workflow, change)
