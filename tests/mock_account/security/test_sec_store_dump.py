"""A store dump holds no plaintext: not the query, not the title, not a conversation variable."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from sec_support import EXPENSES, NEEDLE, TRIP, Base, converse

from mock_account.conversations.account import MockAccount
from mock_account.conversations.vault import title_from_query
from mock_account.stores import open_store
from mock_account.users import User


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return [str(value)] if isinstance(value, int | float) and not isinstance(value, bool) else []


def _secrets(account: MockAccount, user: User) -> tuple[str, list[bytes]]:
    """Run a two-agent conversation; return its id and the plaintexts that must not be stored."""
    first = converse(account, user, TRIP)
    assert first.success, first.error
    second = converse(account, user, EXPENSES, first.convid)
    assert second.success, second.error
    state = account.state_view(user, first.convid)["state"]
    values = [s for s in _strings(state["conv"]) if len(s) >= 5]
    assert len(values) >= 5  # a real conversation, so the search below means something
    title = account.get_conversation(user, first.convid).title
    assert title == title_from_query(TRIP)
    plain = [NEEDLE, TRIP, title, EXPENSES, *values]
    return first.convid, [p.encode("utf-8") for p in plain]


def _leaks(raw: bytes, plaintexts: list[bytes]) -> list[bytes]:
    return [p for p in plaintexts if p in raw]


def test_a_sqlite_file_and_its_wal_hold_no_plaintext(
    base: Base, make_account, tmp_path: Path
) -> None:
    path = tmp_path / "conversations.db"
    store = open_store(f"sqlite:///{path}")
    try:
        alice = base.user("acme")
        convid, plaintexts = _secrets(make_account(store), alice)
        files = [p for p in (path, Path(f"{path}-wal")) if p.exists()]
        raw = b"".join(p.read_bytes() for p in files)
        assert convid.encode() in raw  # the data is really in these bytes, only encrypted
        assert _leaks(raw, plaintexts) == []
    finally:
        store.close()
    assert _leaks(path.read_bytes(), plaintexts) == []  # after the final checkpoint as well


def test_a_memory_store_holds_no_plaintext(base: Base, make_account) -> None:
    account = make_account()
    alice = base.user("acme")
    convid, plaintexts = _secrets(account, alice)
    raw = pickle.dumps(vars(account.store).copy() | {"_lock": None})
    assert convid.encode() in raw
    assert _leaks(raw, plaintexts) == []
