"""StateCipher: round trips, failing closed on every kind of bad record, rotation."""

from __future__ import annotations

import os

import pytest

from mock_account.crypto import InvalidRecord, Keyring, StateCipher, record_info
from mock_account.crypto.cipher import associated_data

CONVID = "AbCdEfGhIjKlMnOpQrStUv"
OTHER_CONVID = "ZyXwVuTsRqPoNmLkJiHgFe"
OWNER = "alice@example.com"
OTHER_OWNER = "bob@example.com"
PLAINTEXT = b'{"runs":[],"prompts":{},"conv":{"trip":{"destination":"Lisbon"}},"agents":{}}'
CONTEXT = {"convid": CONVID, "owner": OWNER, "purpose": "state"}


@pytest.fixture
def keyring() -> Keyring:
    return Keyring([("k1", os.urandom(32))])


@pytest.fixture
def cipher(keyring: Keyring) -> StateCipher:
    return StateCipher(keyring)


@pytest.fixture
def blob(cipher: StateCipher) -> bytes:
    return cipher.encrypt(PLAINTEXT, **CONTEXT)


def assert_opaque(excinfo: pytest.ExceptionInfo[InvalidRecord]) -> None:
    assert type(excinfo.value) is InvalidRecord
    assert str(excinfo.value) == InvalidRecord.MESSAGE
    assert excinfo.value.__cause__ is None
    assert excinfo.value.__suppress_context__ or excinfo.value.__context__ is None


@pytest.mark.parametrize("purpose", ["state", "title"])
@pytest.mark.parametrize("size", [0, 1, 1000, 16 * 1024, 1024 * 1024])
def test_round_trip(cipher: StateCipher, purpose: str, size: int) -> None:
    plaintext = os.urandom(size)
    blob = cipher.encrypt(plaintext, convid=CONVID, owner=OWNER, purpose=purpose)
    if size >= 16:  # shorter random strings may occur in any blob by chance
        assert plaintext not in blob
    assert cipher.decrypt(blob, convid=CONVID, owner=OWNER, purpose=purpose) == plaintext


def test_round_trip_accepts_bytes_like(cipher: StateCipher) -> None:
    blob = cipher.encrypt(bytearray(PLAINTEXT), **CONTEXT)
    assert cipher.decrypt(memoryview(blob), **CONTEXT) == PLAINTEXT


def test_nonces_and_ciphertexts_differ(cipher: StateCipher) -> None:
    blobs = [cipher.encrypt(PLAINTEXT, **CONTEXT) for _ in range(200)]
    assert len({record_info(b).nonce for b in blobs}) == len(blobs)
    assert len({b[-len(PLAINTEXT) - 16 :] for b in blobs}) == len(blobs)


def regions(blob: bytes) -> dict[str, range]:
    key_id_len = blob[4]
    nonce_at = 5 + key_id_len
    tag_at = len(blob) - 16
    return {
        "magic": range(0, 3),
        "version": range(3, 4),
        "key-id-length": range(4, 5),
        "key-id": range(5, nonce_at),
        "nonce": range(nonce_at, nonce_at + 12),
        "ciphertext": range(nonce_at + 12, tag_at),
        "tag": range(tag_at, len(blob)),
    }


@pytest.mark.parametrize(
    "region", ["magic", "version", "key-id-length", "key-id", "nonce", "ciphertext", "tag"]
)
@pytest.mark.parametrize("mask", [0x01, 0x80, 0xFF])
def test_flipping_any_byte_fails_closed(
    cipher: StateCipher, blob: bytes, region: str, mask: int
) -> None:
    positions = regions(blob)[region]
    assert len(positions) > 0
    for position in positions:
        tampered = bytearray(blob)
        tampered[position] ^= mask
        with pytest.raises(InvalidRecord) as excinfo:
            cipher.decrypt(bytes(tampered), **CONTEXT)
        assert_opaque(excinfo)


def test_every_truncation_fails_closed(cipher: StateCipher, blob: bytes) -> None:
    for length in range(len(blob)):
        with pytest.raises(InvalidRecord) as excinfo:
            cipher.decrypt(blob[:length], **CONTEXT)
        assert_opaque(excinfo)


