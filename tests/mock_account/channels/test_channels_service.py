"""Channels, identities, memory and the Inbox through ``ChannelService``, on every backend."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest
from channel_agents import Clock
from raw_dump import raw_dump

from mock_account.channels import (
    ChannelError,
    ChannelService,
    NotAccountAdmin,
    UnknownIdentity,
    records_for,
    sweep_channels,
)
from mock_account.conversations.retention import RetentionPolicy, sweep
from mock_account.crypto import InvalidRecord
from mock_account.deployment import Deployment
from mock_account.errors import UnknownConversation
from mock_account.stores import StoreUnavailable
from mock_account.users import User

REMEMBER = "please remember that my name is Ada"
GREET = "greet me by my name please"
PARCEL = "where is my parcel"


def text(delivery) -> str:  # noqa: ANN001 - a Delivery
    return " ".join(part["text"] for part in delivery.result.parts or [])


def test_an_email_sender_writing_twice_lands_in_one_conversation(
    service: ChannelService, admin: User
) -> None:
    first = service.deliver(admin, channel="email", sender="Ada@Example.com", query=PARCEL)
    second = service.deliver(admin, channel="email", sender=" ada@example.COM ", query=PARCEL)
    assert first.result.success and second.result.success
    assert first.resumed is False and second.resumed is True
    assert second.result.convid == first.result.convid
    assert second.identity == first.identity
    detail = service.conversation(admin, first.result.convid)
    assert [t["query"] for t in detail["transcript"]] == [PARCEL, PARCEL]
    assert detail["channel"] == "email" and detail["sender"] == "ada@example.com"


def test_the_same_person_on_im_is_another_identity_with_its_own_memory(
    service: ChannelService, admin: User
) -> None:
    remembered = service.deliver(
        admin, channel="email", sender="ada@example.com", query=REMEMBER, inputs={"name": "Ada"}
    )
    assert remembered.memory_saved
    on_email = service.deliver(admin, channel="email", sender="ada@example.com", query=GREET)
    on_im = service.deliver(admin, channel="im", sender="slack:U024BE7LH", query=GREET)
    assert text(on_email) == f"Hello again Ada, on email as {on_email.identity}."
    assert text(on_im) == "Hello, I do not know your name yet (on im)."
    assert on_im.identity != on_email.identity
    assert on_im.result.convid != on_email.result.convid
    assert service.identity(admin, on_email.identity)["memory"] == {"name": "Ada"}
    assert service.identity(admin, on_im.identity)["memory"] == {}


def test_web_chats_start_fresh_but_keep_the_users_memory(
    service: ChannelService, member: User
) -> None:
    first = service.deliver(member, channel="web", query=REMEMBER, inputs={"name": "Bo"})
    second = service.deliver(member, channel="web", query=GREET)
    assert second.result.convid != first.result.convid and second.resumed is False
    assert text(second).startswith("Hello again Bo, on web")
    follow_up = service.deliver(member, channel="web", query=PARCEL, convid=second.result.convid)
    assert follow_up.resumed and follow_up.result.convid == second.result.convid
    # A web chat is the user's own conversation: it is in their list, as today.
    listed, _ = service.account.list_recent(member)
    assert {v.convid for v in listed} == {first.result.convid, second.result.convid}


def test_only_the_administrator_writes_as_others_and_reads_the_inbox(
    service: ChannelService, admin: User, member: User, deployment: Deployment
) -> None:
    with pytest.raises(NotAccountAdmin):
        service.deliver(member, channel="email", sender="ada@example.com", query=PARCEL)
    with pytest.raises(NotAccountAdmin):
        service.deliver(member, channel="web", sender=admin.email, query=PARCEL)
    with pytest.raises(NotAccountAdmin):
        service.inbox(member)
    with pytest.raises(NotAccountAdmin):
        service.conversation(member, "x" * 22)
    other = next(u for u in deployment.users.users if u.account != admin.account)
    with pytest.raises(ChannelError, match="not a user of this account"):
        service.deliver(admin, channel="web", sender=other.email, query=PARCEL)


@pytest.mark.parametrize(
    ("channel", "sender", "message"),
    [
        ("fax", "123", "channel must be one of web, widget, api"),
        ("email", "not-an-address", "is not an email address"),
        ("im", "", "sender is empty"),
        ("im", "bad id with spaces", "is not a valid id on im"),
        ("email", None, "sender is required on email"),
    ],
)
def test_bad_channels_and_senders_are_refused_saying_why(
    service: ChannelService, admin: User, channel: str, sender: str | None, message: str
) -> None:
    with pytest.raises(ChannelError, match=message):
        service.deliver(admin, channel=channel, sender=sender, query=PARCEL)


def test_a_resuming_channel_takes_no_convid_and_a_foreign_convid_is_unknown(
    service: ChannelService, admin: User, member: User
) -> None:
    mine = service.deliver(member, channel="web", query=PARCEL)
    with pytest.raises(ChannelError, match="send no convid"):
        service.deliver(
            admin, channel="email", sender="a@b.example", query=PARCEL, convid=mine.result.convid
        )
    with pytest.raises(UnknownConversation):
        service.deliver(admin, channel="web", query=PARCEL, convid=mine.result.convid)


def test_the_inbox_lists_every_channel_newest_first_filtered_and_paged(
    service: ChannelService, admin: User, member: User, clock: Clock
) -> None:
    email = service.deliver(admin, channel="email", sender="ada@example.com", query=PARCEL)
    clock.advance(seconds=5)
    im = service.deliver(admin, channel="im", sender="slack:U1", query=PARCEL)
    clock.advance(seconds=5)
    web = service.deliver(member, channel="web", query=PARCEL)
    clock.advance(seconds=5)
    dashboard = service.account.exec_agent(member, "TrackParcel", {"query": PARCEL})
    items, cursor = service.inbox(admin)
    assert [i["convid"] for i in items] == [
        dashboard.convid,
        web.result.convid,
        im.result.convid,
        email.result.convid,
    ]
    assert cursor is None
    assert [i["channel"] for i in items] == ["web", "web", "im", "email"]
    assert items[0]["identity"] is None and items[0]["sender"] == member.email
    only_im, _ = service.inbox(admin, channel="im")
    assert [i["convid"] for i in only_im] == [im.result.convid]
    page, cursor = service.inbox(admin, limit=3)
    assert len(page) == 3 and cursor is not None
    rest, last = service.inbox(admin, limit=3, cursor=cursor)
    assert [i["convid"] for i in rest] == [email.result.convid] and last is None
    with pytest.raises(ChannelError, match="nextCursor"):
        service.inbox(admin, cursor="!!not-a-cursor")
    with pytest.raises(ChannelError, match="channel must be one of"):
        service.inbox(admin, channel="fax")


def test_contacts_group_identities_for_viewing_only(service: ChannelService, admin: User) -> None:
    email = service.deliver(
        admin, channel="email", sender="ada@example.com", query=REMEMBER, inputs={"name": "Ada"}
    )
    im = service.deliver(
        admin, channel="im", sender="slack:U1", query=PARCEL, contact="Ada  Lovelace"
    )
    service.set_contact(admin, email.identity, "Ada Lovelace")
    items, _ = service.inbox(admin, contact="ada lovelace")
    assert {i["convid"] for i in items} == {email.result.convid, im.result.convid}
    assert {i["contact"] for i in items} == {"Ada Lovelace"}
    groups = service.contacts(admin)
    assert len(groups) == 1 and groups[0]["contact"] == "Ada Lovelace"
    assert {v["channel"] for v in groups[0]["identities"]} == {"email", "im"}
    # Nothing is merged: the IM identity still has its own (empty) memory.
    assert service.identity(admin, im.identity)["memory"] == {}
    with pytest.raises(UnknownIdentity):
        service.set_contact(admin, "0" * 32, "Nobody")
    service.set_contact(admin, email.identity, None)
    assert {i["convid"] for i in service.inbox(admin, contact="Ada Lovelace")[0]} == {
        im.result.convid
    }


def test_turn_records_say_who_ran_what_it_read_and_wrote_and_how_long(
    service: ChannelService, admin: User
) -> None:
    service.deliver(
        admin, channel="email", sender="ada@example.com", query=REMEMBER, inputs={"name": "Ada"}
    )
    greeted = service.deliver(admin, channel="email", sender="ada@example.com", query=GREET)
    turns = service.conversation(admin, greeted.result.convid)["turns"]
    assert [t["seq"] for t in turns] == [1, 2]
    assert turns[0]["agentName"] == "RememberMyName"
    assert turns[0]["writes"] == ["conv.note", "user.name"]
    assert turns[1]["agentName"] == "GreetMe" and turns[1]["reads"] == ["user.name"]
    assert turns[1]["resultCode"] == "success" and turns[1]["totalMs"] > 0
    assert {"restore", "run", "serialize", "encrypt", "write"} <= set(turns[1]["timingsMs"])


def test_a_deleted_conversation_leaves_no_turns_and_the_sender_starts_anew(
    service: ChannelService, admin: User, clock: Clock
) -> None:
    first = service.deliver(
        admin, channel="email", sender="ada@example.com", query=REMEMBER, inputs={"name": "Ada"}
    )
    convid = first.result.convid
    owner = service.account.store.get_entry(admin.account, convid).owner
    assert service.account.store.delete(admin.account, convid)
    assert service.records.turns(admin.account, convid) == []
    assert service.records.get_link(admin.account, convid) is None
    clock.advance(minutes=5)
    again = service.deliver(admin, channel="email", sender="ada@example.com", query=GREET)
    assert again.resumed is False and again.result.convid != convid
    assert text(again).startswith("Hello again Ada")  # the identity's memory outlives it
    assert service.account.store.get_entry(admin.account, again.result.convid).owner == owner


def test_memory_that_cannot_be_kept_fails_the_run_and_saves_nothing(
    service: ChannelService, admin: User
) -> None:
    first = service.deliver(admin, channel="email", sender="ada@example.com", query=PARCEL)
    version = service.account.store.get_entry(admin.account, first.result.convid).state_version
    huge = service.deliver(
        admin,
        channel="email",
        sender="ada@example.com",
        query="store an enormous oversized note about me",
        inputs={"blob": "x" * 70_000},
    )
    assert huge.result.result_code == "errorInAgent"
    assert "memory cannot be saved" in huge.result.error
    entry = service.account.store.get_entry(admin.account, first.result.convid)
    assert entry.state_version == version
    assert service.identity(admin, first.identity)["memory"] == {}


def test_two_first_messages_at_once_agree_on_one_conversation(
    service: ChannelService, admin: User, deployment: Deployment
) -> None:
    # Two services on one store: two server processes, whose locks do not see each other.
    other = ChannelService(deployment.account, records_for(deployment.account.store),
                           deployment.users)  # fmt: skip

    def send(n: int):  # noqa: ANN202
        chosen = service if n % 2 else other
        return chosen.deliver(admin, channel="im", sender="slack:U9", query=PARCEL)

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(send, range(6)))
    # A message that loses the race to start the conversation continues it instead.
    assert all(r.result.success for r in results), [r.result.error for r in results]
    convids = {r.result.convid for r in results}
    assert len(convids) == 1
    record = service.records.get_identity(admin.account, results[0].identity)
    assert record.convid in convids
    detail = service.conversation(admin, record.convid)
    assert len(detail["transcript"]) == 6 and len(detail["turns"]) == 6


def test_one_senders_messages_are_handled_one_at_a_time(
    service: ChannelService, admin: User
) -> None:
    with ThreadPoolExecutor(8) as pool:
        results = list(
            pool.map(
                lambda _: service.deliver(admin, channel="email", sender="x@y.example",
                                          query=PARCEL),
                range(8),
            )
        )  # fmt: skip
    assert all(r.result.success for r in results)
    assert sum(not r.resumed for r in results) == 1  # one started it, seven continued it
    assert len({r.result.convid for r in results}) == 1


def test_retention_removes_idle_identities_with_their_memory(
    service: ChannelService, admin: User, deployment: Deployment, clock: Clock
) -> None:
    email = service.deliver(
        admin, channel="email", sender="ada@example.com", query=REMEMBER, inputs={"name": "Ada"}
    )
    clock.advance(days=3)
    policy = RetentionPolicy.of(free_days=7)
    users = deployment.users.users
    assert (
        sweep_channels(
            service.records, service.account.store, users, clock(), policy
        ).deleted_identities
        == []
    )
    clock.advance(days=5)
    deleted = sweep(service.account.store, users, clock(), policy).deleted
    assert (admin.account, email.result.convid) in deleted
    report = sweep_channels(service.records, service.account.store, users, clock(), policy)
    assert report.deleted_identities == [(admin.account, email.identity)]
    assert service.records.get_identity(admin.account, email.identity) is None
    again = service.deliver(admin, channel="email", sender="ada@example.com", query=GREET)
    assert text(again) == "Hello, I do not know your name yet (on email)."


# A memory store does not survive a restart: the stores that persist.
@pytest.mark.parametrize("store_url", ["sqlite", "postgres", "redis"], indirect=True)
def test_a_returning_sender_resumes_after_a_restart(
    make_deployment: Callable[[str], Deployment], store_url: str
) -> None:
    before = make_deployment(store_url)
    admin = before.users.users[0]
    svc = ChannelService(before.account, records_for(before.account.store), before.users)
    first = svc.deliver(
        admin, channel="email", sender="ada@example.com", query=REMEMBER, inputs={"name": "Ada"}
    )
    before.close()
    after = make_deployment(store_url)
    svc = ChannelService(after.account, records_for(after.account.store), after.users)
    again = svc.deliver(admin, channel="email", sender="ada@example.com", query=GREET)
    assert again.resumed and again.result.convid == first.result.convid
    assert text(again).startswith("Hello again Ada")


def test_nothing_a_sender_wrote_is_readable_at_rest(
    service: ChannelService, admin: User, store_url: str
) -> None:
    sender, name = "zebulon.quarrie@example.com", "Zebulon Quarrie"
    first = service.deliver(
        admin, channel="email", sender=sender, query=REMEMBER, inputs={"name": name}
    )
    service.set_contact(admin, first.identity, "Zebulon Q Contact")
    record = service.records.get_identity(admin.account, first.identity)
    turns = service.records.turns(admin.account, first.result.convid)
    stored = [record.sender, record.contact, record.memory, *(t.record for t in turns)]
    for secret in (sender.encode(), b"Zebulon", b"remember that my name"):
        assert all(secret not in blob for blob in stored)
    entry = service.account.store.get_entry(admin.account, first.result.convid)
    assert sender not in entry.owner and first.identity in entry.owner
    raw = raw_dump(store_url)
    if raw is not None:
        assert first.identity.encode() in raw  # the records are really in these bytes
        for secret in (sender.encode(), b"Zebulon", b"remember that my name"):
            assert secret not in raw
    # A record copied to another identity does not open there.
    other = service.deliver(admin, channel="im", sender="slack:U7", query=PARCEL)
    with pytest.raises(InvalidRecord):
        service.sealer.open_memory(record.memory, account=admin.account, identity=other.identity)


def test_the_sweep_command_removes_idle_identities(
    make_deployment: Callable[[str], Deployment],
    tmp_path: Path,
    clock: Clock,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from mock_account.cli.commands import main

    url = f"sqlite:///{tmp_path / 'sweep' / 'conversations.db'}"
    built = make_deployment(url)
    admin = built.users.users[0]
    first = built.channels.deliver(
        admin, channel="email", sender="ada@example.com", query=REMEMBER, inputs={"name": "Ada"}
    )
    built.close()
    later = (clock() + timedelta(days=8)).isoformat()
    assert main(["sweep", "--store", url, "--data-dir", str(tmp_path), "--now", later]) == 0
    assert "1 channel identities deleted with their memory" in capsys.readouterr().out
    after = make_deployment(url)
    assert after.channels.records.get_identity(admin.account, first.identity) is None
    assert after.account.store.get_entry(admin.account, first.result.convid) is None


class _TurnsDown:
    """The channel records with turn and memory writes failing (the store went away)."""

    def __init__(self, records: object) -> None:
        self._records = records

    def __getattr__(self, name: str) -> object:
        if name in ("add_turn", "save_memory"):

            def down(*args: object, **kwargs: object) -> None:
                raise StoreUnavailable("connection lost")

            return down
        return getattr(self._records, name)


def test_records_failing_after_the_run_leave_the_answer_standing(
    service: ChannelService, admin: User
) -> None:
    healthy = service.records
    service.records = _TurnsDown(healthy)  # type: ignore[assignment]
    first = service.deliver(
        admin, channel="email", sender="ada@example.com", query=REMEMBER, inputs={"name": "Ada"}
    )
    assert first.result.success and first.result.convid
    assert first.memory_saved is False
    assert first.warnings and "could not be written" in first.warnings[0]
    service.records = healthy
    # The state was saved once: the next message resumes it, and nothing was run twice.
    again = service.deliver(admin, channel="email", sender="ada@example.com", query=PARCEL)
    assert again.resumed and again.result.convid == first.result.convid and not again.warnings
    detail = service.conversation(admin, first.result.convid)
    assert [t["query"] for t in detail["transcript"]] == [REMEMBER, PARCEL]
    assert [t["query"] for t in detail["turns"]] == [PARCEL]
    assert service.identity(admin, first.identity)["memory"] == {}
