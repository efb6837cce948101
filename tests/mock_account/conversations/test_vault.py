"""The vault: the one save / restore path of state and titles, with its per-stage times."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from mock_account.conversations import vault as vault_module
from mock_account.conversations.vault import (
    RESTORE_STAGES,
    SAVE_STAGES,
    UNREADABLE_TITLE,
    Vault,
    new_convid,
    open_state,
)
from mock_account.crypto import InvalidRecord, Keyring, StateCipher
from mock_account.engine.state import StateInvalid, empty_state
from mock_account.errors import HookFailed, UnknownConversation
from mock_account.stores import VersionConflict, open_store

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
ACCOUNT, OWNER = "acme", "alice@acme.example"


@pytest.fixture
def vault() -> Vault:
    return Vault(open_store("memory://"), StateCipher(Keyring.generate()))


def _state(note: str) -> dict:
    return {**empty_state(), "conv": {"trip": {"destination": note}}}


def _save(vault: Vault, convid: str, state: dict, version: int, title: str | None = None):
    return vault.save(
        account=ACCOUNT,
        owner=OWNER,
        convid=convid,
        state=state,
        expected_version=version,
        now=NOW,
        title=title,
    )


def test_a_saved_state_is_restored_with_the_time_of_every_stage(vault: Vault) -> None:
    convid = new_convid()
    saved = _save(vault, convid, _state("Berlin"), 0, title="Trip to Berlin")
    assert tuple(saved.times.stages) == SAVE_STAGES
    assert saved.committed.state_version == 1 and saved.times.stored_bytes > saved.times.plain_bytes
    restored = vault.restore(ACCOUNT, OWNER, convid)
    assert restored.state == _state("Berlin")
    assert tuple(restored.times.stages) == RESTORE_STAGES
    assert restored.times.total_us == sum(restored.times.stages.values()) > 0
    assert restored.record() is not None and restored.record()["stateVersion"] == 1
    assert vault.title(restored.entry) == "Trip to Berlin"


def test_what_is_stored_is_encrypted_for_this_conversation_and_owner(vault: Vault) -> None:
    convid = new_convid()
    _save(vault, convid, _state("Lisbon"), 0)
    blob = vault.store.load(ACCOUNT, convid).blob
    assert b"Lisbon" not in blob
    with pytest.raises(InvalidRecord):
        open_state(vault.cipher, blob, convid=new_convid(), owner=OWNER)
    with pytest.raises(InvalidRecord):
        open_state(vault.cipher, blob, convid=convid, owner="mallory@acme.example")


def test_another_owner_gets_what_a_missing_conversation_gets(vault: Vault) -> None:
    convid = new_convid()
    _save(vault, convid, _state("Oslo"), 0)
    with pytest.raises(UnknownConversation):
        vault.restore(ACCOUNT, "mallory@acme.example", convid)
    with pytest.raises(UnknownConversation):
        vault.restore(ACCOUNT, OWNER, new_convid())


def test_a_stale_version_or_an_unsaveable_state_changes_nothing(vault: Vault) -> None:
    convid = new_convid()
    _save(vault, convid, _state("Rome"), 0)
    _save(vault, convid, _state("Madrid"), 1)
    with pytest.raises(VersionConflict):
        _save(vault, convid, _state("Paris"), 1)
    with pytest.raises(StateInvalid, match="conv.trip.destination"):
        _save(vault, convid, _state(float("nan")), 2)  # type: ignore[arg-type]
    restored = vault.restore(ACCOUNT, OWNER, convid)
    assert restored.state == _state("Madrid") and restored.entry.state_version == 2


def test_the_title_is_set_on_creation_only_and_can_be_renamed(vault: Vault) -> None:
    convid = new_convid()
    _save(vault, convid, _state("Rome"), 0, title="first")
    _save(vault, convid, _state("Rome"), 1, title="second")
    assert vault.title(vault.store.get_entry(ACCOUNT, convid)) == "first"
    vault.set_title(ACCOUNT, OWNER, convid, "renamed")
    assert vault.title(vault.store.get_entry(ACCOUNT, convid)) == "renamed"
    other = Vault(vault.store, StateCipher(Keyring.generate()))
    assert other.title(vault.store.get_entry(ACCOUNT, convid)) == UNREADABLE_TITLE


def test_reencryption_moves_state_and_title_to_the_current_key(vault: Vault) -> None:
    convid = new_convid()
    keyring = Keyring.generate()
    vault = Vault(vault.store, StateCipher(keyring))
    _save(vault, convid, _state("Vienna"), 0, title="Vienna")
    rotated = Vault(vault.store, StateCipher(keyring.rotated()))
    assert rotated.reencrypt_state(ACCOUNT, convid) == "reencrypted"
    assert rotated.reencrypt_title(ACCOUNT, convid) == "reencrypted"
    assert rotated.reencrypt_state(ACCOUNT, convid) == "current"
    assert rotated.reencrypt_state(ACCOUNT, new_convid()) == "absent"
    newest = rotated.cipher.keys.items()[-1]  # type: ignore[attr-defined]
    new_only = Vault(vault.store, StateCipher(Keyring([newest])))
    assert new_only.restore(ACCOUNT, OWNER, convid).state == _state("Vienna")
    assert new_only.title(vault.store.get_entry(ACCOUNT, convid)) == "Vienna"


def test_hooks_that_could_not_be_loaded_stop_every_state_operation(vault: Vault) -> None:
    convid = new_convid()
    _save(vault, convid, _state("Bern"), 0)
    broken = Vault(vault.store, vault.cipher, hooks_error="no module named acme_hooks")
    with pytest.raises(HookFailed, match="no module named acme_hooks"):
        _save(broken, new_convid(), _state("Bern"), 0)
    with pytest.raises(HookFailed):
        broken.delete(ACCOUNT, OWNER, convid)
    assert vault.store.get_entry(ACCOUNT, convid) is not None


def test_conversation_ids_are_22_characters_of_the_alphabet_all_reachable() -> None:
    ids = [new_convid() for _ in range(2000)]
    assert all(len(c) == 22 and c.isascii() and c.isalnum() for c in ids)
    assert len(set(ids)) == len(ids)
    counts = Counter("".join(ids))
    assert len(counts) == 62
    # 44,000 characters, 710 expected of each: even, within a margin no fair source misses.
    assert min(counts.values()) > 550 and max(counts.values()) < 870


def test_bytes_that_would_favour_some_characters_are_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reads = iter([bytes([255, 248, 0, 61]) + bytes([250] * 28), bytes(range(62, 94))])
    monkeypatch.setattr(vault_module.secrets, "token_bytes", lambda n: next(reads))

    # 0 -> "a", 61 -> "9", then 62.. -> the alphabet from its start again; 248 and up skipped.
    assert new_convid() == "a9" + vault_module.CONVID_ALPHABET[:20]
