"""Actions with an effect outside (an email, an IM message, a connector write): approved, then
run at most once.

An action moves through these statuses, each move a compare-and-swap on the status::

    awaitingApproval ──approve──▶ approved ──claim──▶ executing ──deliver, finish──▶ done
            └──────reject──────▶ rejected

Why it runs at most once, also when the turn is retried or the process dies at any point:

- the action id is the idempotency key: proposing the same id again (a retried turn) finds the
  first record, never a second action;
- approval is a durable status change before anything runs, so a crash right after it loses
  nothing: ``recover`` (run when the account starts) executes every ``approved`` or
  ``executing`` action;
- the effect goes to a receiver that is idempotent on the action id (the outbox keeps one
  record per id, insert-if-absent). A crash after delivering and before ``done`` makes recovery
  deliver again, which the outbox ignores: 0 duplicates. A real connector gets the same id as
  its idempotency key;
- the ledger is not the conversation state: a turn that fails after the action ran does not
  roll it back (the action stands, as the email it sent would).

Payloads and results are encrypted (purposes ``action`` and ``outbox``), bound to the action id
and to its identity.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from mock_account.crypto import StateCipher
from mock_account.stores.workflow_records import ActionRecord, OutboxRecord, WorkflowStore

AWAITING = "awaitingApproval"
APPROVED = "approved"
REJECTED = "rejected"
EXECUTING = "executing"
DONE = "done"
STATUSES = (AWAITING, APPROVED, REJECTED, EXECUTING, DONE)

ACTION_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
# What each kind of action needs in its payload (all text).
ACTION_KINDS: dict[str, tuple[str, ...]] = {
    "email": ("to", "subject", "body"),
    "im": ("to", "text"),
    "connector": ("connector", "operation"),
}
MAX_PAYLOAD_BYTES = 32 * 1024


class ActionError(ValueError):
    """A bad action (kind, payload, id): the message says what is wrong."""


class UnknownAction(LookupError):
    """No such action for this identity (another identity's action is answered the same)."""


class ActionRefused(Exception):
    """The action is in a status that does not allow the move (e.g. approving a rejected one)."""


def _iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


def new_action_id() -> str:
    return "act_" + secrets.token_urlsafe(16).replace("-", "x").replace("_", "y")


def check_payload(kind: str, payload: Any) -> dict[str, Any]:
    """The payload of a ``kind`` action, checked; ``ActionError`` naming what is missing."""
    if kind not in ACTION_KINDS:
        raise ActionError(f"action kind must be one of {', '.join(ACTION_KINDS)} (got {kind!r})")
    if not isinstance(payload, Mapping):
        raise ActionError("an action's payload is an object")
    missing = [
        f for f in ACTION_KINDS[kind] if not isinstance(payload.get(f), str) or not payload[f]
    ]
    if missing:
        raise ActionError(f"a {kind} action needs {', '.join(missing)} (text)")
    try:
        size = len(json.dumps(payload, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ActionError(f"an action's payload must be plain JSON: {exc}") from None
    if size > MAX_PAYLOAD_BYTES:
        raise ActionError(f"an action's payload is over {MAX_PAYLOAD_BYTES} bytes")
    return dict(payload)


Effect = Callable[[str, str, dict[str, Any]], dict[str, Any]]


class ActionLedger:
    """Proposes, approves and executes actions; the mock effect writes to the outbox."""

    def __init__(
        self,
        store: WorkflowStore,
        cipher: StateCipher,
        clock: Callable[[], datetime],
        *,
        before_finish: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.cipher = cipher
        self.clock = clock
        # A test hook between delivering and marking done (the window a crash can hit).
        self._before_finish = before_finish

    # --- encryption ---------------------------------------------------------

    def _seal(self, account: str, identity: str, action_id: str, doc: dict, purpose: str) -> bytes:
        return self.cipher.encrypt(
            json.dumps(doc, separators=(",", ":"), allow_nan=False).encode(),
            convid=f"action|{action_id}",
            owner=f"{account}|{identity}",
            purpose=purpose,  # type: ignore[arg-type]
        )

    def _open(self, account: str, identity: str, action_id: str, blob: bytes, purpose: str) -> dict:
        return json.loads(
            self.cipher.decrypt(
                blob,
                convid=f"action|{action_id}",
                owner=f"{account}|{identity}",
                purpose=purpose,  # type: ignore[arg-type]
            )
        )

    def view(self, record: ActionRecord) -> dict[str, Any]:
        doc = self._open(record.account, record.identity, record.action_id, record.blob, "action")
        return {
            "actionId": record.action_id,
            "identity": record.identity,
            "status": record.status,
            "created": _iso(record.created),
            "updated": _iso(record.updated),
            **doc,
        }

    def outbox_view(self, record: OutboxRecord) -> dict[str, Any]:
        doc = self._open(record.account, record.identity, record.action_id, record.blob, "outbox")
        return {
            "actionId": record.action_id,
            "identity": record.identity,
            "delivered": _iso(record.delivered),
            **doc,
        }

    # --- moves --------------------------------------------------------------

    def propose(
        self,
        account: str,
        identity: str,
        *,
        kind: str,
        payload: Mapping[str, Any],
        requires_approval: bool = True,
        action_id: str | None = None,
        agent: str = "",
        convid: str = "",
    ) -> tuple[dict[str, Any], bool]:
        """Record an action (``(view, True)``), or find the one already under ``action_id``
        (``(view, False)``: a retried turn). One that needs no approval is ``approved``."""
        action_id = action_id or new_action_id()
        if not ACTION_ID_RE.match(action_id):
            raise ActionError("an action id is 8-64 of A-Z a-z 0-9 _ -")
        clean = check_payload(kind, payload)
        doc = {
            "kind": kind,
            "payload": clean,
            "requiresApproval": requires_approval,
            "agent": agent,
            "convid": convid,
            "events": [{"event": "proposed", "at": _iso(self.clock())}],
        }
        status = AWAITING if requires_approval else APPROVED
        record, created = self.store.add_action(
            account,
            action_id,
            identity,
            status,
            self._seal(account, identity, action_id, doc, "action"),
            self.clock(),
        )
        if record.identity != identity:
            # An id taken by another identity: say nothing about it.
            raise ActionError("that action id is taken; propose the action under another id")
        return self.view(record), created

    def _mine(self, account: str, identity: str, action_id: str) -> ActionRecord:
        record = self.store.get_action(account, action_id)
        if record is None or record.identity != identity:
            raise UnknownAction("There is no such action.")
        return record

    def get(self, account: str, identity: str, action_id: str) -> dict[str, Any]:
        return self.view(self._mine(account, identity, action_id))

    def _event(self, record: ActionRecord, event: str, **extra: Any) -> bytes:
        doc = self._open(record.account, record.identity, record.action_id, record.blob, "action")
        doc["events"].append({"event": event, "at": _iso(self.clock()), **extra})
        return self._seal(record.account, record.identity, record.action_id, doc, "action")

    def _move(
        self,
        record: ActionRecord,
        from_statuses: list[str],
        to_status: str,
        event: str,
        **extra: Any,
    ) -> ActionRecord | None:
        """``record`` moved on to ``to_status`` with ``event`` in its history, if it still
        stands at one of ``from_statuses``; ``None`` when it moved meanwhile."""
        return self.store.move_action(
            record.account,
            record.action_id,
            from_statuses=from_statuses,
            to_status=to_status,
            now=self.clock(),
            blob=self._event(record, event, **extra),
        )

    def approve(self, account: str, identity: str, action_id: str) -> dict[str, Any]:
        """Approve an action awaiting approval (approving it again changes nothing)."""
        record = self._mine(account, identity, action_id)
        if record.status == REJECTED:
            raise ActionRefused("This action was rejected; it cannot be approved any more.")
        if record.status != AWAITING:
            return self.view(record)
        moved = self._move(record, [AWAITING], APPROVED, "approved", by=identity)
        return self.view(moved or self._mine(account, identity, action_id))

    def reject(self, account: str, identity: str, action_id: str) -> dict[str, Any]:
        """Reject an action awaiting approval; ``ActionRefused`` once it is approved."""
        record = self._mine(account, identity, action_id)
        if record.status == REJECTED:
            return self.view(record)
        moved = self._move(record, [AWAITING], REJECTED, "rejected", by=identity)
        if moved is None:
            raise ActionRefused("This action is already approved; it can no longer be rejected.")
        return self.view(moved)

    def execute(self, account: str, action_id: str) -> dict[str, Any] | None:
        """Run an approved action (or finish one a crash interrupted); ``None`` if it is not
        runnable (awaiting approval, rejected, missing). A done action is returned as is."""
        record = self.store.get_action(account, action_id)
        if record is None or record.status in (AWAITING, REJECTED):
            return None
        if record.status == DONE:
            return self.view(record)
        claimed = self.store.move_action(
            account,
            action_id,
            from_statuses=[APPROVED, EXECUTING],
            to_status=EXECUTING,
            now=self.clock(),
        )
        if claimed is None:  # someone else finished it meanwhile
            current = self.store.get_action(account, action_id)
            return self.view(current) if current else None
        doc = self._open(account, claimed.identity, action_id, claimed.blob, "action")
        delivered = self.store.deliver(
            account,
            action_id,
            claimed.identity,
            self._seal(
                account,
                claimed.identity,
                action_id,
                {"kind": doc["kind"], "payload": doc["payload"], "agent": doc["agent"]},
                "outbox",
            ),
            self.clock(),
        )
        if self._before_finish is not None:
            self._before_finish(action_id)
        done = self._move(claimed, [EXECUTING], DONE, "executed", firstDelivery=delivered)
        current = done or self.store.get_action(account, action_id)
        return self.view(current) if current else None

    def approve_and_execute(self, account: str, identity: str, action_id: str) -> dict[str, Any]:
        """What the user's "approve" does: approve, then run it at once."""
        self.approve(account, identity, action_id)
        return self.execute(account, action_id) or self.get(account, identity, action_id)

    def recover(self, account: str) -> int:
        """Execute every approved action not yet done (after a restart); how many ran."""
        ran = 0
        for record in self.store.list_actions(account, statuses=[APPROVED, EXECUTING]):
            if self.execute(account, record.action_id) is not None:
                ran += 1
        return ran

    def list(
        self, account: str, identity: str, statuses: Iterable[str] | None = None
    ) -> list[dict[str, Any]]:
        if statuses is not None:
            statuses = list(statuses)
            bad = [s for s in statuses if s not in STATUSES]
            if bad:
                raise ActionError(f"status must be one of {', '.join(STATUSES)} (got {bad[0]!r})")
        return [self.view(r) for r in self.store.list_actions(account, identity, statuses)]

    def outbox(self, account: str, identity: str) -> list[dict[str, Any]]:
        return [self.outbox_view(r) for r in self.store.list_outbox(account, identity)]
