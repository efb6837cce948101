"""Retention: conversations unused for longer than their plan allows are deleted.

*Use* is the later of a conversation's last run and its last read (``ConversationEntry.last_used``;
opening a conversation, its state view and runs that saved nothing all count as a read). A
conversation is expired when ``now - last_used >= limit`` for its owner's plan; pinned
conversations are never expired. Defaults: free plan 7 days, paid plan no limit; a plan the
policy does not name, or an owner the user directory does not know, is kept (deleting is the one
thing that cannot be undone, so unknown means keep).

With enterprise state hooks the sweep removes only the entry: ``deleteConversation`` is *not*
called, the state the hook keeps is the customer's business (its own retention rules apply).

Time is always passed in (``now``), so the sweep is tested without waiting. A conversation used
between the listing and its deletion is re-checked just before it is deleted. Deleting a
conversation removes its idempotency records too, and each sweep also removes every idempotency
record past its expiry (``purge_expired``).

The server and the demo run the sweep themselves (``start_sweeper``, every hour by default;
``DEFAULT_SWEEP_INTERVAL_S``), logging what each sweep removed; ``mock-account sweep`` is for
operators.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from mock_account.stores import (
    ConversationEntry,
    ConversationStore,
    IdempotencyRecords,
    StoreError,
)
from mock_account.users import User

if TYPE_CHECKING:
    from mock_account.conversations.account import MockAccount

log = logging.getLogger(__name__)

DEFAULT_DAYS: dict[str, float | None] = {"free": 7.0, "paid": None}
DEFAULT_SWEEP_INTERVAL_S = 3600.0
NO_LIMIT_WORDS = ("none", "unlimited", "never")


def positive_number(text: str | float, *, not_a_number: str, not_positive: str) -> float:
    """``text`` as a positive, finite number: how long something is kept or waited for.
    ValueError with ``not_a_number`` or ``not_positive`` otherwise."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(not_a_number) from None
    if not value > 0 or value == float("inf"):
        raise ValueError(not_positive)
    return value


def parse_days(text: str) -> float | None:
    """A retention in days from text: a positive number, or ``none`` for no limit."""
    if text.strip().lower() in NO_LIMIT_WORDS:
        return None
    return positive_number(
        text,
        not_a_number=f"not a number of days: {text!r}",
        not_positive=f"days must be a positive number or 'none', got {text!r}",
    )


def parse_interval(text: str) -> float:
    """A sweep interval in seconds from text; ``off`` (or 0) turns the sweeper off (0.0)."""
    if text.strip().lower() in ("off", "no", "false", "0"):
        return 0.0
    return positive_number(
        text,
        not_a_number=f"not a number of seconds: {text!r}",
        not_positive=f"the sweep interval must be a positive number of seconds, got {text!r}",
    )


@dataclass(frozen=True)
class RetentionPolicy:
    """Days without use after which a plan's conversations go (``None``: kept forever)."""

    days_by_plan: Mapping[str, float | None] = field(default_factory=lambda: dict(DEFAULT_DAYS))

    def __post_init__(self) -> None:
        for plan, days in self.days_by_plan.items():
            if days is not None and not days > 0:
                raise ValueError(f"retention for plan {plan!r} must be a positive number of days")

    @classmethod
    def of(
        cls, *, free_days: float | None = 7.0, paid_days: float | None = None
    ) -> RetentionPolicy:
        return cls({"free": free_days, "paid": paid_days})

    def limit(self, plan: str | None) -> timedelta | None:
        days = self.days_by_plan.get(plan) if plan is not None else None
        return None if days is None else timedelta(days=days)

    def expired(self, entry: ConversationEntry, plan: str | None, now: datetime) -> bool:
        limit = self.limit(plan)
        return limit is not None and not entry.pinned and now - entry.last_used >= limit


@dataclass
class SweepReport:
    """What one sweep removed (``(account, convid)`` pairs) and how many conversations it kept."""

    deleted: list[tuple[str, str]] = field(default_factory=list)
    kept: int = 0
    purged: int = 0  # idempotency records past their expiry

    def summary(self) -> str:
        return (
            f"{len(self.deleted)} conversation(s) deleted, {self.kept} kept, "
            f"{self.purged} expired idempotency record(s) removed"
        )


def _plans(users: list[User]) -> Callable[[ConversationEntry], str | None]:
    by_email = {u.email: u.plan for u in users}
    by_account = {u.account: u.plan for u in users}

    def plan(entry: ConversationEntry) -> str | None:
        return by_email.get(entry.owner, by_account.get(entry.account))

    return plan


def sweep(
    store: ConversationStore,
    users: Iterable[User],
    now: datetime,
    policy: RetentionPolicy | None = None,
) -> SweepReport:
    """Delete every expired conversation of ``store``; ``now`` must be timezone-aware."""
    if now.tzinfo is None:
        raise ValueError("now must be a timezone-aware time")
    policy = policy or RetentionPolicy()
    plan_of = _plans(list(users))
    report = SweepReport()
    for entry in list(store.iter_entries()):
        if not policy.expired(entry, plan_of(entry), now):
            report.kept += 1
            continue
        # Re-read: a run or a read since the listing renews the conversation.
        fresh = store.get_entry(entry.account, entry.convid)
        if fresh is None:
            continue
        if not policy.expired(fresh, plan_of(fresh), now):
            report.kept += 1
            continue
        if store.delete(fresh.account, fresh.convid):
            report.deleted.append((fresh.account, fresh.convid))
    if isinstance(store, IdempotencyRecords):
        report.purged = store.purge_expired(now)
    return report


def start_sweeper(
    account: MockAccount,
    interval_s: float,
    stop_event: threading.Event,
    *,
    users: Iterable[User],
    policy: RetentionPolicy | None = None,
    then: Callable[[datetime], str] | None = None,
) -> threading.Thread:
    """Sweep ``account``'s store every ``interval_s`` seconds (at its clock's time) in a daemon
    thread, until ``stop_event`` is set; ``then(now)``, when given, runs after each sweep (what
    the conversations' deletion does not remove) and returns its summary for the log."""
    if interval_s <= 0:
        raise ValueError("the sweep interval must be positive")
    people = list(users)

    def loop() -> None:
        while not stop_event.wait(interval_s):
            try:
                now = account.clock()
                report = sweep(account.store, people, now, policy)
                summary = report.summary()
                if then is not None:
                    summary += f"; {then(now)}"
            except StoreError as exc:  # the store may come back: try again next interval
                log.warning("retention sweep failed: %s", exc)
                continue
            log.info("retention sweep: %s", summary)

    thread = threading.Thread(target=loop, name="retention-sweeper", daemon=True)
    thread.start()
    return thread
