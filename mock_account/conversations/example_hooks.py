"""Example enterprise state hooks: conversation states as JSON files in a directory.

Use it with ``mock-account chat --hooks mock_account.conversations.example_hooks`` (or ``serve``).
The folder is ``$EXAMPLE_HOOKS_DIR`` (default ``data/hook-states``, relative to the working
folder), read at each call so it can be changed without re-importing. One file per
conversation, ``<convid>.json``::

    {"owner": "<userEmail>", "agentName": "<last agent>", "state": {...}}

Files are written whole to a temporary file and moved into place with ``os.replace``, so a reader
sees the old state or the new one, never half of one. The owner is recorded with the state: a
restore for another user finds nothing (``None``, which reveals nothing), and a save or delete
by another user is refused with ``PermissionError``.

The files are plain JSON on purpose (this is the customer's side, where the customer decides how
to protect its data); a real module would write to the customer's own database or vault.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

DIR_ENV = "EXAMPLE_HOOKS_DIR"
DEFAULT_DIR = "data/hook-states"
_CONVID = re.compile(r"[0-9A-Za-z]{1,64}")


def states_dir() -> Path:
    return Path(os.environ.get(DIR_ENV) or DEFAULT_DIR)


def _path(convid: object) -> Path:
    # The convid becomes a file name: only the id alphabet, so it can never leave the folder.
    if not isinstance(convid, str) or _CONVID.fullmatch(convid) is None:
        raise ValueError(f"not a conversation id: {convid!r}")
    return states_dir() / f"{convid}.json"


def _read(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def _write_atomically(path: Path, document: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(document, handle, ensure_ascii=False, allow_nan=False)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def save(event: dict[str, Any]) -> None:
    path = _path(event["convid"])
    existing = _read(path)
    if existing is not None and existing.get("owner") != event["userEmail"]:
        raise PermissionError("this conversation belongs to another user")
    _write_atomically(
        path,
        {"owner": event["userEmail"], "agentName": event["agentName"], "state": event["state"]},
    )


def restore(event: dict[str, Any]) -> dict[str, Any] | None:
    document = _read(_path(event["convid"]))
    if document is None or document.get("owner") != event["userEmail"]:
        return None
    return document["state"]


def deleteConversation(event: dict[str, Any]) -> None:  # noqa: N802 - the hook's agreed name
    path = _path(event["convid"])
    existing = _read(path)
    if existing is None:
        return
    if existing.get("owner") != event["userEmail"]:
        raise PermissionError("this conversation belongs to another user")
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
