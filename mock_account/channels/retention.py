"""Retention of channel records: what a conversation's deletion does not already remove.

A conversation's link and turns go with the conversation (same transaction or script). An
identity outlives its conversation, since its memory carries over to the sender's next one,
until it has had no live conversation and no message for as long as its account's plan keeps
conversations (free: 7 days, paid: kept); it then goes with its memory and contact, and with
the workflow progress, actions and outbox records its runs kept (owner ``<channel>:<identity
id>``) when the sweep is given the workflow store. An action approved but not yet run goes too:
the identity it would act for is gone, so it is never run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from mock_account.channels.records import ChannelRecords
from mock_account.conversations.retention import RetentionPolicy
from mock_account.stores import ConversationStore
from mock_account.users import User

if TYPE_CHECKING:
    from mock_account.workflows.store import WorkflowStore


@dataclass
class ChannelSweepReport:
    deleted_identities: list[tuple[str, str]] = field(default_factory=list)
    dropped_links: int = 0
    # Workflow progress, actions and outbox records removed with the deleted identities.
    workflow_records: int = 0


def sweep_channels(
    records: ChannelRecords,
    store: ConversationStore,
    users: Iterable[User],
    now: datetime,
    policy: RetentionPolicy | None = None,
    workflows: WorkflowStore | None = None,
) -> ChannelSweepReport:
    """Remove identities past retention and records of conversations that are gone; with
    ``workflows``, a removed identity's workflow records go too."""
    if now.tzinfo is None:
        raise ValueError("now must be a timezone-aware time")
    policy = policy or RetentionPolicy()
    plans = {u.account: u.plan for u in users}
    report = ChannelSweepReport()
    for link in list(records.iter_links()):
        if store.get_entry(link.account, link.convid) is None:
            records.forget_conversation(link.account, link.convid)
            report.dropped_links += 1
    for record in records.list_identities():
        limit = policy.limit(plans.get(record.account))
        if limit is None or now - record.last_seen < limit:
            continue
        if record.convid and store.get_entry(record.account, record.convid) is not None:
            continue  # its conversation is still kept (pinned, or used by reads)
        fresh = records.get_identity(record.account, record.identity)
        if fresh is None or now - fresh.last_seen < limit:
            continue
        if workflows is not None and record.channel != "web":
            # Before the identity: if this fails, the identity is still there and the next
            # sweep tries both again (the other way round, its records would be left behind
            # with nothing to find them by). A web run's owner is the user, not the identity.
            report.workflow_records += workflows.forget_identity(
                record.account, f"{record.channel}:{record.identity}"
            )
        if records.delete_identity(record.account, record.identity):
            report.deleted_identities.append((record.account, record.identity))
    return report
