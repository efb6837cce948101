"""Retention: days without use per plan, counted from the later of the last run and last read."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sec_support import T0, TRIP, Base, FakeClock, converse

from mock_account.cli import main
from mock_account.conversations.hooks import load_hooks
from mock_account.conversations.retention import RetentionPolicy, start_sweeper, sweep
from mock_account.crypto import StateCipher, load_or_create_keyring
from mock_account.stores import ConversationStore, open_store


def _started(account, user) -> str:
    result = converse(account, user, TRIP)
    assert result.success, result.error
    return result.convid


def _alive(account, user, convid: str) -> bool:
    return account.store.get_entry(user.account, convid) is not None


def test_a_free_conversation_goes_after_seven_days_without_use(base: Base, make_account) -> None:
    clock = FakeClock()
    account = make_account(clock=clock)
    alice = base.user("acme")
    convid = _started(account, alice)

    kept = sweep(account.store, base.users, T0 + timedelta(days=6, hours=23))
    assert kept.deleted == [] and kept.kept == 1 and _alive(account, alice, convid)

    gone = sweep(account.store, base.users, T0 + timedelta(days=7, hours=1))
    assert gone.deleted == [("acme", convid)] and not _alive(account, alice, convid)


def test_a_read_extends_the_life_of_a_conversation(base: Base, make_account) -> None:
    clock = FakeClock()
    account = make_account(clock=clock)
    alice = base.user("acme")
    opened, inspected = _started(account, alice), _started(account, alice)

    clock.advance(days=5)
    account.get_conversation(alice, opened)
    account.state_view(alice, inspected)

    at = T0 + timedelta(days=7, hours=1)
    assert sweep(account.store, base.users, at).deleted == []
    later = sweep(account.store, base.users, T0 + timedelta(days=12, hours=1))
    assert sorted(later.deleted) == sorted([("acme", opened), ("acme", inspected)])


def test_a_run_that_saves_nothing_still_counts_as_use(base: Base, make_account) -> None:
    clock = FakeClock()
    account = make_account(clock=clock)
    alice = base.user("acme")
    convid = _started(account, alice)
    clock.advance(days=5)
    version = account.store.get_entry(alice.account, convid).state_version
    stopped = threading.Event()
    stopped.set()  # the run is stopped at once: it ends without saving
    failed = account.exec_agent(alice, "BookBusinessFlight", {"query": TRIP}, convid, stopped)
    assert failed.result_code == "stopped", failed
    entry = account.store.get_entry(alice.account, convid)
    assert entry.state_version == version, failed  # nothing was saved...
    assert entry.last_used == clock.now  # ...but the conversation was used


def test_pinned_and_paid_conversations_are_kept(base: Base, make_account) -> None:
    account = make_account()
    alice, carol = base.user("acme"), base.user("globex")
    pinned = _started(account, alice)
    account.set_pinned(alice, pinned, True)
    paid = _started(account, carol)

    report = sweep(account.store, base.users, T0 + timedelta(days=400))
    assert report.deleted == [] and report.kept == 2

    stricter = RetentionPolicy.of(free_days=7, paid_days=30)
    report = sweep(account.store, base.users, T0 + timedelta(days=31), stricter)
    assert report.deleted == [("globex", paid)] and _alive(account, alice, pinned)


def test_an_unknown_owner_is_kept(base: Base, make_account) -> None:
    account = make_account()
    convid = _started(account, base.user("acme"))
    report = sweep(account.store, [], T0 + timedelta(days=400))
    assert report.deleted == [] and report.kept == 1 and convid


def test_retention_is_configurable_and_checked() -> None:
    policy = RetentionPolicy.of(free_days=1.5, paid_days=None)
    assert policy.limit("free") == timedelta(days=1.5) and policy.limit("paid") is None
    with pytest.raises(ValueError, match="positive"):
        RetentionPolicy.of(free_days=0)


def test_with_state_hooks_the_sweep_removes_the_entry_and_leaves_the_state(
    base: Base, make_account, hooks_dir: Path
) -> None:
    account = make_account(state_hooks=load_hooks("mock_account.conversations.example_hooks"))
    alice = base.user("acme")
    convid = _started(account, alice)
    report = sweep(account.store, base.users, T0 + timedelta(days=8))
    assert report.deleted == [("acme", convid)]
    assert (hooks_dir / f"{convid}.json").exists()  # deleteConversation was not called


def test_sweep_command_deletes_at_the_given_time(
    base: Base, make_account, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'conversations.db'}"
    cipher = StateCipher(load_or_create_keyring(tmp_path / "keyring.json"))
    with open_store(url) as store:
        old = _started(make_account(store, cipher=cipher), base.user("acme"))
        fresh = _started(
            make_account(store, cipher=cipher, clock=FakeClock(T0 + timedelta(days=6))),
            base.user("acme", 1),
        )
    args = ["sweep", "--store", url, "--data-dir", str(tmp_path)]
    assert main([*args, "--now", (T0 + timedelta(days=7, hours=1)).isoformat()]) == 0
    out = capsys.readouterr().out
    assert f"deleted acme/{old}" in out and fresh not in out and "1 deleted, 1 kept" in out

    assert main([*args, "--now", "2026-03-20T00:00", "--free-days", "none"]) == 0
    assert "0 deleted, 1 kept" in capsys.readouterr().out

    with pytest.raises(SystemExit) as caught:
        main([*args, "--now", "yesterday"])
    assert caught.value.code == 2 and "not an ISO time" in capsys.readouterr().err


class _Watched:
    """A store that reports each deletion, so a test waits for the sweeper instead of sleeping."""

    def __init__(self, store: ConversationStore) -> None:
        self._store = store
        self.deleted = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def delete(self, account: str, convid: str) -> bool:
        done = self._store.delete(account, convid)
        self.deleted.set()
        return done


def test_the_background_sweeper_deletes_expired_conversations(base: Base, make_account) -> None:
    clock = FakeClock()
    account = make_account(clock=clock)
    alice = base.user("acme")
    convid = _started(account, alice)
    watched = _Watched(account.store)
    account.vault.store = watched  # type: ignore[assignment]
    clock.advance(days=8)
    stop = threading.Event()
    thread = start_sweeper(account, 0.01, stop, users=base.users)
    try:
        assert watched.deleted.wait(30)
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive()
    assert not _alive(account, alice, convid)
