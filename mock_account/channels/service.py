"""Messages on channels, identities, per-identity memory and the owner's Inbox.

``deliver`` is what an email gateway, an IM bot or a widget would call: a message from a sender
on a channel. The sender's identity (a keyed hash of account, channel and sender) is found or
created; on a resuming channel the identity's conversation continues (a new one starts when
it has none, or it was deleted or expired); on ``web`` and ``api`` a new chat starts unless a
``convid`` of that identity is given. The request is searched like any follow-up and the agent
runs with ``sys.channel``, ``sys.identity``, ``sys.sender`` and the identity's memory
(``user.x``); its workflow progress and actions are the identity's too (filed under the
conversation's owner, ``<channel>:<identity id>``, or the user's email on ``web``). After the
run: the conversation is linked to its channel and identity, the turn is recorded (encrypted)
and the memory the agent changed is saved (compare-and-swap, merged key by key with a
concurrent change).

The memory is saved after the conversation state: a run that fails saves neither, and a crash
between the two loses that run's memory facts, never invents any.

The Inbox is the account administrator's (the first user of each account, as
``mock-account users`` lists them): every conversation of the account from every channel.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from mock_account.channels.model import (
    DEFAULT_CHANNEL,
    ChannelError,
    NotAccountAdmin,
    UnknownIdentity,
    channel_policy,
    normalize_contact,
    normalize_sender,
)
from mock_account.channels.replies import answers_from_reply, questions
from mock_account.channels.sealing import ChannelSealer
from mock_account.conversations.account import ExecResult, MockAccount
from mock_account.conversations.vault import Restored, new_convid
from mock_account.crypto import InvalidRecord
from mock_account.engine.runtime import RunContext
from mock_account.engine.state import paused_run
from mock_account.errors import HookFailed, UnknownConversation
from mock_account.search.index import SearchHit
from mock_account.stores import (
    ConversationEntry,
    StoreError,
    VersionConflict,
    unavailable_message,
)
from mock_account.stores.channel_records import (
    ChannelRecords,
    ConversationLink,
    IdentityRecord,
)
from mock_account.users import User, UserDirectory

log = logging.getLogger(__name__)

MEMORY_RETRIES = 8
#: How often a message is run again when another message of the same sender saved first.
RUN_ATTEMPTS = 6
#: Messages of one sender are handled one at a time in a process (locks striped by identity);
#: across processes, compare-and-swap and the retries above keep them apart.
SENDER_LOCKS = 64
#: A conversation an identity points at that does not exist yet, if the identity moved to it
#: this recently, is being started by another message of the same sender: this one joins it.
STARTING_WINDOW = timedelta(seconds=30)
INBOX_PAGE_MAX = 100
UNREADABLE = "(cannot be read)"


def epoch_ms(value: datetime) -> int:
    return int(value.timestamp() * 1000)


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


class ChannelService:
    """Channels, identities, memory and the Inbox of one deployment."""

    def __init__(self, account: MockAccount, records: ChannelRecords, users: UserDirectory):
        self.account = account
        self.records = records
        self.users = users
        self.sealer = ChannelSealer(account.vault.cipher)
        self._sender_locks = [threading.Lock() for _ in range(SENDER_LOCKS)]

    # --- who may do what ---------------------------------------------------------------------

    def is_admin(self, user: User) -> bool:
        """The account's administrator: its first user in the directory."""
        first = next((u for u in self.users.users if u.account == user.account), None)
        return first is not None and first.email == user.email

    def require_admin(self, user: User) -> None:
        if not self.is_admin(user):
            raise NotAccountAdmin(
                "Only the account's administrator may see the Inbox and write as other senders."
            )

    # --- identities --------------------------------------------------------------------------

    def _owner(self, channel: str, sender: str, identity: str) -> str:
        """Whose conversation it is: a web user's own, else the identity's (no address)."""
        return sender if channel == "web" else f"{channel}:{identity}"

    def _identity(
        self, account: str, channel: str, sender: str, contact: str | None, now: datetime
    ) -> IdentityRecord:
        identity = self.sealer.identity_id(account, channel, sender)
        found = self.records.get_identity(account, identity)
        if found is None:
            found = self.records.claim_identity(
                IdentityRecord(
                    account=account,
                    identity=identity,
                    channel=channel,
                    sender=self.sealer.seal_text(
                        sender, account=account, identity=identity, purpose="identity"
                    ),
                    created=now,
                    last_seen=now,
                )
            )
        if contact is not None and found.contact is None:
            self._set_contact(account, identity, contact)
        return found

    def _set_contact(self, account: str, identity: str, contact: str | None) -> bool:
        sealed = None
        if contact is not None:
            sealed = self.sealer.seal_text(
                contact, account=account, identity=identity, purpose="contact"
            )
        digest = self.sealer.contact_hash(account, contact) if contact else ""
        return self.records.set_contact(account, identity, contact=sealed, contact_hash=digest)

    def _memory(self, record: IdentityRecord) -> dict[str, Any]:
        if record.memory is None:
            return {}
        return self.sealer.open_memory(
            record.memory, account=record.account, identity=record.identity
        )

    def _memory_of(self, record: IdentityRecord) -> dict[str, Any]:
        latest = self.records.get_identity(record.account, record.identity)
        return self._memory(latest or record)

    def _live(self, account: str, convid: str, owner: str) -> ConversationEntry | None:
        entry = self.account.store.get_entry(account, convid) if convid else None
        return entry if entry is not None and entry.owner == owner else None

    # --- delivering a message ----------------------------------------------------------------

    def deliver(
        self,
        caller: User,
        *,
        channel: str,
        sender: str | None = None,
        query: str | None = None,
        inputs: dict[str, Any] | None = None,
        agent_name: str | None = None,
        convid: str | None = None,
        contact: str | None = None,
    ) -> Delivery:
        """Deliver a message from ``sender`` on ``channel`` into their conversation.

        Anyone may write on ``web`` as themselves; writing as another sender, or on another
        channel, is the administrator's (a gateway acting for outside senders).
        """
        policy = channel_policy(channel)
        if sender is None:
            if channel != "web":
                raise ChannelError(f"sender is required on {channel}: {policy.sender}")
            sender = caller.email
        address = normalize_sender(channel, sender)
        if not (channel == "web" and address == caller.email):
            self.require_admin(caller)
        if channel == "web":
            member = self.users.by_email(address)
            if member is None or member.account != caller.account:
                raise ChannelError(f"sender {address!r} is not a user of this account")
        contact_name = normalize_contact(contact)
        inputs = dict(inputs or {})
        if query is not None:
            inputs["query"] = query
        if not agent_name and not str(inputs.get("query") or "").strip():
            raise ChannelError("a message needs a query (or an agentName with its inputs)")
        if convid and policy.resumes:
            raise ChannelError(
                f"on {channel} a sender resumes their own conversation: send no convid"
            )

        identity = self.sealer.identity_id(caller.account, channel, address)
        with self._sender_locks[int(identity[:8], 16) % SENDER_LOCKS]:
            for _ in range(2):
                try:
                    return self._deliver(
                        caller, channel, policy.resumes, address, contact_name, inputs,
                        agent_name, convid,
                    )  # fmt: skip
                except _IdentityGone:
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
        record = self._identity(account, channel, address, contact_name, now)
        identity = record.identity
        owner = self._owner(channel, address, identity)
        person = User(owner, address, account, caller.plan)

        existing: str | None = None
        start_as: str | None = None
        if convid:
            link = self.records.get_link(account, convid)
            if self._live(account, convid, owner) is None or (
                link is not None and link.identity != identity
            ):
                raise UnknownConversation(convid)
            existing = convid
        elif resumes:
            existing, start_as = self._resume_or_start(record, owner, now)
        else:
            start_as = new_convid()

        if not self.records.touch_identity(account, identity, now):
            raise _IdentityGone
        # Seen from here on, before the run writes anything under the identity: the sweep
        # deletes an identity only if it was not seen since it looked (compare-and-swap), so
        # it never takes one a run is writing for.

        query_text = str(inputs.get("query") or "")
        hits: list[SearchHit] = []
        answered: dict[str, Any] = {}
        restored: Restored | None = None  # read once: the run goes on from it
        if not agent_name and existing and channel != "web":
            # A sender with no form to fill answers it by replying (see ``replies``).
            restored = self._restore(person, existing)
            waiting = None if restored is None else paused_run(restored.state)
            if waiting is not None:
                agent_name = waiting["agent"]
                asked = waiting["paused"]["ask"]["inputs"]
                answered = {
                    **self._answered_before(account, existing, owner, agent_name, asked),
                    **answers_from_reply(asked, query_text, now.date()),
                }
                inputs = {**answered, **{k: v for k, v in inputs.items() if k != "query"}}
        if not agent_name:
            agent_name, hits = self.account.route(person, query_text, existing)
        if not agent_name:
            result = ExecResult(
                False, "callFailed", None, "", error="No agent of this account matches that."
            )
            return Delivery(channel, identity, existing is not None, result, hits)
        context = RunContext(
            sys={"channel": channel, "identity": identity, "sender": address},
            memory=self._memory(record),
            account=account,
        )
        started = time.perf_counter()
        target = existing or start_as or ""
        for attempt in range(RUN_ATTEMPTS):
            seen = self._live(account, target, owner)
            if restored is not None and (
                seen is None or seen.state_version != restored.entry.state_version
            ):
                restored = None  # saved since it was read: the run reads what is there now
            result = self.account.exec_agent(
                person,
                agent_name,
                inputs,
                existing,
                context=context,
                start_as=start_as,
                restored=restored,
            )
            restored = None  # a run that lost a race goes on from what the winner saved
            now_entry = self._live(account, target, owner)
            raced = now_entry is not None and (
                seen is None or now_entry.state_version != seen.state_version
            )
            if result.success or result.result_code != "callFailed" or not raced:
                break
            if attempt + 1 < RUN_ATTEMPTS:
                # Another message of this sender saved first (nothing of this run was): this
                # one continues from what it saved, like a gateway retrying it would.
                existing, start_as = target, None
                if hits:
                    agent_name, hits = self.account.route(person, query_text, existing)
                    agent_name = agent_name or result.agent_name
                context = RunContext(
                    sys=context.sys, memory=self._memory_of(record), account=account
                )
        elapsed = time.perf_counter() - started
        delivery = Delivery(
            channel, identity, existing is not None, result, hits,
            reply=_reply_text(result), answered=answered,
        )  # fmt: skip
        target = result.convid or existing
        if target:
            try:
                self._after_run(delivery, record, target, owner, query_text, now, elapsed)
            except StoreError as exc:
                # The run is saved and answered: a retry would run it twice. What is missing
                # (the turn record, this run's memory facts) is said, not turned into a failure;
                # the link is written again by the sender's next message.
                log.warning("channel records of %s not written: %s", target, exc)
                delivery.warnings.append(
                    "The answer is saved, but its turn record or memory facts could not be "
                    f"written: {unavailable_message(exc)}"
                )
        return delivery

    def _restore(self, person: User, convid: str) -> Restored | None:
        """The conversation's state, to see whether a form waits; None if it cannot be read
        (the run, which reads it again then, says what is wrong)."""
        try:
            return self.account.restore(person, convid)
        except (UnknownConversation, InvalidRecord, HookFailed):
            return None

    def _answered_before(
        self, account: str, convid: str, owner: str, agent: str, asked: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """What the sender's earlier replies already answered of the form that still waits
        (the turns since it was asked), so a reply need only add what is missing."""
        names = {spec["name"] for spec in asked}
        given: list[dict[str, Any]] = []
        for stored in reversed(self.records.turns(account, convid)):
            try:
                turn = self.sealer.open_turn(stored.record, convid=convid, owner=owner)
            except InvalidRecord:
                break
            if turn.get("agentName") != agent or turn.get("resultCode") != "ask":
                break
            given.append(turn.get("answered") or {})
        merged: dict[str, Any] = {}
        for answers in reversed(given):
            merged.update({k: v for k, v in answers.items() if k in names})
        return merged

    def _resume_or_start(
        self, record: IdentityRecord, owner: str, now: datetime
    ) -> tuple[str | None, str | None]:
        """``(convid to continue, None)`` or ``(None, convid to start)`` for a returning
        sender; two first messages at once agree on one conversation."""
        current = record
        for _ in range(MEMORY_RETRIES):
            if self._live(current.account, current.convid, owner) is not None:
                return current.convid, None
            if current.convid and now - current.last_seen < STARTING_WINDOW:
                # Another message of this sender is starting it right now: start it with them.
                return None, current.convid
            fresh = new_convid()
            if self.records.move_identity(
                current.account,
                current.identity,
                expected_convid=current.convid,
                convid=fresh,
                now=now,
            ):
                return None, fresh
            again = self.records.get_identity(current.account, current.identity)
            if again is None:
                raise _IdentityGone
            current = again
        raise VersionConflict("the sender's conversation kept changing; please try again")

    def _after_run(
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
        # (Seen already: ``_deliver`` marked the identity before the run, at this ``now``.)
        if not delivery.resumed and result.convid and delivery.channel in ("web", "api"):
            # The identity's latest chat (for the Inbox); another chat may have moved it first.
            self.records.move_identity(
                account, record.identity, expected_convid=record.convid, convid=convid, now=now
            )
        if result.memory is not None and result.success:
            delivery.memory_saved = self._save_memory(record, result)
        turn = {
            "at": now.isoformat(),
            "channel": delivery.channel,
            "identity": record.identity,
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
        sealed = self.sealer.seal_turn(turn, convid=convid, owner=owner)
        self.records.add_turn(account, convid, now, sealed)

    def _save_memory(self, record: IdentityRecord, result: ExecResult) -> bool:
        """Keep the facts the run wrote; a concurrent change to other facts is kept too."""
        written = {name: (result.memory or {}).get(name) for name in result.memory_writes}
        current = record
        for _ in range(MEMORY_RETRIES):
            merged = {**self._memory(current), **written}
            plain = json.dumps(merged, ensure_ascii=False, separators=(",", ":")).encode()
            sealed = self.sealer.seal_memory(
                plain, account=current.account, identity=current.identity
            )
            try:
                self.records.save_memory(
                    current.account,
                    current.identity,
                    expected_version=current.memory_version,
                    memory=sealed,
                )
                return True
            except VersionConflict:
                latest = self.records.get_identity(current.account, current.identity)
                if latest is None:
                    return False
                current = latest
        return False

    # --- identities and contacts (administrator) ---------------------------------------------

    def _open(self, record: IdentityRecord, blob: bytes | None, purpose: str) -> str | None:
        if blob is None:
            return None
        try:
            return self.sealer.open_text(
                blob, account=record.account, identity=record.identity, purpose=purpose
            )
        except (InvalidRecord, UnicodeDecodeError):
            return UNREADABLE

    def identity_view(self, record: IdentityRecord, *, memory: bool = False) -> dict[str, Any]:
        view: dict[str, Any] = {
            "identity": record.identity,
            "channel": record.channel,
            "sender": self._open(record, record.sender, "identity"),
            "contact": self._open(record, record.contact, "contact"),
            "convid": record.convid or None,
            "created": epoch_ms(record.created),
            "lastSeen": epoch_ms(record.last_seen),
        }
        if memory:
            view["memory"] = self._memory(record)
        return view

    def identity(self, caller: User, identity: str) -> dict[str, Any]:
        """One identity with its memory (the administrator's view)."""
        self.require_admin(caller)
        record = self.records.get_identity(caller.account, identity)
        if record is None:
            raise UnknownIdentity(UnknownIdentity.MESSAGE)
        return self.identity_view(record, memory=True)

    def identity_owner(self, caller: User, identity: str) -> str:
        """Whom an identity's runs file workflow progress and actions under, so the
        administrator can follow them and approve for a sender who has no dashboard."""
        self.require_admin(caller)
        record = self.records.get_identity(caller.account, identity)
        if record is None:
            raise UnknownIdentity(UnknownIdentity.MESSAGE)
        if record.channel != "web":
            return self._owner(record.channel, "", record.identity)
        sender = self._open(record, record.sender, "identity")
        if sender is None or sender == UNREADABLE:
            # Without its sender a web identity names nobody's records.
            raise UnknownIdentity(UnknownIdentity.MESSAGE)
        return sender

    def set_contact(self, caller: User, identity: str, contact: str | None) -> None:
        """Group an identity under a contact (for viewing only), or take it out (``None``)."""
        self.require_admin(caller)
        name = normalize_contact(contact)
        if not self._set_contact(caller.account, identity, name):
            raise UnknownIdentity(UnknownIdentity.MESSAGE)

    def contacts(self, caller: User) -> list[dict[str, Any]]:
        """Identities grouped by contact; an identity without one is a contact of its own."""
        self.require_admin(caller)
        groups: dict[str, dict[str, Any]] = {}
        for record in self.records.list_identities(caller.account):
            view = self.identity_view(record)
            name = view["contact"] or view["sender"] or record.identity
            group = groups.setdefault(name.casefold(), {"contact": name, "identities": []})
            group["identities"].append(view)
        for group in groups.values():
            group["identities"].sort(key=lambda v: -v["lastSeen"])
        return sorted(groups.values(), key=lambda g: -max(v["lastSeen"] for v in g["identities"]))

    # --- the Inbox ---------------------------------------------------------------------------

    def inbox(
        self,
        caller: User,
        *,
        channel: str | None = None,
        contact: str | None = None,
        identity: str | None = None,
        limit: int = 25,
        cursor: str | None = None,
    ) -> tuple[list[dict[str, Any]], str | None]:
        """Every conversation of the account, newest first, one page (keyset cursor)."""
        self.require_admin(caller)
        if channel is not None:
            channel_policy(channel)
        if not 1 <= limit <= INBOX_PAGE_MAX:
            raise ChannelError(f"limit must be between 1 and {INBOX_PAGE_MAX}")
        after = _parse_cursor(cursor) if cursor else None
        wanted_contact = normalize_contact(contact)
        account = caller.account
        links = {link.convid: link for link in self.records.links(account)}
        identities = {r.identity: r for r in self.records.list_identities(account)}
        views: dict[str, dict[str, Any]] = {}
        items: list[tuple[int, str, dict[str, Any]]] = []
        for entry in self.account.store.iter_entries(account):
            item = self._item(entry, links.get(entry.convid), identities, views)
            if channel is not None and item["channel"] != channel:
                continue
            if identity is not None and item["identity"] != identity:
                continue
            if wanted_contact is not None and (
                (item["contact"] or "").casefold() != wanted_contact.casefold()
            ):
                continue
            items.append((int(entry.last_used.timestamp() * 1_000_000), entry.convid, item))
        items.sort(key=lambda t: (t[0], t[1]), reverse=True)
        if after is not None:
            items = [t for t in items if (t[0], t[1]) < after]
        page = items[:limit]
        next_cursor = _make_cursor(page[-1][0], page[-1][1]) if len(items) > limit else None
        return [t[2] for t in page], next_cursor

    def _item(
        self,
        entry: ConversationEntry,
        link: ConversationLink | None,
        identities: dict[str, IdentityRecord],
        views: dict[str, dict[str, Any]],
    ) -> dict[str, Any]:
        record = identities.get(link.identity) if link is not None else None
        if record is not None and record.identity not in views:
            views[record.identity] = self.identity_view(record)
        view = views.get(record.identity) if record is not None else None
        if view is not None:
            sender, contact = view["sender"], view["contact"] or view["sender"]
        else:
            # A dashboard chat (execAgent): its user is the sender and the contact.
            sender = contact = entry.owner if "@" in entry.owner else None
        return {
            "convid": entry.convid,
            "channel": link.channel if link is not None else DEFAULT_CHANNEL,
            "identity": link.identity if link is not None else None,
            "sender": sender,
            "contact": contact,
            "title": self.account.vault.title(entry),
            "lastAgent": entry.last_agent or None,
            "created": epoch_ms(entry.created),
            "lastUsed": epoch_ms(entry.last_used),
        }

    def conversation(self, caller: User, convid: str) -> dict[str, Any]:
        """One conversation of the account: its item, transcript and turn-by-turn record."""
        self.require_admin(caller)
        account = caller.account
        entry = self.account.store.get_entry(account, convid)
        if entry is None:
            raise UnknownConversation(convid)
        link = self.records.get_link(account, convid)
        identities: dict[str, IdentityRecord] = {}
        if link is not None:
            record = self.records.get_identity(account, link.identity)
            if record is not None:
                identities[record.identity] = record
        item = self._item(entry, link, identities, {})
        restored = self.account.vault.restore(account, entry.owner, convid)
        runs = restored.state.get("runs") or []
        item["transcript"] = [
            {
                "query": run["inputs"].get("query", ""),
                "answers": run["inputs"].get("answers"),
                "response": run["output"],
                "resultCode": run["resultCode"],
                "respondedAt": run["ranAt"],
            }
            for run in runs
        ]
        turns = []
        for stored in self.records.turns(account, convid):
            try:
                turn = self.sealer.open_turn(stored.record, convid=convid, owner=entry.owner)
            except InvalidRecord:
                turn = {"at": stored.at.isoformat(), "error": UNREADABLE}
            turns.append({"seq": stored.seq, **turn})
        if not turns:
            # A conversation from execAgent: its saved runs say who ran and what they touched.
            turns = [
                {
                    "seq": index,
                    "at": run["ranAt"],
                    "channel": item["channel"],
                    "query": run["inputs"].get("query", ""),
                    "agentName": run["agent"],
                    "resultCode": run["resultCode"],
                    "reads": [f"conv.{n}" for n in run.get("reads") or []],
                    "writes": [f"conv.{n}" for n in run.get("writes") or []],
                }
                for index, run in enumerate(runs, start=1)
            ]
        item["turns"] = turns
        return item

    # --- retention ---------------------------------------------------------------------------

    def forget_orphans(self) -> int:
        """Drop links and turns whose conversation is gone (a backend that cannot cascade)."""
        dropped = 0
        for link in list(self.records.iter_links()):
            if self.account.store.get_entry(link.account, link.convid) is None:
                self.records.forget_conversation(link.account, link.convid)
                dropped += 1
        return dropped


def _reply_text(result: ExecResult) -> str:
    """The answer as a message: its text, then a form's questions, one line each."""
    text = "\n\n".join(str(p.get("text", "")) for p in result.parts or [] if p.get("text"))
    if result.result_code == "ask" and result.ask_input:
        text = "\n\n".join(t for t in (text, questions(result.ask_input)) if t)
    return text or (result.error or "")


class _IdentityGone(Exception):
    """The identity was deleted by the retention sweep while a message was being routed."""


def _make_cursor(micros: int, convid: str) -> str:
    return base64.urlsafe_b64encode(f"{micros}:{convid}".encode()).decode().rstrip("=")


def _parse_cursor(cursor: str) -> tuple[int, str]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        micros, convid = base64.urlsafe_b64decode(padded.encode()).decode().split(":", 1)
        return int(micros), convid
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise ChannelError("nextCursor: not a cursor this server handed out") from None
