"""Enterprise keys: fetched from the key hook, kept in memory only."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from mock_account.crypto import (
    EnterpriseKeySource,
    InvalidRecord,
    KeyringError,
    KeySource,
    StateCipher,
    record_key_id,
)

CONTEXT = {"convid": "AbCdEfGhIjKlMnOpQrStUv", "owner": "alice@example.com", "purpose": "state"}


class RecordingHook:
    """A customer key hook that knows some key names and logs each request."""

    def __init__(self, keys: Mapping[str, bytes]) -> None:
        self.keys = dict(keys)
        self.requests: list[dict[str, str]] = []

    def __call__(self, request: Mapping[str, str]) -> bytes:
        self.requests.append(dict(request))
        return self.keys[request["keyName"]]


@pytest.fixture
def hook() -> RecordingHook:
    return RecordingHook({"hsm-2023": os.urandom(32), "hsm-2024": os.urandom(32)})


def test_round_trip_and_names(hook: RecordingHook) -> None:
    source = EnterpriseKeySource(hook, ["hsm-2023", "hsm-2024"])
    assert isinstance(source, KeySource)
    assert source.current_key_id() == "hsm-2024"
    # The current key is fetched up front, so a broken hook fails at start-up.
    assert hook.requests == [{"keyName": "hsm-2024"}]
    cipher = StateCipher(source)
    blob = cipher.encrypt(b"secret state", **CONTEXT)
    assert record_key_id(blob) == "hsm-2024"
    assert cipher.decrypt(blob, **CONTEXT) == b"secret state"
    assert hook.requests == [{"keyName": "hsm-2024"}]  # fetched once, then kept in memory


def test_older_key_decrypts_after_rotation(hook: RecordingHook) -> None:
    old = StateCipher(EnterpriseKeySource(hook, ["hsm-2023"]))
    blob = old.encrypt(b"older", **CONTEXT)
    new = StateCipher(EnterpriseKeySource(hook, ["hsm-2023", "hsm-2024"]))
    assert new.needs_reencryption(blob)
    assert new.decrypt(blob, **CONTEXT) == b"older"
    assert record_key_id(new.reencrypt(blob, **CONTEXT)) == "hsm-2024"


def test_keys_are_never_written(
    hook: RecordingHook, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    source = EnterpriseKeySource(hook, ["hsm-2023", "hsm-2024"])
    cipher = StateCipher(source)
    blob = cipher.encrypt(b"state", **CONTEXT)
    cipher.decrypt(blob, **CONTEXT)
    source.key("hsm-2023")
    assert list(tmp_path.iterdir()) == []
    for key in hook.keys.values():
        assert key not in blob
        assert key.hex() not in repr(source)


def test_unknown_key_name_is_opaque(hook: RecordingHook) -> None:
    foreign_hook = RecordingHook(hook.keys)
    foreign = StateCipher(EnterpriseKeySource(foreign_hook, ["hsm-2023"]))
    blob = foreign.encrypt(b"x", **CONTEXT)
    source = EnterpriseKeySource(hook, ["hsm-2024"])
    with pytest.raises(InvalidRecord):
        source.key("hsm-2023")  # known to the hook, but not configured
    with pytest.raises(InvalidRecord):
        StateCipher(source).decrypt(blob, **CONTEXT)
    # An unconfigured name from a record never reaches the customer's hook.
    assert hook.requests == [{"keyName": "hsm-2024"}]


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ([], "at least one key name"),
        (["hsm-2024", "hsm-2024"], "duplicate key name 'hsm-2024'"),
        (["hsm/2024"], "invalid"),
    ],
)
def test_names_are_checked(hook: RecordingHook, names: list[str], message: str) -> None:
    with pytest.raises(KeyringError, match=message):
        EnterpriseKeySource(hook, names)


def test_hook_returning_a_bad_key_is_a_keyring_error() -> None:
    with pytest.raises(KeyringError, match="must be 32 bytes, found 16"):
        EnterpriseKeySource(lambda request: bytes(16), ["short"])
    with pytest.raises(KeyringError, match="returned no key"):
        EnterpriseKeySource(lambda request: None, ["none"])  # type: ignore[arg-type, return-value]


def test_failing_hook_is_a_keyring_error_not_an_invalid_record(hook: RecordingHook) -> None:
    source = EnterpriseKeySource(hook, ["hsm-2023", "missing", "hsm-2024"])
    with pytest.raises(KeyringError, match="failed for key name 'missing': KeyError"):
        source.key("missing")


def test_async_hook_is_refused() -> None:
    async def hook(request: Mapping[str, str]) -> bytes:
        return bytes(32)

    with pytest.raises(KeyringError, match="synchronous"):
        EnterpriseKeySource(hook, ["async"])  # type: ignore[arg-type]


def test_hook_must_be_callable() -> None:
    with pytest.raises(KeyringError, match="not callable"):
        EnterpriseKeySource(b"key", ["k"])  # type: ignore[arg-type]
