"""The record format, checked byte by byte against an independent construction."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from mock_account.crypto import (
    FORMAT_VERSION,
    InvalidRecord,
    Keyring,
    RecordInfo,
    StateCipher,
    record_info,
    record_key_id,
)

ACCOUNT_KEY = bytes(range(32))
NONCE = bytes(range(0xA0, 0xAC))
CONVID = "AbCdEfGhIjKlMnOpQrStUv"
OWNER = "alice@example.com"
PLAINTEXT = b'{"conv":{}}'

# Pinned once so that a change to the format shows up even if code and the construction
# below were changed together.
PINNED_HEX = (
    "53324f01026b31a0a1a2a3a4a5a6a7a8a9aaab2e959d81b327ad4108d67061e01e9cc9e1920a7aa62739e3176bff"
)


def fixed_nonce(size: int) -> bytes:
    assert size == 12, "the cipher must ask for a 96-bit nonce"
    return NONCE


def independent_record(
    key_id: str, account_key: bytes, convid: str, owner: str, purpose: str, plaintext: bytes
) -> bytes:
    """The record built from the documented layout with raw HKDF and AES-GCM."""
    kid = key_id.encode("ascii")
    header = b"S2O" + bytes([1]) + bytes([len(kid)]) + kid
    conversation_key = HKDF(
        algorithm=hashes.SHA256(),
        length=32,
        salt=None,
        info=b"search2o-state/v1|conv|" + convid.encode("utf-8"),
    ).derive(account_key)

    def prefixed(value: str) -> bytes:
        raw = value.encode("utf-8")
        return len(raw).to_bytes(4, "big") + raw

    aad = header + prefixed(purpose) + prefixed(convid) + prefixed(owner)
    return header + NONCE + AESGCM(conversation_key).encrypt(NONCE, plaintext, aad)


def cipher_for(key_id: str = "k1", key: bytes = ACCOUNT_KEY) -> StateCipher:
    return StateCipher(Keyring([(key_id, key)]), random_bytes=fixed_nonce)


def test_known_answer_matches_pinned_vector() -> None:
    blob = cipher_for().encrypt(PLAINTEXT, convid=CONVID, owner=OWNER, purpose="state")
    assert blob.hex() == PINNED_HEX


@pytest.mark.parametrize(
    ("key_id", "owner", "purpose", "plaintext"),
    [
        ("k1", OWNER, "state", PLAINTEXT),
        ("k1", OWNER, "title", "Reise nach Lübeck".encode()),
        ("managed-2024_01", "zoë.müller@example.com", "state", b""),
        ("K" * 64, OWNER, "title", bytes(range(256)) * 64),
    ],
)
def test_known_answer_matches_independent_construction(
    key_id: str, owner: str, purpose: str, plaintext: bytes
) -> None:
    blob = cipher_for(key_id).encrypt(plaintext, convid=CONVID, owner=owner, purpose=purpose)
    expected = independent_record(key_id, ACCOUNT_KEY, CONVID, owner, purpose, plaintext)
    assert blob.hex() == expected.hex()


def test_layout_byte_by_byte() -> None:
    blob = cipher_for().encrypt(PLAINTEXT, convid=CONVID, owner=OWNER, purpose="state")
    assert blob[0:3] == b"S2O"
    assert blob[3] == FORMAT_VERSION == 1
    assert blob[4] == 2
    assert blob[5:7] == b"k1"
    assert blob[7:19] == NONCE
    assert len(blob) == 19 + len(PLAINTEXT) + 16


def test_record_info_and_key_id() -> None:
    blob = cipher_for("acct-key_7").encrypt(PLAINTEXT, convid=CONVID, owner=OWNER, purpose="state")
    info = record_info(blob)
    assert info == RecordInfo(
        format_version=1,
        key_id="acct-key_7",
        nonce=NONCE,
        size=len(blob),
        plaintext_size=len(PLAINTEXT),
    )
    assert info.as_dict() == {
        "formatVersion": 1,
        "keyId": "acct-key_7",
        "nonce": NONCE.hex(),
        "size": len(blob),
        "plaintextSize": len(PLAINTEXT),
    }
    assert record_key_id(blob) == "acct-key_7"
    assert record_key_id(memoryview(blob)) == "acct-key_7"


SMALLEST = b"S2O\x01\x01k" + bytes(12 + 16)


@pytest.mark.parametrize(
    "blob",
    [
        b"",
        b"S2O",
        b"S2O\x01",
        b"S2O\x01\x01k",
        SMALLEST[:-1],
        b"XYZ" + SMALLEST[3:],
        b"S2O\x02" + SMALLEST[4:],
        b"S2O\x00" + SMALLEST[4:],
        b"S2O\x01\x00" + SMALLEST[5:],
        b"S2O\x01\x41" + SMALLEST[5:] + bytes(80),
        b"S2O\x01\x01!" + bytes(28),
        b"S2O\x01\x01\xff" + bytes(28),
        b"S2O\x01\x02k\n" + bytes(28),
        b"\x00" * 64,
        bytes(range(256)),
    ],
    ids=lambda blob: blob[:8].hex() + f"..len{len(blob)}",
)
def test_malformed_records_are_invalid(blob: bytes) -> None:
    with pytest.raises(InvalidRecord):
        record_info(blob)
    with pytest.raises(InvalidRecord):
        record_key_id(blob)


def test_smallest_record_parses() -> None:
    info = record_info(SMALLEST)
    assert (info.key_id, info.size, info.plaintext_size) == ("k", 34, 0)


def test_non_bytes_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        record_info("S2O")  # type: ignore[arg-type]
