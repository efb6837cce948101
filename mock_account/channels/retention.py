"""Retention of channel records: what a conversation's deletion does not already remove.

A conversation's link and turns go with the conversation (same transaction or script). An
identity outlives its conversation, since its memory carries over to the sender's next one,
until it has had no live conversation and no message for as long as its account's plan keeps
conversations (free: 7 days, paid: kept); it then goes with its memory and contact, and with
the workflow progress, actions and outbox records its runs kept (owner ``<channel>:<identity
id>``) when the sweep is given the workflow store. An action approved but not yet run goes too:
the identity it would act for is gone, so it is never run.

A sender may come back while the sweep runs: a message marks its identity seen before its run
writes anything, and the sweep deletes an identity only if it was not seen since it looked, so
neither loses the other's work.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from mock_account.channels.model import CHANNEL_NAMES
from mock_account.channels.sealing import IDENTITY_ID_LENGTH
from mock_account.conversations.retention import RetentionPolicy
from mock_account.stores import ConversationStore
from mock_account.stores.channel_records import ChannelRecords
from mock_account.users import User

if TYPE_CHECKING:
    from mock_account.stores.workflow_records import WorkflowStore

# Whom a channel identity's runs file workflow records under (a web run's owner is its user).
IDENTITY_OWNER = re.compile(
    rf"^(?:{'|'.join(c for c in CHANNEL_NAMES if c != 'web')})"
    rf":(?P<identity>[0-9a-f]{{{IDENTITY_ID_LENGTH}}})$"
)


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
    report.dropped_links += forget_gone_conversations(records, store)
    for record in records.list_identities():
        limit = policy.limit(plans.get(record.account))
        if limit is None or now - record.last_seen < limit:
            continue
        if record.convid and store.get_entry(record.account, record.convid) is not None:
            continue  # its conversation is still kept (pinned, or used by reads)
        fresh = records.get_identity(record.account, record.identity)
        if fresh is None or now - fresh.last_seen < limit:
            continue
        # Only if not seen since (compare-and-swap): a sender whose message is being handled
        # right now has been seen, and keeps the identity and everything filed under it.
        if records.delete_identity(record.account, record.identity, last_seen=fresh.last_seen):
            report.deleted_identities.append((record.account, record.identity))
    if workflows is not None:
        report.workflow_records += _forget_orphans(records, workflows)
    return report


def forget_gone_conversations(records: ChannelRecords, store: ConversationStore) -> int:
    """Drop links and turns whose conversation is gone (a backend that cannot cascade)."""
    dropped = 0
    for link in list(records.iter_links()):
        if store.get_entry(link.account, link.convid) is None:
            records.forget_conversation(link.account, link.convid)
            dropped += 1
    return dropped


def _forget_orphans(records: ChannelRecords, workflows: WorkflowStore) -> int:
    """Remove the workflow progress, actions and outbox records filed under a channel identity
    that no longer exists: the ones of the identities just deleted, and any a sweep that
    stopped between the two steps left behind. After the identity, never before it: a sender
    who comes back keeps their records; one whose identity went starts from nothing (the
    identity id is the same, so leftovers would otherwise become the new identity's)."""
    owners = {
        (r.account, r.identity)
        for r in (*workflows.all_progress(), *workflows.all_actions(), *workflows.all_outbox())
    }
    removed = 0
    for account, owner in sorted(owners):
        found = IDENTITY_OWNER.match(owner)
        if found is None or records.get_identity(account, found["identity"]) is not None:
            continue
        removed += workflows.forget_identity(account, owner)
    return removed
