"""The encrypted record format (version 1).

Every encrypted state or title is stored as one self-describing byte string::

    offset   size     field
    0        3        magic b"S2O"
    3        1        format version, 0x01
    4        1        key id length n (1..64)
    5        n        key id, ASCII [A-Za-z0-9_-]
    5+n      12       nonce (random, fresh for every encryption)
    17+n     m+16     AES-256-GCM ciphertext of the m-byte plaintext, followed by the 16-byte tag

The header (bytes ``0 .. 5+n``) is not encrypted but is authenticated: it starts the associated
data (see ``cipher``), so changing the version or the key id makes the record fail to open.
The smallest record (empty plaintext, 1-character key id) is 34 bytes.

This module only lays out and parses bytes; it knows no keys.  Parsing is strict and every
failure is the opaque :class:`InvalidRecord`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from mock_account.crypto.errors import InvalidRecord
from mock_account.crypto.keys import KEY_ID_PATTERN

MAGIC = b"S2O"
FORMAT_VERSION = 1
NONCE_SIZE = 12
TAG_SIZE = 16
_PREFIX = MAGIC + bytes([FORMAT_VERSION])
_MAX_KEY_ID = 64


@dataclass(frozen=True)
class ParsedRecord:
    """A record split into its parts (nothing verified yet but the layout)."""

    header: bytes
    key_id: str
    nonce: bytes
    ciphertext: bytes  # ciphertext || tag


@dataclass(frozen=True)
class RecordInfo:
    """What an inspector may show of a stored record without opening it."""

    format_version: int
    key_id: str
    nonce: bytes
    size: int
    plaintext_size: int

    def as_dict(self) -> dict[str, object]:
        """JSON-ready view (nonce as hex)."""
        return {
            "formatVersion": self.format_version,
            "keyId": self.key_id,
            "nonce": self.nonce.hex(),
            "size": self.size,
            "plaintextSize": self.plaintext_size,
        }


def encode_header(key_id: str) -> bytes:
    """The header of a version-1 record under ``key_id`` (a valid key id)."""
    raw = key_id.encode("ascii")
    return _PREFIX + bytes([len(raw)]) + raw


def build_record(header: bytes, nonce: bytes, ciphertext: bytes) -> bytes:
    """Concatenate the parts of a record."""
    return header + nonce + ciphertext


def split_record(blob: bytes | bytearray | memoryview) -> tuple[bytes, str, memoryview, memoryview]:
    """The header, key id, nonce and ciphertext (with its tag) of a record, the last two as views
    of ``blob`` rather than copies; :class:`InvalidRecord` if the layout is wrong."""
    if not isinstance(blob, bytes | bytearray | memoryview):
        raise TypeError(f"an encrypted record is bytes, not {type(blob).__name__}")
    # Anything but bytes is copied, as before: a view of another item size would miscount.
    view = memoryview(blob if isinstance(blob, bytes) else bytes(blob))
    if len(view) < len(_PREFIX) + 1 or view[: len(_PREFIX)] != _PREFIX:
        raise InvalidRecord()
    id_len = view[len(_PREFIX)]
    id_end = len(_PREFIX) + 1 + id_len
    if not 1 <= id_len <= _MAX_KEY_ID or len(view) < id_end + NONCE_SIZE + TAG_SIZE:
        raise InvalidRecord()
    header = bytes(view[:id_end])
    return header, _key_id(header), view[id_end : id_end + NONCE_SIZE], view[id_end + NONCE_SIZE :]


@functools.lru_cache(maxsize=256)
def _key_id(header: bytes) -> str:
    """The key id in a record header (a handful of distinct headers: one per key)."""
    try:
        key_id = header[len(_PREFIX) + 1 :].decode("ascii")
    except UnicodeDecodeError:
        raise InvalidRecord() from None
    if KEY_ID_PATTERN.fullmatch(key_id) is None:
        raise InvalidRecord()
    return key_id


def parse_record(blob: bytes | bytearray | memoryview) -> ParsedRecord:
    """Split a record into its parts; :class:`InvalidRecord` if the layout is wrong."""
    header, key_id, nonce, ciphertext = split_record(blob)
    return ParsedRecord(
        header=header, key_id=key_id, nonce=bytes(nonce), ciphertext=bytes(ciphertext)
    )


def record_key_id(blob: bytes | bytearray | memoryview) -> str:
    """The key id a record was encrypted under (not authenticated until the record is opened)."""
    return parse_record(blob).key_id


def record_info(blob: bytes | bytearray | memoryview) -> RecordInfo:
    """Format version, key id, nonce and sizes of a record, as stored."""
    parsed = parse_record(blob)
    size = len(parsed.header) + len(parsed.nonce) + len(parsed.ciphertext)
    return RecordInfo(
        format_version=FORMAT_VERSION,
        key_id=parsed.key_id,
        nonce=parsed.nonce,
        size=size,
        plaintext_size=len(parsed.ciphertext) - TAG_SIZE,
    )
