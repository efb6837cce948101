"""MigratingKeys: the new source encrypts, a record of either source opens, ids never clash."""

from __future__ import annotations

import os

import pytest

from mock_account.crypto import (
    EnterpriseKeySource,
    InvalidRecord,
    Keyring,
    KeyringError,
    MigratingKeys,
    StateCipher,
    record_key_id,
)

CONTEXT = {"convid": "AbCdEfGhIjKlMnOpQrStUv", "owner": "alice@example.com", "purpose": "state"}
HSM = os.urandom(32)


def _hook_calls() -> tuple[EnterpriseKeySource, list[str]]:
    calls: list[str] = []

    def hook(event: dict[str, str]) -> bytes:
        calls.append(event["keyName"])
        return HSM

    return EnterpriseKeySource(hook, ["hsm-1"]), calls


def test_the_new_source_encrypts_and_both_decrypt() -> None:
    keyring = Keyring([("k1", os.urandom(32))])
    old_blob = StateCipher(keyring).encrypt(b"old", **CONTEXT)
    enterprise, _ = _hook_calls()
    moving = StateCipher(MigratingKeys(enterprise, keyring))
    new_blob = moving.encrypt(b"new", **CONTEXT)
    assert record_key_id(new_blob) == "hsm-1"
    assert moving.decrypt(old_blob, **CONTEXT) == b"old"
    assert moving.decrypt(new_blob, **CONTEXT) == b"new"
    assert moving.needs_reencryption(old_blob) and not moving.needs_reencryption(new_blob)
    assert record_key_id(moving.reencrypt(old_blob, **CONTEXT)) == "hsm-1"
    keys = moving.keys
    assert isinstance(keys, MigratingKeys)
    assert keys.key_ids == ("k1", "hsm-1")
    assert [keys.source_of(k) for k in ("k1", "hsm-1", "k9")] == ["old", "new", "unknown"]
    stranger = StateCipher(Keyring([("k9", os.urandom(32))])).encrypt(b"x", **CONTEXT)
    with pytest.raises(InvalidRecord):
        moving.decrypt(stranger, **CONTEXT)
    assert "k1" in repr(keys) and "hsm-1" in repr(keys)


def test_the_way_back_reads_the_hooks_records() -> None:
    enterprise, calls = _hook_calls()
    hook_blob = StateCipher(enterprise).encrypt(b"from the hook", **CONTEXT)
    keyring = Keyring([("k1", os.urandom(32))])
    back = StateCipher(MigratingKeys(keyring, enterprise))
    assert back.decrypt(hook_blob, **CONTEXT) == b"from the hook"
    assert record_key_id(back.encrypt(b"x", **CONTEXT)) == "k1"
    assert calls == ["hsm-1"]  # fetched once, when the source was built


def test_shared_ids_and_non_sources_are_refused() -> None:
    keyring = Keyring([("hsm-1", os.urandom(32))])
    enterprise, _ = _hook_calls()
    with pytest.raises(KeyringError, match="'hsm-1' is in both key sources"):
        MigratingKeys(enterprise, keyring)
    with pytest.raises(KeyringError, match="old key source"):
        MigratingKeys(keyring, object())  # type: ignore[arg-type]
