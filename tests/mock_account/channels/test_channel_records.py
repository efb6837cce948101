"""The ``ChannelRecords`` contract on every store backend (also behind group commit)."""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
from server_stores import BACKENDS, store_fixture

from mock_account.channels import records_for
from mock_account.channels.records import ChannelRecords, ConversationLink, IdentityRecord
from mock_account.stores import ConversationStore, VersionConflict

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
ACCOUNT = "acme"


store = store_fixture(BACKENDS, "chrecords", "store")


@pytest.fixture
def records(store: ConversationStore) -> ChannelRecords:
    return records_for(store)


def conversation(store: ConversationStore, convid: str, account: str = ACCOUNT) -> None:
    store.commit_run(
        account=account,
        convid=convid,
        owner="email:abc",
        expected_version=0,
        blob=b"state",
        now=T0,
        title_if_new=b"title",
    )


def identity(name: str = "a" * 32, account: str = ACCOUNT, convid: str = "") -> IdentityRecord:
    return IdentityRecord(account, name, "email", b"sealed-sender", T0, T0, convid=convid)


def test_claiming_an_identity_twice_keeps_the_first(records: ChannelRecords) -> None:
    first = records.claim_identity(identity(convid="one"))
    again = records.claim_identity(dataclasses.replace(identity(convid="two"), sender=b"other"))
    assert again == first and again.convid == "one" and again.sender == b"sealed-sender"
    assert records.get_identity(ACCOUNT, "a" * 32) == first
    assert records.get_identity("globex", "a" * 32) is None
    assert [r.identity for r in records.list_identities(ACCOUNT)] == ["a" * 32]
    assert records.list_identities("globex") == []


def test_moving_an_identity_is_compare_and_swap(records: ChannelRecords) -> None:
    records.claim_identity(identity())
    later = T0 + timedelta(minutes=1)
    assert records.move_identity(ACCOUNT, "a" * 32, expected_convid="", convid="c1", now=later)
    assert not records.move_identity(ACCOUNT, "a" * 32, expected_convid="", convid="c2", now=later)
    moved = records.get_identity(ACCOUNT, "a" * 32)
    assert moved.convid == "c1" and moved.last_seen == later
    assert records.touch_identity(ACCOUNT, "a" * 32, T0)  # never backwards
    assert records.get_identity(ACCOUNT, "a" * 32).last_seen == later
    assert not records.move_identity(ACCOUNT, "b" * 32, expected_convid="", convid="x", now=T0)
    assert not records.touch_identity(ACCOUNT, "b" * 32, T0)


def test_concurrent_moves_let_exactly_one_win(records: ChannelRecords) -> None:
    records.claim_identity(identity())

    def move(n: int) -> bool:
        return records.move_identity(ACCOUNT, "a" * 32, expected_convid="", convid=f"c{n}", now=T0)

    with ThreadPoolExecutor(8) as pool:
        assert sum(pool.map(move, range(16))) == 1


def test_memory_is_compare_and_swap_on_its_version(records: ChannelRecords) -> None:
    records.claim_identity(identity())
    assert records.save_memory(ACCOUNT, "a" * 32, expected_version=0, memory=b"m1") == 1
    with pytest.raises(VersionConflict):
        records.save_memory(ACCOUNT, "a" * 32, expected_version=0, memory=b"lost")
    assert records.save_memory(ACCOUNT, "a" * 32, expected_version=1, memory=b"m2") == 2
    stored = records.get_identity(ACCOUNT, "a" * 32)
    assert (stored.memory, stored.memory_version) == (b"m2", 2)
    with pytest.raises(VersionConflict):
        records.save_memory(ACCOUNT, "b" * 32, expected_version=0, memory=b"nobody")


def test_contacts_are_set_and_cleared(records: ChannelRecords) -> None:
    records.claim_identity(identity())
    assert records.set_contact(ACCOUNT, "a" * 32, contact=b"sealed", contact_hash="h1")
    stored = records.get_identity(ACCOUNT, "a" * 32)
    assert (stored.contact, stored.contact_hash) == (b"sealed", "h1")
    assert records.set_contact(ACCOUNT, "a" * 32, contact=None, contact_hash="")
    stored = records.get_identity(ACCOUNT, "a" * 32)
    assert (stored.contact, stored.contact_hash) == (None, "")
    assert not records.set_contact(ACCOUNT, "b" * 32, contact=b"x", contact_hash="x")


def test_deleting_an_identity(records: ChannelRecords) -> None:
    records.claim_identity(identity())
    assert records.delete_identity(ACCOUNT, "a" * 32)
    assert not records.delete_identity(ACCOUNT, "a" * 32)
    assert records.get_identity(ACCOUNT, "a" * 32) is None
    assert records.list_identities(ACCOUNT) == []


