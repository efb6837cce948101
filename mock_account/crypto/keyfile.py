"""Managed keys: the account keyring as a JSON file readable by its owner only.

File format (UTF-8 JSON, mode 0600)::

    {
      "format": "search2o-keyring",
      "version": 1,
      "keys": [{"id": "k1-3fa9c2", "key": "<32 bytes, standard base64>"}, ...]
    }

Keys are listed oldest first; the last one is current.  The file is always written whole to a
temporary file created with mode 0600 in the same directory, then moved over the old one with
``os.replace``, so readers see the old keyring or the new one, never half of it, and the keys are
never readable by anyone else, not even for a moment.  Creation and rotation hold an exclusive
lock on ``<file>.lock`` so two processes never create two different keyrings or lose a rotation.

A file that grants any permission to group or others, or whose content is not exactly the format
above, is refused with a one-line :class:`KeyringError` naming the file and what to fix.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import fcntl
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from mock_account.crypto.errors import KeyringError
from mock_account.crypto.keys import Keyring

FILE_FORMAT = "search2o-keyring"
FILE_VERSION = 1
FILE_MODE = 0o600


def keyring_to_json(keyring: Keyring) -> str:
    """The file content of ``keyring``."""
    document = {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "keys": [
            {"id": key_id, "key": base64.b64encode(key).decode("ascii")}
            for key_id, key in keyring.items()
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def keyring_from_json(text: str) -> Keyring:
    """Parse file content; :class:`KeyringError` with the reason if it is malformed."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise KeyringError(f"not valid JSON ({exc.msg} at line {exc.lineno})") from exc
    if not isinstance(document, dict) or set(document) != {"format", "version", "keys"}:
        raise KeyringError('expected a JSON object with exactly "format", "version" and "keys"')
    if document["format"] != FILE_FORMAT:
        raise KeyringError(f'"format" must be {FILE_FORMAT!r}')
    version = document["version"]
    if version != FILE_VERSION or isinstance(version, bool):
        raise KeyringError(f'unsupported "version" {version!r}, expected {FILE_VERSION}')
    entries = document["keys"]
    if not isinstance(entries, list) or not entries:
        raise KeyringError('"keys" must be a non-empty list')
    pairs: list[tuple[str, bytes]] = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or set(entry) != {"id", "key"}:
            raise KeyringError(f'key #{number} must be an object with exactly "id" and "key"')
        if not isinstance(entry["key"], str):
            raise KeyringError(f'key #{number}: "key" must be a base64 string')
        try:
            key = base64.b64decode(entry["key"], validate=True)
        except (binascii.Error, ValueError) as exc:
            raise KeyringError(f'key #{number}: "key" is not valid base64') from exc
        pairs.append((entry["id"], key))
    return Keyring(pairs)


def load_keyring_file(path: str | os.PathLike[str]) -> Keyring:
    """Read an existing keyring file, refusing it if group or others have any access."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError as exc:
        raise KeyringError(f"keyring file {path} does not exist") from exc
    except OSError as exc:
        raise KeyringError(f"cannot read keyring file {path}: {exc.strerror or exc}") from exc
    try:
        # Checked on the open descriptor, so the file checked is the file read.
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise KeyringError(f"keyring file {path} is not a regular file")
        mode = stat.S_IMODE(info.st_mode)
        if mode & 0o077:
            raise KeyringError(
                f"keyring file {path} is accessible by group or others (mode {mode:04o}); "
                f"restrict it with: chmod 600 {path}"
            )
        with os.fdopen(os.dup(fd), "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise KeyringError(f"cannot read keyring file {path}: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)
    try:
        return keyring_from_json(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise KeyringError(f"keyring file {path} is malformed: not UTF-8 text") from exc
    except KeyringError as exc:
        raise KeyringError(f"keyring file {path} is malformed: {exc}") from exc


def load_or_create_keyring(path: str | os.PathLike[str]) -> Keyring:
    """The keyring in ``path``; on first use, a new keyring of one key is created there."""
    path = Path(path)
    if path.exists():
        return load_keyring_file(path)
    _make_parent(path)
    with _locked(path):
        if path.exists():  # created by another process while this one waited for the lock
            return load_keyring_file(path)
        keyring = Keyring.generate()
        _write(path, keyring)
        return keyring


def rotate_keyring_file(path: str | os.PathLike[str]) -> str:
    """Append a new current key to the keyring file and return its id.

    Records under older keys keep decrypting; re-encrypting them is the caller's job.
    """
    path = Path(path)
    load_keyring_file(path)  # refuse a missing, unsafe or malformed file before taking the lock
    with _locked(path):
        rotated = load_keyring_file(path).rotated()
        _write(path, rotated)
        return rotated.current_key_id()


def _make_parent(path: Path) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise KeyringError(
            f"cannot create the directory of keyring file {path}: {exc.strerror or exc}"
        ) from exc


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    lock_path = path.with_name(path.name + ".lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    except OSError as exc:
        raise KeyringError(f"cannot lock keyring file {path}: {exc.strerror or exc}") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _write(path: Path, keyring: Keyring) -> None:
    """Write the whole file atomically; never leaves a temporary file or a partial keyring."""
    data = keyring_to_json(keyring).encode("utf-8")
    try:
        # mkstemp creates the file with mode 0600 (O_EXCL): the keys are never exposed.
        fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise KeyringError(f"cannot write keyring file {path}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), FILE_MODE)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise KeyringError(f"cannot write keyring file {path}: {exc.strerror or exc}") from exc
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    # Makes the rename durable; some filesystems cannot fsync a directory, which is harmless.
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
