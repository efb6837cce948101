"""The vault: the one path by which conversation state and titles are saved and restored.

    save     serialize (``check_state``: compact JSON and the exact round-trip check)
             -> encrypt (purpose ``state``, and the title of a new conversation)
             -> write (the state hook first, when the customer keeps the state; then
                ``commit_run``, compare-and-swap on the version)
    restore  read (``load``, or the ``restore`` hook) -> decrypt -> parse (``parse_state``)

Every stage is timed (``StageTimes``, microseconds), so the server's ``Server-Timing``, the
benchmark (``loadtests bench``) and the Locust store users time the very same code. No other
module combines the cipher and the store for state: the account, key rotation, the load tests
and the demo's benchmark all come here.

Ownership is checked here too: a conversation of another owner is exactly as unknown as one
that does not exist (``UnknownConversation``).
"""

from __future__ import annotations

import json
import secrets
import string
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from mock_account.conversations.hooks import LoadedHooks
from mock_account.crypto import InvalidRecord, StateCipher, record_info
from mock_account.engine.state import (
    DEFAULT_MAX_STATE_BYTES,
    StateInvalid,
    check_state,
    empty_state,
    last_agent,
    parse_state,
)
from mock_account.errors import HookFailed, UnknownConversation
from mock_account.stores import Committed, ConversationEntry, ConversationStore

SAVE_STAGES = ("serialize", "encrypt", "write")
RESTORE_STAGES = ("read", "decrypt", "parse")
CONVID_ALPHABET = string.ascii_letters + string.digits
CONVID_LENGTH = 22
_ALPHABET_SIZE = len(CONVID_ALPHABET)
_EVEN = 256 - 256 % _ALPHABET_SIZE  # the bytes that map evenly onto the alphabet
TITLE_LIMIT = 200
UNREADABLE_TITLE = "(this title cannot be read)"

#: What a re-encryption found: done, already under the current key, or nothing to re-encrypt.
Reencrypted = Literal["reencrypted", "current", "absent"]


def new_convid() -> str:
    """A conversation id: 22 characters of ``[0-9A-Za-z]`` from a CSPRNG.

    One read of the CSPRNG, not one per character (``secrets.choice``): each read releases the
    interpreter lock, and under load every release is a wait to get it back (19 µs per id in
    one thread before). Bytes below 248 (4 x 62) map evenly onto the 62 characters; the others
    are skipped.
    """
    chars: list[str] = []
    while len(chars) < CONVID_LENGTH:
        chars += [CONVID_ALPHABET[b % _ALPHABET_SIZE] for b in secrets.token_bytes(32) if b < _EVEN]
    return "".join(chars[:CONVID_LENGTH])


def title_from_query(query: str) -> str:
    """The first query, cut at a word boundary at 200 characters."""
    text = " ".join(query.split())
    if len(text) <= TITLE_LIMIT:
        return text or "New conversation"
    cut = text[: TITLE_LIMIT + 1].rsplit(" ", 1)[0]
    return (cut if cut else text[:TITLE_LIMIT]).rstrip()[:TITLE_LIMIT]


def seal_state(cipher: StateCipher, plain: bytes, *, convid: str, owner: str) -> bytes:
    """The encrypted record of a serialized state (bound to its conversation and owner)."""
    return cipher.encrypt(plain, convid=convid, owner=owner, purpose="state")


def open_state(cipher: StateCipher, blob: bytes, *, convid: str, owner: str) -> bytes:
    """The serialized state in a record ``seal_state`` made (``InvalidRecord`` otherwise)."""
    return cipher.decrypt(blob, convid=convid, owner=owner, purpose="state")


class _Clock:
    """Marks the end of each stage with ``perf_counter_ns``; durations in microseconds."""

    def __init__(self) -> None:
        self.stages: dict[str, float] = {}
        self._last = time.perf_counter_ns()

    def lap(self, stage: str) -> None:
        now = time.perf_counter_ns()
        self.stages[stage] = (now - self._last) / 1000.0
        self._last = now


@dataclass
class StageTimes:
    """Microseconds per stage of one save or restore, and the bytes involved."""

    stages: dict[str, float] = field(default_factory=dict)
    plain_bytes: int = 0
    stored_bytes: int = 0

    @property
    def total_us(self) -> float:
        return sum(self.stages.values())


