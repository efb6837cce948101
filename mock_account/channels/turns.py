"""What a delivered message leaves behind: its conversation's link, the identity's memory and
an encrypted record of the turn; and what a reply to a form reads back of earlier turns.

The memory is saved after the conversation state: a run that fails saves neither, and a crash
between the two loses that run's memory facts, never invents any.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from mock_account.channels.identities import Identities
from mock_account.crypto import InvalidRecord
from mock_account.stores.channel_records import ChannelRecords, ConversationLink, IdentityRecord

if TYPE_CHECKING:
    from mock_account.channels.delivery import Delivery


class Turns:
    """The records a message's run leaves next to its conversation."""

    def __init__(self, identities: Identities):
        self.identities = identities

    @property
    def records(self) -> ChannelRecords:
        return self.identities.records

    def after_run(
        self,
        delivery: Delivery,
        record: IdentityRecord,
        convid: str,
        owner: str,
        query: str,
        now: datetime,
        elapsed: float,
    ) -> None:
        result = delivery.result
        account = record.account
        self.records.link_conversation(
            ConversationLink(account, convid, delivery.channel, record.identity, now)
        )
        # (Seen already: the delivery marked the identity before the run, at this ``now``.)
        if not delivery.resumed and result.convid and delivery.channel in ("web", "api"):
            # The identity's latest chat (for the Inbox); another chat may have moved it first.
            self.records.move_identity(
                account, record.identity, expected_convid=record.convid, convid=convid, now=now
            )
        if result.memory is not None and result.success:
            delivery.memory_saved = self.identities.save_memory(record, result)
        turn = turn_record(delivery, record.identity, query, now, elapsed)
        sealed = self.identities.sealer.seal_turn(turn, convid=convid, owner=owner)
        self.records.add_turn(account, convid, now, sealed)

    def answered_before(
        self, account: str, convid: str, owner: str, agent: str, asked: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """What the sender's earlier replies already answered of the form that still waits
        (the turns since it was asked), so a reply need only add what is missing."""
        names = {spec["name"] for spec in asked}
        given: list[dict[str, Any]] = []
        for stored in reversed(self.records.turns(account, convid)):
            try:
                turn = self.identities.sealer.open_turn(stored.record, convid=convid, owner=owner)
            except InvalidRecord:
                break
            if turn.get("agentName") != agent or turn.get("resultCode") != "ask":
                break
            given.append(turn.get("answered") or {})
        merged: dict[str, Any] = {}
        for answers in reversed(given):
            merged.update({k: v for k, v in answers.items() if k in names})
        return merged


def turn_record(
    delivery: Delivery, identity: str, query: str, now: datetime, elapsed: float
) -> dict[str, Any]:
    """Who ran, on what, and what they read and wrote: the turn as it is sealed and kept."""
    result = delivery.result
    turn: dict[str, Any] = {
        "at": now.isoformat(),
        "channel": delivery.channel,
        "identity": identity,
        "query": query,
        "agentName": result.agent_name,
        "resultCode": result.result_code,
        "error": result.error,
        "reads": [f"conv.{name}" for name in result.reads]
        + [f"user.{name}" for name in result.memory_reads],
        "writes": [f"conv.{name}" for name in result.writes]
        + [f"user.{name}" for name in result.memory_writes],
        "timingsMs": {k: round(v * 1000, 3) for k, v in result.timings.items()},
        "totalMs": round(elapsed * 1000, 3),
        "matches": [
            {"agentName": h.agent_name, "score": round(h.score, 4)} for h in delivery.hits[:2]
        ],
    }
    if delivery.answered:
        turn["answered"] = delivery.answered
    return turn