def test_deleting_an_identity_unless_seen_since(records: ChannelRecords) -> None:
    """The sweep's delete is compare-and-swap on ``last_seen``: a sender seen meanwhile keeps
    the identity."""
    records.claim_identity(identity())
    assert records.touch_identity(ACCOUNT, "a" * 32, T0 + timedelta(seconds=1))
    assert not records.delete_identity(ACCOUNT, "a" * 32, last_seen=T0)
    assert records.get_identity(ACCOUNT, "a" * 32) is not None
    seen = T0 + timedelta(seconds=1)
    assert records.delete_identity(ACCOUNT, "a" * 32, last_seen=seen)
    assert records.get_identity(ACCOUNT, "a" * 32) is None
    assert not records.delete_identity(ACCOUNT, "a" * 32, last_seen=seen)


def test_links_and_turns_need_their_conversation_and_go_with_it(
    store: ConversationStore, records: ChannelRecords
) -> None:
    link = ConversationLink(ACCOUNT, "conv1", "email", "a" * 32, T0)
    assert not records.link_conversation(link)
    assert records.add_turn(ACCOUNT, "conv1", T0, b"turn") == 0
    assert records.get_link(ACCOUNT, "conv1") is None and records.turns(ACCOUNT, "conv1") == []
    conversation(store, "conv1")
    conversation(store, "conv2")
    assert records.link_conversation(link)
    assert records.link_conversation(dataclasses.replace(link, channel="im"))  # first kept
    assert records.get_link(ACCOUNT, "conv1") == link
    assert [records.add_turn(ACCOUNT, "conv1", T0, f"t{i}".encode()) for i in range(3)] == [1, 2, 3]
    assert records.add_turn(ACCOUNT, "conv2", T0, b"other") == 1
    assert [t.record for t in records.turns(ACCOUNT, "conv1")] == [b"t0", b"t1", b"t2"]
    assert [t.seq for t in records.turns(ACCOUNT, "conv1")] == [1, 2, 3]
    assert records.turns(ACCOUNT, "conv1")[0].at == T0
    assert [x.convid for x in records.links(ACCOUNT)] == ["conv1"]
    assert store.delete(ACCOUNT, "conv1")
    assert records.get_link(ACCOUNT, "conv1") is None
    assert records.turns(ACCOUNT, "conv1") == []
    assert records.links(ACCOUNT) == [] and list(records.iter_links()) == []
    assert [t.record for t in records.turns(ACCOUNT, "conv2")] == [b"other"]


def test_concurrent_turns_are_numbered_without_gaps(
    store: ConversationStore, records: ChannelRecords
) -> None:
    conversation(store, "conv1")
    with ThreadPoolExecutor(8) as pool:
        seqs = list(pool.map(lambda n: records.add_turn(ACCOUNT, "conv1", T0, b"t"), range(24)))
    assert sorted(seqs) == list(range(1, 25))


def test_accounts_never_see_each_other(store: ConversationStore, records: ChannelRecords) -> None:
    records.claim_identity(identity())
    records.claim_identity(identity(account="globex"))
    conversation(store, "conv1")
    conversation(store, "conv1", account="globex")
    records.link_conversation(ConversationLink(ACCOUNT, "conv1", "email", "a" * 32, T0))
    records.add_turn(ACCOUNT, "conv1", T0, b"acme turn")
    assert records.get_link("globex", "conv1") is None
    assert records.turns("globex", "conv1") == []
    assert records.save_memory("globex", "a" * 32, expected_version=0, memory=b"g") == 1
    assert records.get_identity(ACCOUNT, "a" * 32).memory is None
    assert {(r.account, r.identity) for r in records.list_identities()} == {
        (ACCOUNT, "a" * 32),
        ("globex", "a" * 32),
    }


def test_resealing_swaps_only_what_is_still_there(
    store: ConversationStore, records: ChannelRecords
) -> None:
    records.claim_identity(identity())
    records.save_memory(ACCOUNT, "a" * 32, expected_version=0, memory=b"m1")
    assert records.reseal_identity(ACCOUNT, "a" * 32, "sender", b"sealed-sender", b"s2")
    assert not records.reseal_identity(ACCOUNT, "a" * 32, "sender", b"sealed-sender", b"s3")
    assert records.reseal_identity(ACCOUNT, "a" * 32, "memory", b"m1", b"m1-again")
    assert not records.reseal_identity(ACCOUNT, "a" * 32, "contact", b"none", b"x")
    stored = records.get_identity(ACCOUNT, "a" * 32)
    assert (stored.sender, stored.memory, stored.memory_version) == (b"s2", b"m1-again", 1)
    with pytest.raises(ValueError, match="not an encrypted field"):
        records.reseal_identity(ACCOUNT, "a" * 32, "channel", b"email", b"x")  # type: ignore[arg-type]
    conversation(store, "conv1")
    records.add_turn(ACCOUNT, "conv1", T0, b"t1")
    records.add_turn(ACCOUNT, "conv1", T0, b"t2")
    assert records.reseal_turn(ACCOUNT, "conv1", 2, b"t2", b"t2-again")
    assert not records.reseal_turn(ACCOUNT, "conv1", 1, b"other", b"x")
    assert not records.reseal_turn(ACCOUNT, "conv1", 3, b"t2", b"x")
    turns = records.turns(ACCOUNT, "conv1")
    assert [t.record for t in turns] == [b"t1", b"t2-again"] and turns[1].at == T0
