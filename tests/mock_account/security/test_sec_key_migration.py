"""Moving an account from managed keys to an enterprise key hook and back.

Conversations stay readable throughout (the new source encrypts, the old one still decrypts),
``keys migrate`` moves every record, an interrupted migration resumes where it stopped, and
``keys status`` shows how far it got.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sec_support import TRIP, Base, converse

from mock_account.cli import main
from mock_account.conversations.hooks import load_hooks
from mock_account.conversations.key_rotation import ReencryptReport, reencrypt_store
from mock_account.crypto import (
    EnterpriseKeySource,
    Keyring,
    KeyringError,
    MigratingKeys,
    StateCipher,
    record_key_id,
)
from mock_account.deployment import AccountConfig, build_cipher
from mock_account.stores import ConversationStore, open_store

HSM_KEY = os.urandom(32)


class _Stop(Exception):
    """Stands for the process being killed half-way through."""


def _hook_source(hook_module: Callable[[str], str]) -> str:
    encoded = base64.b64encode(HSM_KEY).decode()
    return hook_module(
        f"""
        import base64
        def encryptionKey(event):
            assert event["keyName"] == "hsm-1"
            return base64.b64decode({encoded!r})
        """
    )


def _key_ids(store: ConversationStore) -> list[str]:
    found = []
    for entry in store.iter_entries():
        stored = store.load(entry.account, entry.convid)
        found += [record_key_id(stored.entry.title), record_key_id(stored.blob)]
    return found


def _status(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["keys", "status", *args]) == 0
    return capsys.readouterr().out


def test_managed_to_enterprise_and_back_stays_readable_and_resumes(
    base: Base,
    make_account,
    tmp_path: Path,
    hook_module: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"sqlite:///{tmp_path / 'conversations.db'}"
    managed = AccountConfig(data_dir=tmp_path, store_url=url)
    store = open_store(url)
    try:
        account = make_account(store, cipher=build_cipher(managed))
        made: list[tuple[Any, str]] = []
        for n in range(5):
            user = base.user("acme", n % 2)
            result = converse(account, user, TRIP)
            assert result.success, result.error
            made.append((user, result.convid))
        states = {c: account.state_view(u, c)["state"] for u, c in made}
        titles = {c: account.get_conversation(u, c).title for u, c in made}
        keyring_id = account.vault.cipher.keys.current_key_id()

        # The hooks now have encryptionKey: the hook's key encrypts, the keyring still decrypts.
        module = _hook_source(hook_module)
        enterprise = AccountConfig(
            data_dir=tmp_path, store_url=url, hooks=module, key_names=("hsm-1",)
        )
        cipher = build_cipher(enterprise, load_hooks(module))
        assert isinstance(cipher.keys, MigratingKeys) and cipher.keys.current_key_id() == "hsm-1"
        switched = make_account(store, cipher=cipher)
        for user, convid in made:
            assert switched.state_view(user, convid)["state"] == states[convid]
            assert switched.get_conversation(user, convid).title == titles[convid]
        fresh = converse(switched, base.user("acme"), TRIP)
        assert fresh.success and record_key_id(store.load("acme", fresh.convid).blob) == "hsm-1"

        args = ["--store", url, "--data-dir", str(tmp_path), "--hooks", module]
        args += ["--key-names", "hsm-1"]
        before = _status(args, capsys)
        assert f"{keyring_id} [managed]: 5 states, 5 titles" in before
        assert "records on enterprise keys: 2 of 12" in before

        # Interrupted after two conversations: what was moved stays moved, all stays readable.
        def stop_after_first_batch(report: ReencryptReport) -> None:
            raise _Stop

        with pytest.raises(_Stop):
            reencrypt_store(store, cipher, batch=2, progress=stop_after_first_batch)
        half = _status(args, capsys)
        assert "records on enterprise keys: 2 of 12" not in half
        moved = sum(1 for key_id in _key_ids(store) if key_id == "hsm-1")
        assert 2 < moved < 12
        for user, convid in made:
            assert switched.state_view(user, convid)["state"] == states[convid]

        assert main(["keys", "migrate", "--to", "enterprise", *args]) == 0
        out = capsys.readouterr().out
        assert "records on enterprise keys: 12 of 12" in out
        assert set(_key_ids(store)) == {"hsm-1"}
        # Now the hook alone reads everything: the keyring could go.
        hook = load_hooks(module).encryption_key
        hook_only = make_account(store, cipher=StateCipher(EnterpriseKeySource(hook, ["hsm-1"])))
        for user, convid in made:
            assert hook_only.state_view(user, convid)["state"] == states[convid]
            assert hook_only.get_conversation(user, convid).title == titles[convid]

        # And back to managed keys.
        assert main(["keys", "migrate", "--to", "managed", *args]) == 0
        out = capsys.readouterr().out
        assert "records on managed keys: 12 of 12" in out
        assert set(_key_ids(store)) == {keyring_id}
        keyring_only = make_account(store, cipher=build_cipher(managed))
        for user, convid in made:
            assert keyring_only.state_view(user, convid)["state"] == states[convid]
    finally:
        store.close()


def test_migrating_needs_both_sources_and_distinct_key_ids(
    tmp_path: Path, hook_module: Callable[[str], str], capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'conversations.db'}"
    for to in ("enterprise", "managed"):
        assert main(["keys", "migrate", "--to", to, "--store", url, "--data-dir", str(tmp_path)])
        assert f"nothing to migrate to {to} keys from" in capsys.readouterr().err
    assert not (tmp_path / "keyring.json").exists()  # refused before anything was created
    # A hook but no keyring yet: nothing to move to the hook.
    module = _hook_source(hook_module)
    hooked = ["--hooks", module, "--key-names", "hsm-1", "--data-dir", str(tmp_path)]
    assert main(["keys", "migrate", "--to", "enterprise", "--store", url, *hooked])
    assert "nothing to migrate to enterprise keys from" in capsys.readouterr().err

    keyring = Keyring([("shared", os.urandom(32))])
    with pytest.raises(KeyringError, match="in both key sources"):
        MigratingKeys(EnterpriseKeySource(lambda event: HSM_KEY, ["shared"]), keyring)