@pytest.mark.parametrize("suffix", [b"\x00", os.urandom(16)], ids=["nul", "random"])
def test_appended_bytes_fail_closed(cipher: StateCipher, blob: bytes, suffix: bytes) -> None:
    with pytest.raises(InvalidRecord):
        cipher.decrypt(blob + suffix, **CONTEXT)


@pytest.mark.parametrize(
    "swapped",
    [
        {"convid": OTHER_CONVID},
        {"owner": OTHER_OWNER},
        {"owner": OWNER.upper()},
        {"purpose": "title"},
        {"purpose": "idempotency"},
        {"convid": OTHER_CONVID, "owner": OTHER_OWNER},
        # Moving a boundary between fields must not give the same associated data.
        {"convid": CONVID + "a", "owner": OWNER[1:]},
    ],
    ids=lambda swapped: "-".join(swapped),
)
def test_record_in_another_context_fails_closed(
    cipher: StateCipher, blob: bytes, swapped: dict[str, str]
) -> None:
    with pytest.raises(InvalidRecord) as excinfo:
        cipher.decrypt(blob, **{**CONTEXT, **swapped})
    assert_opaque(excinfo)


def test_associated_data_is_unambiguous() -> None:
    header = b"S2O\x01\x02k1"
    first = associated_data(header, convid="ab", owner="c@x", purpose="state")
    second = associated_data(header, convid="a", owner="bc@x", purpose="state")
    assert first != second


def test_key_id_pointing_at_another_known_key_fails(keyring: Keyring) -> None:
    # Both key ids are known and the same length: only the authenticated header catches this.
    two = Keyring([*keyring.items(), ("k2", os.urandom(32))])
    blob = StateCipher(keyring).encrypt(PLAINTEXT, **CONTEXT)
    relabelled = blob.replace(b"k1", b"k2", 1)
    assert record_info(relabelled).key_id == "k2"
    with pytest.raises(InvalidRecord):
        StateCipher(two).decrypt(relabelled, **CONTEXT)


def test_keyring_lacking_the_key_fails_closed(blob: bytes) -> None:
    other = StateCipher(Keyring([("k9", os.urandom(32))]))
    with pytest.raises(InvalidRecord) as excinfo:
        other.decrypt(blob, **CONTEXT)
    assert_opaque(excinfo)


def test_same_key_id_with_another_key_fails_closed(blob: bytes) -> None:
    impostor = StateCipher(Keyring([("k1", os.urandom(32))]))
    with pytest.raises(InvalidRecord) as excinfo:
        impostor.decrypt(blob, **CONTEXT)
    assert_opaque(excinfo)


@pytest.mark.parametrize(
    "garbage",
    [b"", b"garbage", os.urandom(100), b"S2O\x01" + bytes(60)],
    ids=["empty", "garbage", "random", "header-then-zeros"],
)
def test_garbage_fails_closed(cipher: StateCipher, garbage: bytes) -> None:
    with pytest.raises(InvalidRecord) as excinfo:
        cipher.decrypt(garbage, **CONTEXT)
    assert_opaque(excinfo)


@pytest.mark.parametrize(
    "bad",
    [
        {"convid": ""},
        {"owner": ""},
        {"purpose": "States"},
        {"owner": "\ud800@example.com"},
        {"convid": None},
    ],
    ids=["empty-convid", "empty-owner", "purpose", "surrogate", "none-convid"],
)
def test_bad_arguments_are_value_errors(cipher: StateCipher, blob: bytes, bad: dict) -> None:
    with pytest.raises(ValueError):
        cipher.encrypt(PLAINTEXT, **{**CONTEXT, **bad})
    with pytest.raises(ValueError):
        cipher.decrypt(blob, **{**CONTEXT, **bad})


