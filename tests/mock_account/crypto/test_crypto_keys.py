"""Keyring: checked keys, generation, rotation, no key bytes in reprs."""

from __future__ import annotations

import os

import pytest

from mock_account.crypto import InvalidRecord, Keyring, KeyringError, KeySource

KEY = bytes(range(32))


def test_last_key_is_current() -> None:
    keyring = Keyring([("a", os.urandom(32)), ("b", KEY)])
    assert keyring.key_ids == ("a", "b")
    assert keyring.current_key_id() == "b"
    assert keyring.key("b") == KEY
    assert len(keyring) == 2
    assert isinstance(keyring, KeySource)


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ([], "at least one key"),
        ([("k1", bytes(31))], "must be 32 bytes, found 31"),
        ([("k1", bytes(33))], "must be 32 bytes, found 33"),
        ([("k1", "x" * 32)], "must be bytes"),
        ([("", KEY)], "invalid"),
        ([("k 1", KEY)], "invalid"),
        ([("k1\n", KEY)], "invalid"),
        ([("é", KEY)], "invalid"),
        ([("k" * 65, KEY)], "invalid"),
        ([(1, KEY)], "invalid"),
        ([("k1", KEY), ("k1", os.urandom(32))], "duplicate key id 'k1'"),
    ],
)
def test_constructor_checks_keys(keys: list, message: str) -> None:
    with pytest.raises(KeyringError, match=message) as excinfo:
        Keyring(keys)
    assert "\n" not in str(excinfo.value)


def test_longest_key_id_is_accepted() -> None:
    assert Keyring([("A-z_9" * 12 + "abcd", KEY)]).current_key_id() == "A-z_9" * 12 + "abcd"


def test_unknown_key_id_is_opaque() -> None:
    with pytest.raises(InvalidRecord):
        Keyring([("k1", KEY)]).key("k2")


def test_generate_and_rotate() -> None:
    first = Keyring.generate()
    assert len(first) == 1 and len(first.key(first.current_key_id())) == 32
    second = first.rotated()
    assert first.key_ids == second.key_ids[:1]  # the original keyring is unchanged
    assert len(set(second.key_ids)) == 2
    assert second.key(first.current_key_id()) == first.key(first.current_key_id())
    assert second.key(second.current_key_id()) != first.key(first.current_key_id())
    assert Keyring.generate().current_key_id() != first.current_key_id()


def test_rotate_with_an_existing_id_is_refused() -> None:
    with pytest.raises(KeyringError, match="duplicate"):
        Keyring([("k1", KEY)]).rotated("k1")


def test_repr_shows_ids_only() -> None:
    keyring = Keyring([("k1", KEY)])
    assert repr(keyring) == "Keyring(key_ids=['k1'])"
    assert KEY.hex() not in repr(keyring) and repr(KEY) not in repr(keyring)