@dataclass(frozen=True)
class Restored:
    """A restored state, its entry, the record as stored (``None``: no state saved, or the
    state hooks keep it) and the time of each stage."""

    state: dict[str, Any]
    entry: ConversationEntry
    blob: bytes | None
    times: StageTimes

    def record(self) -> dict[str, Any] | None:
        """What the store holds, without decrypting it again (the demo's inspector)."""
        if self.blob is None:
            return None
        info = record_info(self.blob)
        return {
            "size": len(self.blob),
            "keyId": info.key_id,
            "formatVersion": info.format_version,
            "stateVersion": self.entry.state_version,
            "hexPreview": self.blob[:48].hex(),
        }


@dataclass(frozen=True)
class Saved:
    """What a save wrote (its new version) and the time of each stage."""

    committed: Committed
    times: StageTimes


class Vault:
    """Saves and restores the states and titles of conversations on one store.

    ``hooks`` are the enterprise state hooks (the cloud then keeps only the entry);
    ``hooks_error`` is why the configured hooks could not be loaded: every state operation then
    fails with ``HookFailed`` rather than silently keep the state in the wrong place.
    """

    def __init__(
        self,
        store: ConversationStore,
        cipher: StateCipher,
        *,
        hooks: LoadedHooks | None = None,
        hooks_error: str | None = None,
        max_state_bytes: int = DEFAULT_MAX_STATE_BYTES,
    ) -> None:
        self.store = store
        self.cipher = cipher
        self.hooks = hooks
        self.hooks_error = hooks_error
        self.max_state_bytes = max_state_bytes

    def _hooks(self) -> LoadedHooks | None:
        if self.hooks_error is not None:
            raise HookFailed("load", f"State hooks could not be loaded: {self.hooks_error}")
        return self.hooks

    # --- state ----------------------------------------------------------------------------

    def restore(self, account: str, owner: str, convid: str) -> Restored:
        """The state of ``owner``'s conversation ``convid``.

        Raises ``UnknownConversation`` (missing or another owner's), ``InvalidRecord`` (the
        record cannot be opened), ``HookFailed`` and ``StoreError``.
        """
        clock = _Clock()
        stored = self.store.load(account, convid)
        if stored is None or stored.entry.owner != owner:
            raise UnknownConversation(convid)
        if stored.blob is None:
            return self._restore_from_hooks(stored.entry, owner, clock)
        clock.lap("read")
        plain = open_state(self.cipher, stored.blob, convid=convid, owner=owner)
        clock.lap("decrypt")
        state = parse_state(plain)
        clock.lap("parse")
        times = StageTimes(clock.stages, plain_bytes=len(plain), stored_bytes=len(stored.blob))
        return Restored(state, stored.entry, stored.blob, times)

    def _restore_from_hooks(self, entry: ConversationEntry, owner: str, clock: _Clock) -> Restored:
        hooks = self._hooks()
        if entry.state_version == 0:
            return Restored(empty_state(), entry, None, StageTimes(clock.stages))
        if hooks is None or not hooks.keeps_state:
            # Saved through state hooks that are no longer configured: refuse rather than
            # start over from an empty state that the next run would save.
            raise HookFailed(
                "restore",
                "this conversation's state is kept by state hooks, and none are configured",
            )
        # The state lives in the customer's systems; nothing there means no state yet.
        restored = hooks.restore_state(convid=entry.convid, user_email=owner)
        clock.lap("read")
        if restored is None:
            return Restored(empty_state(), entry, None, StageTimes(clock.stages))
        try:
            plain = check_state(restored, self.max_state_bytes)
            state = parse_state(plain)
        except StateInvalid as exc:
            raise HookFailed("restore", f"returned an unusable state: {exc}") from exc
        clock.lap("parse")
        return Restored(state, entry, None, StageTimes(clock.stages, plain_bytes=len(plain)))

    def save(
        self,
        *,
        account: str,
        owner: str,
        convid: str,
        state: dict[str, Any] | bytes,
        expected_version: int,
        now: datetime,
        title: str | None = None,
        agent_name: str = "",
        validation: bool = False,
    ) -> Saved:
        """Save ``state`` over ``expected_version`` (0 creates the conversation, titled
        ``title``). Validation runs keep their state in the cloud even with state hooks.

        ``agent_name`` (the agent of the run) is kept on the entry, so routing a follow-up back to
        it needs no decryption (``last_agent``).

        ``state`` may also be the bytes ``check_state`` returned for it, when the caller checked
        it beforehand: the serialize stage is then skipped (``loadtests writers`` measures the
        encrypt and write stages alone that way).

        Raises ``StateInvalid`` (naming the place), ``HookFailed`` (the hook's save failed:
        nothing was committed), ``VersionConflict`` and ``StoreError``.
        """
        clock = _Clock()
        if isinstance(state, bytes):
            plain = state
        else:
            plain = check_state(state, self.max_state_bytes)
            clock.lap("serialize")
        hooks = self._hooks()
        to_hook = hooks is not None and hooks.keeps_state and not validation
        blob = None if to_hook else seal_state(self.cipher, plain, convid=convid, owner=owner)
        sealed_title = b""
        if expected_version == 0 and title is not None:
            sealed_title = self.cipher.encrypt(
                title.encode(), convid=convid, owner=owner, purpose="title"
            )
        clock.lap("encrypt")
        if to_hook and hooks is not None:
            # The hook saves first: if it fails, the entry is untouched and the previous state
            # stays current. If the hook succeeds and the commit below then loses a race
            # (VersionConflict), the hook holds this run's state while the entry keeps the
            # winner's version: the customer's store is last-writer-wins by design.
            hooks.save_state(
                convid=convid,
                state=json.loads(plain),
                user_email=owner,
                agent_name=agent_name,
                is_validation=False,
            )
        committed = self.store.commit_run(
            account=account,
            convid=convid,
            owner=owner,
            expected_version=expected_version,
            blob=blob,
            now=now,
            title_if_new=sealed_title,
            agent=agent_name,
        )
        clock.lap("write")
        times = StageTimes(
            clock.stages, plain_bytes=len(plain), stored_bytes=len(blob) if blob else 0
        )
        return Saved(committed, times)

    def last_agent(self, account: str, owner: str, convid: str) -> str | None:
        """The agent of the latest saved run, from the entry (no decryption).

        A conversation saved before the store kept it on the entry is restored once instead.
        Raises what ``restore`` raises.
        """
        entry = self.store.get_entry(account, convid)
        if entry is None or entry.owner != owner:
            raise UnknownConversation(convid)
        if entry.last_agent or entry.state_version == 0:
            return entry.last_agent or None
        return last_agent(self.restore(account, owner, convid).state)

    def delete(self, account: str, owner: str, convid: str) -> None:
        """Delete a conversation; with state hooks, the hook deletes its state first.

        A failing ``deleteConversation`` (``HookFailed``) leaves the entry, so nothing is
        orphaned. The caller has checked that ``owner`` owns it.
        """
        hooks = self._hooks()
        if hooks is not None and hooks.keeps_state:
            hooks.delete_state(convid=convid, user_email=owner)
        self.store.delete(account, convid)

    # --- titles ---------------------------------------------------------------------------

    def title(self, entry: ConversationEntry) -> str:
        """The decrypted title of an entry (a placeholder when it cannot be read)."""
        try:
            return self.cipher.decrypt(
                entry.title, convid=entry.convid, owner=entry.owner, purpose="title"
            ).decode("utf-8")
        except (InvalidRecord, UnicodeDecodeError):
            return UNREADABLE_TITLE

    def set_title(self, account: str, owner: str, convid: str, title: str) -> None:
        """Encrypt and store a new title (the caller has checked that ``owner`` owns it)."""
        blob = self.cipher.encrypt(title.encode(), convid=convid, owner=owner, purpose="title")
        self.store.update_entry(account, convid, title=blob)

    # --- key rotation ---------------------------------------------------------------------

    def reencrypt_state(self, account: str, convid: str) -> Reencrypted:
        """Re-encrypt the stored state under the current key (compare-and-swap on the version).

        Raises ``InvalidRecord`` (left as it is) and ``VersionConflict`` (a run saved meanwhile).
        """
        stored = self.store.load(account, convid)
        if stored is None or stored.blob is None:
            return "absent"  # deleted meanwhile, or the state lives in hooks
        if not self.cipher.needs_reencryption(stored.blob):
            return "current"
        blob = self.cipher.reencrypt(
            stored.blob, convid=convid, owner=stored.entry.owner, purpose="state"
        )
        self.store.replace_blob(
            account, convid, expected_version=stored.entry.state_version, blob=blob
        )
        return "reencrypted"

    def reencrypt_title(self, account: str, convid: str) -> Reencrypted:
        """Re-encrypt the title under the current key, unless it changed meanwhile.

        A title set by the user in that instant already uses the current key, so nothing of it
        is lost either way. Raises ``InvalidRecord`` (left as it is).
        """
        fresh = self.store.get_entry(account, convid)
        if fresh is None or not fresh.title:
            return "absent"
        if not self.cipher.needs_reencryption(fresh.title):
            return "current"
        title = self.cipher.reencrypt(
            fresh.title, convid=fresh.convid, owner=fresh.owner, purpose="title"
        )
        latest = self.store.get_entry(account, convid)
        if latest is None or latest.title != fresh.title:
            return "absent"  # renamed meanwhile: the new title is already under the current key
        self.store.update_entry(account, convid, title=title)
        return "reencrypted"
