"""Delivering a message from a sender on a channel: the inbound pipeline.

``deliver`` is what an email gateway, an IM bot or a widget would call: a message from a sender
on a channel. The sender's identity (a keyed hash of account, channel and sender) is found or
created; on a resuming channel the identity's conversation continues (a new one starts when
it has none, or it was deleted or expired); on ``web`` and ``api`` a new chat starts unless a
``convid`` of that identity is given (``conversations``). The request is searched like any
follow-up and the agent runs with ``sys.channel``, ``sys.identity``, ``sys.sender`` and the
identity's memory (``user.x``); its workflow progress and actions are the identity's too (filed
under the conversation's owner, ``<channel>:<identity id>``, or the user's email on ``web``).
After the run: the conversation is linked to its channel and identity, the turn is recorded
(encrypted) and the memory the agent changed is saved (compare-and-swap, merged key by key with
a concurrent change) (``turns``).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from mock_account.channels.access import require_admin
from mock_account.channels.conversations import IdentityGone, SenderConversations
from mock_account.channels.identities import Identities, conversation_owner
from mock_account.channels.model import (
    ChannelError,
    channel_policy,
    normalize_contact,
    normalize_sender,
)
from mock_account.channels.replies import answers_from_reply, questions
from mock_account.channels.turns import Turns
from mock_account.conversations.account import ExecResult, MockAccount
from mock_account.conversations.vault import Restored
from mock_account.crypto import InvalidRecord
from mock_account.engine.runtime import RunContext
from mock_account.engine.state import paused_run
from mock_account.errors import HookFailed, UnknownConversation
from mock_account.search.index import SearchHit
from mock_account.stores import StoreError, VersionConflict, unavailable_message
from mock_account.stores.channel_records import ChannelRecords, IdentityRecord
from mock_account.users import User, UserDirectory

log = logging.getLogger(__name__)

#: How often a message is run again when another message of the same sender saved first.
RUN_ATTEMPTS = 6
#: Messages of one sender are handled one at a time in a process (locks striped by identity);
#: across processes, compare-and-swap and the retries above keep them apart.
SENDER_LOCKS = 64


@dataclass
class Delivery:
    """What delivering one message did."""

    channel: str
    identity: str
    resumed: bool
    result: ExecResult
    hits: list[SearchHit] = field(default_factory=list)
    memory_saved: bool = False
    # What could not be recorded after the run was saved (the answer stands regardless).
    warnings: list[str] = field(default_factory=list)
    # The answer as a message to the sender (a form becomes questions to reply to).
    reply: str = ""
    # The answers a reply gave to the form the conversation was waiting on.
    answered: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Message:
    """A message as a gateway hands it over: on which channel, from whom, saying what."""

    channel: str
    sender: str | None = None
    query: str | None = None
    inputs: dict[str, Any] | None = None
    agent_name: str | None = None
    convid: str | None = None
    contact: str | None = None


@dataclass
class _Sender:
    """Whom a message is from, once their identity is found: who runs, and whose it is."""

    record: IdentityRecord
    owner: str
    person: User
    now: datetime


@dataclass
class _Plan:
    """What a message runs, and in which conversation; a run that lost a race changes it."""

    agent_name: str
    inputs: dict[str, Any]
    existing: str | None
    start_as: str | None
    hits: list[SearchHit] = field(default_factory=list)
    restored: Restored | None = None  # read once: the run goes on from it


class DeliveryPipeline:
    """Messages from senders on channels, each into its sender's conversation."""

    def __init__(self, account: MockAccount, users: UserDirectory, identities: Identities):
        self.account = account
        self.users = users
        self.identities = identities
        self.conversations = SenderConversations(account, identities)
        self.turns = Turns(identities)
        self._sender_locks = [threading.Lock() for _ in range(SENDER_LOCKS)]

    @property
    def records(self) -> ChannelRecords:
        return self.identities.records

    def deliver(self, caller: User, message: Message) -> Delivery:
        """Deliver ``message`` into its sender's conversation.

        Anyone may write on ``web`` as themselves; writing as another sender, or on another
        channel, is the administrator's (a gateway acting for outside senders).
        """
        channel, sender, query = message.channel, message.sender, message.query
        agent_name, convid = message.agent_name, message.convid
        policy = channel_policy(channel)
        if sender is None:
            if channel != "web":
                raise ChannelError(f"sender is required on {channel}: {policy.sender}")
            sender = caller.email
        address = normalize_sender(channel, sender)
        if not (channel == "web" and address == caller.email):
            require_admin(self.users, caller)
        if channel == "web":
            member = self.users.by_email(address)
            if member is None or member.account != caller.account:
                raise ChannelError(f"sender {address!r} is not a user of this account")
        contact_name = normalize_contact(message.contact)
        inputs = dict(message.inputs or {})
        if query is not None:
            inputs["query"] = query
        if not agent_name and not str(inputs.get("query") or "").strip():
            raise ChannelError("a message needs a query (or an agentName with its inputs)")
        if convid and policy.resumes:
            raise ChannelError(
                f"on {channel} a sender resumes their own conversation: send no convid"
            )

        identity = self.identities.sealer.identity_id(caller.account, channel, address)
        with self._sender_locks[int(identity[:8], 16) % SENDER_LOCKS]:
            for _ in range(2):
                try:
                    return self._deliver(
                        caller, channel, policy.resumes, address, contact_name, inputs,
                        agent_name, convid,
                    )  # fmt: skip
                except IdentityGone:
                    # The retention sweep took the identity while this message was being
                    # routed (nothing of it ran): the sender starts afresh as a new identity.
                    continue
        raise VersionConflict("the sender's identity kept changing; please try again")

    def _deliver(
        self,
        caller: User,
        channel: str,
        resumes: bool,
        address: str,
        contact_name: str | None,
        inputs: dict[str, Any],
        agent_name: str | None,
        convid: str | None,
    ) -> Delivery:
        now = self.account.clock()
        account = caller.account
        record = self.identities.find_or_claim(account, channel, address, contact_name, now)
        owner = conversation_owner(channel, address, record.identity)
        person = User(owner, address, account, caller.plan)
        sender = _Sender(record, owner, person, now)
        existing, start_as = self.conversations.pick(record, owner, convid, resumes, now)

        if not self.records.touch_identity(account, record.identity, now):
            raise IdentityGone
        # Seen from here on, before the run writes anything under the identity: the sweep
        # deletes an identity only if it was not seen since it looked (compare-and-swap), so
        # it never takes one a run is writing for.

        query_text = str(inputs.get("query") or "")
        answered: dict[str, Any] = {}
        restored: Restored | None = None
        if not agent_name and existing and channel != "web":
            # A sender with no form to fill answers it by replying (see ``replies``).
            agent_name, inputs, answered, restored = self._reply_to_form(
                sender, existing, inputs, query_text
            )
        hits: list[SearchHit] = []
        if not agent_name:
            agent_name, hits = self.account.route(sender.person, query_text, existing)
        if not agent_name:
            result = ExecResult(
                False, "callFailed", None, "", error="No agent of this account matches that."
            )
            return Delivery(channel, record.identity, existing is not None, result, hits)
        plan = _Plan(agent_name, inputs, existing, start_as, hits, restored)
        context = RunContext(
            sys={"channel": channel, "identity": record.identity, "sender": address},
            memory=self.identities.memory(record),
            account=account,
        )
        started = time.perf_counter()
        result = self._run(sender, plan, context, query_text)
        elapsed = time.perf_counter() - started
        delivery = Delivery(
            channel, record.identity, plan.existing is not None, result, plan.hits,
            reply=_reply_text(result), answered=answered,
        )  # fmt: skip
        self._keep_records(delivery, sender, result.convid or plan.existing, query_text, elapsed)
        return delivery

    def _reply_to_form(
        self, sender: _Sender, existing: str, inputs: dict[str, Any], query_text: str
    ) -> tuple[str | None, dict[str, Any], dict[str, Any], Restored | None]:
        """The form the conversation waits on, if one does, answered by the message: its
        agent, the inputs it runs with and what they answered; and the state as it was read."""
        restored = self._restore(sender.person, existing)
        waiting = None if restored is None else paused_run(restored.state)
        if waiting is None:
            return None, inputs, {}, restored
        agent_name = waiting["agent"]
        asked = waiting["paused"]["ask"]["inputs"]
        answered = {
            **self.turns.answered_before(
                sender.record.account, existing, sender.owner, agent_name, asked
            ),
            **answers_from_reply(asked, query_text, sender.now.date()),
        }
        inputs = {**answered, **{k: v for k, v in inputs.items() if k != "query"}}
        return agent_name, inputs, answered, restored

    def _restore(self, person: User, convid: str) -> Restored | None:
        """The conversation's state, to see whether a form waits; None if it cannot be read
        (the run, which reads it again then, says what is wrong)."""
        try:
            return self.account.restore(person, convid)
        except (UnknownConversation, InvalidRecord, HookFailed):
            return None

    def _run(
        self, sender: _Sender, plan: _Plan, context: RunContext, query_text: str
    ) -> ExecResult:
        account, owner, record = sender.record.account, sender.owner, sender.record
        target = plan.existing or plan.start_as or ""
        for attempt in range(RUN_ATTEMPTS):
            seen = self.conversations.live(account, target, owner)
            if plan.restored is not None and (
                seen is None or seen.state_version != plan.restored.entry.state_version
            ):
                plan.restored = None  # saved since it was read: the run reads what is there now
            result = self.account.exec_agent(
                sender.person,
                plan.agent_name,
                plan.inputs,
                plan.existing,
                context=context,
                start_as=plan.start_as,
                restored=plan.restored,
            )
            plan.restored = None  # a run that lost a race goes on from what the winner saved
            now_entry = self.conversations.live(account, target, owner)
            raced = now_entry is not None and (
                seen is None or now_entry.state_version != seen.state_version
            )
            if result.success or result.result_code != "callFailed" or not raced:
                break
            if attempt + 1 < RUN_ATTEMPTS:
                # Another message of this sender saved first (nothing of this run was): this
                # one continues from what it saved, like a gateway retrying it would.
                plan.existing, plan.start_as = target, None
                if plan.hits:
                    agent_name, plan.hits = self.account.route(
                        sender.person, query_text, plan.existing
                    )
                    plan.agent_name = agent_name or result.agent_name
                context = RunContext(
                    sys=context.sys, memory=self.identities.latest_memory(record), account=account
                )
        return result

    def _keep_records(
        self, delivery: Delivery, sender: _Sender, target: str | None, query: str, elapsed: float
    ) -> None:
        if not target:
            return
        try:
            self.turns.after_run(
                delivery, sender.record, target, sender.owner, query, sender.now, elapsed
            )
        except StoreError as exc:
            # The run is saved and answered: a retry would run it twice. What is missing
            # (the turn record, this run's memory facts) is said, not turned into a failure;
            # the link is written again by the sender's next message.
            log.warning("channel records of %s not written: %s", target, exc)
            delivery.warnings.append(
                "The answer is saved, but its turn record or memory facts could not be "
                f"written: {unavailable_message(exc)}"
            )


def _reply_text(result: ExecResult) -> str:
    """The answer as a message: its text, then a form's questions, one line each."""
    text = "\n\n".join(str(p.get("text", "")) for p in result.parts or [] if p.get("text"))
    if result.result_code == "ask" and result.ask_input:
        text = "\n\n".join(t for t in (text, questions(result.ask_input)) if t)
    return text or (result.error or "")
