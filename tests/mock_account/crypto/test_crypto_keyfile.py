"""Managed keyring file: created 0600, strict on load, atomic rotation."""

from __future__ import annotations

import base64
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from mock_account.crypto import (
    InvalidRecord,
    Keyring,
    KeyringError,
    StateCipher,
    load_keyring_file,
    load_or_create_keyring,
    record_key_id,
    rotate_keyring_file,
)
from mock_account.crypto.keyfile import keyring_to_json

CONTEXT = {"convid": "AbCdEfGhIjKlMnOpQrStUv", "owner": "alice@example.com", "purpose": "state"}


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def same_keys(first: Keyring, second: Keyring) -> bool:
    return first.items() == second.items()


def test_created_on_first_use_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "secrets" / "keyring.json"
    keyring = load_or_create_keyring(path)
    assert mode_of(path) == 0o600
    assert len(keyring) == 1
    document = json.loads(path.read_text())
    assert document["format"] == "search2o-keyring" and document["version"] == 1
    assert [entry["id"] for entry in document["keys"]] == list(keyring.key_ids)
    assert same_keys(load_or_create_keyring(path), keyring)  # second use loads, never recreates
    assert sorted(p.name for p in path.parent.iterdir()) == ["keyring.json", "keyring.json.lock"]


def test_created_0600_even_with_a_permissive_umask(tmp_path: Path) -> None:
    previous = os.umask(0)
    try:
        load_or_create_keyring(tmp_path / "keyring.json")
    finally:
        os.umask(previous)
    assert mode_of(tmp_path / "keyring.json") == 0o600


def test_keys_are_never_exposed_while_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    real_replace: Callable[..., None] = os.replace

    def spying_replace(src: str, dst: str) -> None:
        seen.append(stat.S_IMODE(os.stat(src).st_mode))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spying_replace)
    path = tmp_path / "keyring.json"
    load_or_create_keyring(path)
    rotate_keyring_file(path)
    assert seen == [0o600, 0o600]


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o601])
def test_group_or_other_permissions_are_refused(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "keyring.json"
    load_or_create_keyring(path)
    path.chmod(mode)
    for load in (load_or_create_keyring, load_keyring_file, rotate_keyring_file):
        with pytest.raises(KeyringError) as excinfo:
            load(path)
        message = str(excinfo.value)
        assert f"mode {mode:04o}" in message and "chmod 600" in message and str(path) in message
    assert len(json.loads(path.read_text())["keys"]) == 1  # rotation changed nothing


def test_owner_only_read_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    created = load_or_create_keyring(path)
    path.chmod(0o400)
    assert same_keys(load_keyring_file(path), created)


def entry(key_id: str = "k1", key: bytes = bytes(32)) -> dict[str, str]:
    return {"id": key_id, "key": base64.b64encode(key).decode()}


def document(**changes: object) -> str:
    base: dict[str, object] = {"format": "search2o-keyring", "version": 1, "keys": [entry()]}
    base.update(changes)
    return json.dumps(base)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[]", 'exactly "format", "version" and "keys"'),
        (json.dumps({"keys": [entry()]}), 'exactly "format", "version" and "keys"'),
        (document(extra=1), 'exactly "format", "version" and "keys"'),
        (document(format="other"), '"format" must be'),
        (document(version=2), 'unsupported "version" 2'),
        (document(version=True), 'unsupported "version" True'),
        (document(keys=[]), '"keys" must be a non-empty list'),
        (document(keys={"k1": "x"}), '"keys" must be a non-empty list'),
        (document(keys=["k1"]), 'key #1 must be an object with exactly "id" and "key"'),
        (document(keys=[{"id": "k1"}]), 'key #1 must be an object with exactly "id" and "key"'),
        (document(keys=[{"id": "k1", "key": 5}]), 'key #1: "key" must be a base64 string'),
        (document(keys=[entry(), {"id": "k2", "key": "!!!"}]), 'key #2: "key" is not valid base64'),
        (document(keys=[entry(key=bytes(16))]), "must be 32 bytes, found 16"),
        (document(keys=[entry(key_id="bad id")]), "key id 'bad id' is invalid"),
        (document(keys=[entry(), entry()]), "duplicate key id 'k1'"),
    ],
)
def test_malformed_file_is_a_readable_error(tmp_path: Path, content: str, reason: str) -> None:
    path = tmp_path / "keyring.json"
    path.write_text(content)
    path.chmod(0o600)
    with pytest.raises(KeyringError) as excinfo:
        load_or_create_keyring(path)
    message = str(excinfo.value)
    assert message.startswith(f"keyring file {path} is malformed: ")
    assert reason in message
    assert "\n" not in message
    assert path.read_text() == content  # never overwritten


def test_binary_file_is_malformed(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    path.write_bytes(b"\xff\xfe\x00")
    path.chmod(0o600)
    with pytest.raises(KeyringError, match="not UTF-8"):
        load_keyring_file(path)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(KeyringError, match="does not exist"):
        load_keyring_file(tmp_path / "absent.json")
    with pytest.raises(KeyringError, match="does not exist"):
        rotate_keyring_file(tmp_path / "absent.json")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "dir.json").mkdir(mode=0o700)
    with pytest.raises(KeyringError, match="not a regular file"):
        load_keyring_file(tmp_path / "dir.json")


def test_file_round_trip(tmp_path: Path) -> None:
    keyring = Keyring.generate().rotated()
    path = tmp_path / "keyring.json"
    path.write_text(keyring_to_json(keyring))
    path.chmod(0o600)
    assert same_keys(load_keyring_file(path), keyring)


def test_rotate_keyring_file(tmp_path: Path) -> None:
    path = tmp_path / "keyring.json"
    first = load_or_create_keyring(path)
    old_blob = StateCipher(first).encrypt(b"before rotation", **CONTEXT)

    new_id = rotate_keyring_file(path)
    assert mode_of(path) == 0o600
    rotated = load_keyring_file(path)
    assert rotated.key_ids == (*first.key_ids, new_id)
    assert rotated.current_key_id() == new_id

    cipher = StateCipher(rotated)
    assert cipher.decrypt(old_blob, **CONTEXT) == b"before rotation"
    assert cipher.needs_reencryption(old_blob)
    new_blob = cipher.encrypt(b"after rotation", **CONTEXT)
    assert record_key_id(new_blob) == new_id
    with pytest.raises(InvalidRecord):
        StateCipher(first).decrypt(new_blob, **CONTEXT)

    third = rotate_keyring_file(path)
    assert load_keyring_file(path).key_ids == (*first.key_ids, new_id, third)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keyring.json", "keyring.json.lock"]


def test_failed_write_leaves_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "keyring.json"
    load_or_create_keyring(path)
    before = path.read_bytes()

    def failing_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(KeyringError, match="cannot write keyring file .*No space left"):
        rotate_keyring_file(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keyring.json", "keyring.json.lock"]
