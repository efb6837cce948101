"""Key rotation: old records stay readable, re-encryption moves everything to the new key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sec_support import EXPENSES, TRIP, Base, converse

from mock_account.cli import main
from mock_account.conversations.key_rotation import key_status, reencrypt_store
from mock_account.crypto import (
    StateCipher,
    load_keyring_file,
    load_or_create_keyring,
    record_key_id,
    rotate_keyring_file,
)
from mock_account.stores import ConversationStore, VersionConflict, open_store


def _fill(account, base: Base, count: int) -> list[tuple[Any, str]]:
    made = []
    users = [base.user("acme", 0), base.user("acme", 1), base.user("globex", 0)]
    for n in range(count):
        user = users[n % len(users)]
        result = converse(account, user, TRIP)
        assert result.success, result.error
        made.append((user, result.convid))
    return made


def _key_ids(store: ConversationStore) -> set[str]:
    found = set()
    for entry in store.iter_entries():
        stored = store.load(entry.account, entry.convid)
        found |= {record_key_id(stored.entry.title), record_key_id(stored.blob)}
    return found


def test_old_records_stay_readable_and_reencrypt_moves_all_to_the_new_key(
    base: Base, make_account, tmp_path: Path
) -> None:
    keyring_path = tmp_path / "keyring.json"
    old_keyring = load_or_create_keyring(keyring_path)
    old_account = make_account(cipher=StateCipher(old_keyring))
    made = _fill(old_account, base, 4)
    states = {convid: old_account.state_view(user, convid)["state"] for user, convid in made}
    titles = {convid: old_account.get_conversation(user, convid).title for user, convid in made}

    new_id = rotate_keyring_file(keyring_path)
    cipher = StateCipher(load_keyring_file(keyring_path))
    account = make_account(old_account.store, cipher=cipher)
    for user, convid in made:  # old records open with the rotated keyring
        assert account.state_view(user, convid)["state"] == states[convid]
        assert account.get_conversation(user, convid).title == titles[convid]
    follow = converse(account, made[0][0], EXPENSES, made[0][1])
    assert follow.success, follow.error
    states[made[0][1]] = account.state_view(made[0][0], made[0][1])["state"]

    before = key_status(account.store)
    assert before.titles[old_keyring.current_key_id()] == 4
    assert before.states[new_id] == 1 and before.states[old_keyring.current_key_id()] == 3

    report = reencrypt_store(account.store, cipher, batch=2)
    assert (report.states, report.titles, report.current) == (3, 4, 1)
    assert report.unreadable == [] and report.gave_up == []
    assert _key_ids(account.store) == {new_id}
    for user, convid in made:
        assert account.state_view(user, convid)["state"] == states[convid]
        assert account.get_conversation(user, convid).title == titles[convid]

    again = reencrypt_store(account.store, cipher)
    assert (again.states, again.titles, again.current) == (0, 0, 8)


class _Interrupting:
    """A store that stops the process (an exception) after ``budget`` state replacements."""

    def __init__(self, store: ConversationStore, budget: int) -> None:
        self._store = store
        self._budget = budget

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def replace_blob(self, *args: Any, **kwargs: Any) -> None:
        if self._budget == 0:
            raise KeyboardInterrupt
        self._budget -= 1
        self._store.replace_blob(*args, **kwargs)


def test_an_interrupted_reencryption_resumes_and_completes(base: Base, make_account) -> None:
    old = make_account()
    made = _fill(old, base, 5)
    states = {convid: old.state_view(user, convid)["state"] for user, convid in made}
    cipher = StateCipher(old.vault.cipher.keys.rotated())  # type: ignore[attr-defined]

    with pytest.raises(KeyboardInterrupt):
        reencrypt_store(_Interrupting(old.store, 2), cipher)  # type: ignore[arg-type]
    partial = key_status(old.store)
    assert partial.states[cipher.keys.current_key_id()] == 2
    assert sum(partial.states.values()) == 5

    report = reencrypt_store(old.store, cipher)
    assert report.states == 3 and report.current >= 2
    assert _key_ids(old.store) == {cipher.keys.current_key_id()}
    account = make_account(old.store, cipher=cipher)
    for user, convid in made:
        assert account.state_view(user, convid)["state"] == states[convid]


class _Racing:
    """A store where a follow-up saves just before the first re-encrypted state is written."""

    def __init__(self, store: ConversationStore, race: Any) -> None:
        self._store = store
        self._race = race

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def replace_blob(self, *args: Any, **kwargs: Any) -> None:
        if self._race is not None:
            race, self._race = self._race, None
            race()
        self._store.replace_blob(*args, **kwargs)


def test_a_concurrent_save_is_not_overwritten_by_reencryption(base: Base, make_account) -> None:
    old = make_account()
    alice = base.user("acme")
    first = converse(old, alice, TRIP)
    cipher = StateCipher(old.vault.cipher.keys.rotated())  # type: ignore[attr-defined]

    def follow_up() -> None:
        assert converse(old, alice, EXPENSES, first.convid).success  # saved with the old key

    report = reencrypt_store(_Racing(old.store, follow_up), cipher)  # type: ignore[arg-type]
    assert report.conflicts == 1 and report.states == 1
    state = make_account(old.store, cipher=cipher).state_view(alice, first.convid)["state"]
    assert len(state["runs"]) >= 2  # the follow-up's state survived, now on the new key
    assert _key_ids(old.store) == {cipher.keys.current_key_id()}


def test_a_record_that_cannot_be_opened_is_reported_and_left_alone(
    base: Base, make_account
) -> None:
    old = make_account()
    alice = base.user("acme")
    first = converse(old, alice, TRIP)
    stored = old.store.load(alice.account, first.convid)
    tampered = bytearray(stored.blob)
    tampered[-1] ^= 1
    old.store.replace_blob(
        alice.account,
        first.convid,
        expected_version=stored.entry.state_version,
        blob=bytes(tampered),
    )
    cipher = StateCipher(old.vault.cipher.keys.rotated())  # type: ignore[attr-defined]
    report = reencrypt_store(old.store, cipher)
    assert report.unreadable == [f"acme/{first.convid} state"]
    assert old.store.load(alice.account, first.convid).blob == bytes(tampered)


def test_keys_commands_rotate_report_and_reencrypt(
    base: Base, make_account, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'conversations.db'}"
    keyring = load_or_create_keyring(tmp_path / "keyring.json")
    with open_store(url) as store:
        _fill(make_account(store, cipher=StateCipher(keyring)), base, 3)
    old_id = keyring.current_key_id()

    assert main(["keys", "rotate", "--data-dir", str(tmp_path)]) == 0
    new_id = capsys.readouterr().out.strip()
    assert new_id != old_id and load_keyring_file(tmp_path / "keyring.json").key_ids[-1] == new_id

    assert main(["keys", "status", "--store", url, "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"{old_id}: 3 states, 3 titles" in out and f"{new_id} (current): 0 states" in out

    args = ["keys", "reencrypt", "--store", url, "--data-dir", str(tmp_path), "--batch", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "states re-encrypted: 3" in out and "titles re-encrypted: 3" in out

    assert main(["keys", "status", "--store", url, "--data-dir", str(tmp_path)]) == 0
    assert f"{new_id} (current): 3 states, 3 titles" in capsys.readouterr().out


def test_keys_commands_refuse_bad_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "rotate", "--data-dir", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and err.count("\n") == 1
    with pytest.raises(SystemExit) as caught:
        main(["keys", "reencrypt", "--store", "memory://", "--batch", "0"])
    assert caught.value.code == 2
    assert "at least 1" in capsys.readouterr().err


def test_a_conflict_retry_budget_is_reported(base: Base, make_account) -> None:
    old = make_account()
    first = converse(old, base.user("acme"), TRIP)
    cipher = StateCipher(old.vault.cipher.keys.rotated())  # type: ignore[attr-defined]

    class _AlwaysBusy(_Racing):
        def replace_blob(self, *args: Any, **kwargs: Any) -> None:
            raise VersionConflict("busy")

    report = reencrypt_store(_AlwaysBusy(old.store, None), cipher, retries=2)  # type: ignore
    assert report.gave_up == [f"acme/{first.convid} state"] and report.conflicts == 3