def test_bad_arguments_fail_every_time_after_good_ones(cipher: StateCipher) -> None:
    # Arguments are checked when a context is built for the cache: a refusal is never cached,
    # and a cached context is only found by the values that passed.
    blob = cipher.encrypt(PLAINTEXT, **CONTEXT)
    for _ in range(2):
        with pytest.raises(ValueError):
            cipher.encrypt(PLAINTEXT, **{**CONTEXT, "purpose": "States"})
        with pytest.raises(ValueError):
            cipher.decrypt(blob, **{**CONTEXT, "owner": ""})
    assert cipher.decrypt(blob, **CONTEXT) == PLAINTEXT


def test_plaintext_must_be_bytes(cipher: StateCipher) -> None:
    with pytest.raises(TypeError):
        cipher.encrypt("text", **CONTEXT)  # type: ignore[arg-type]


def test_random_bytes_of_wrong_size_is_refused(keyring: Keyring) -> None:
    cipher = StateCipher(keyring, random_bytes=lambda size: bytes(size - 1))
    with pytest.raises(ValueError):
        cipher.encrypt(PLAINTEXT, **CONTEXT)


def test_key_source_must_follow_the_protocol() -> None:
    with pytest.raises(TypeError):
        StateCipher(object())  # type: ignore[arg-type]


def test_rotation(keyring: Keyring) -> None:
    old_cipher = StateCipher(keyring)
    old_blob = old_cipher.encrypt(PLAINTEXT, **CONTEXT)
    rotated = keyring.rotated()
    new_cipher = StateCipher(rotated)

    assert rotated.key_ids[0] == "k1" and rotated.current_key_id() != "k1"
    assert new_cipher.decrypt(old_blob, **CONTEXT) == PLAINTEXT
    assert new_cipher.needs_reencryption(old_blob)
    assert not old_cipher.needs_reencryption(old_blob)

    new_blob = new_cipher.encrypt(PLAINTEXT, **CONTEXT)
    assert record_info(new_blob).key_id == rotated.current_key_id()
    assert not new_cipher.needs_reencryption(new_blob)
    # A server still on the old keyring cannot open records under the new key.
    with pytest.raises(InvalidRecord):
        old_cipher.decrypt(new_blob, **CONTEXT)

    rewritten = new_cipher.reencrypt(old_blob, **CONTEXT)
    assert record_info(rewritten).key_id == rotated.current_key_id()
    assert not new_cipher.needs_reencryption(rewritten)
    assert new_cipher.decrypt(rewritten, **CONTEXT) == PLAINTEXT


def test_needs_reencryption_of_garbage_is_invalid(cipher: StateCipher) -> None:
    with pytest.raises(InvalidRecord):
        cipher.needs_reencryption(b"not a record")


def test_conversation_keys_differ(keyring: Keyring) -> None:
    # Same account key, nonce and plaintext: only the derived conversation key differs.
    cipher = StateCipher(keyring, random_bytes=lambda size: bytes(size))
    first = cipher.encrypt(PLAINTEXT, **CONTEXT)
    second = cipher.encrypt(PLAINTEXT, **{**CONTEXT, "convid": OTHER_CONVID})
    assert first[19:-16] != second[19:-16]


def test_lookup_keys_are_keyed_and_stable(keyring: Keyring) -> None:
    cipher = StateCipher(keyring)
    name = b"acme\0alice@example.com\0order-42"
    [first] = cipher.lookup_keys(name)
    assert cipher.lookup_keys(name) == [first] == StateCipher(keyring).lookup_keys(name)
    assert len(first) == 64 and b"order-42" not in first.encode()
    assert cipher.lookup_keys(name + b"3") != [first]
    # Without the account key the lookup key cannot be recomputed (another key, another hash).
    assert StateCipher(Keyring([("k1", os.urandom(32))])).lookup_keys(name) != [first]
    with pytest.raises(TypeError, match="bytes"):
        cipher.lookup_keys("order-42")  # type: ignore[arg-type]


def test_lookup_keys_after_a_rotation_come_current_first(keyring: Keyring) -> None:
    name = b"acme\0alice@example.com\0order-42"
    [old] = StateCipher(keyring).lookup_keys(name)
    rotated = keyring.rotated("k2")
    new, still_old = StateCipher(rotated).lookup_keys(name)
    assert still_old == old and new != old
