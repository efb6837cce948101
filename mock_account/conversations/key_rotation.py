"""Key rotation: re-encrypt every stored state and title under the current key, and count keys.

After ``mock-account keys rotate`` adds a key, new records use it while old ones stay readable
under their own keys. :func:`reencrypt_store` rewrites the old ones:

- each conversation is independent: the vault re-encrypts its state (compare-and-swap on the
  version; on ``VersionConflict`` it is re-read and tried again, up to ``retries`` times) and its
  title;
- records already under the current key are skipped (``needs_reencryption``), so an interrupted
  run simply resumes when started again and finishes the rest;
- a record that cannot be opened is counted and left as it is, never overwritten.

A title is rewritten only if it is still the bytes that were read a moment before (see
``Vault.reencrypt_title``).

Servers holding the keyring in memory must know the new key before records are re-encrypted
under it: restart them after ``rotate`` and before ``reencrypt``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice

from mock_account.conversations.vault import Reencrypted, Vault
from mock_account.crypto import InvalidRecord, StateCipher, record_key_id
from mock_account.crypto.reencryption import ReencryptCounts, report_lines
from mock_account.stores import ConversationEntry, ConversationStore, VersionConflict

DEFAULT_BATCH = 100
DEFAULT_RETRIES = 5


@dataclass
class ReencryptReport(ReencryptCounts):
    """Counts of one re-encryption pass (``unreadable`` names "account/convid purpose")."""

    conversations: int = 0
    states: int = 0  # states re-encrypted
    titles: int = 0  # titles re-encrypted
    conflicts: int = 0  # compare-and-swap losses that were retried
    gave_up: list[str] = field(default_factory=list)  # still changing after every retry

    def lines(self) -> list[str]:
        counts = {
            "conversations": self.conversations,
            "states re-encrypted": self.states,
            "titles re-encrypted": self.titles,
            "already on the current key": self.current,
            "write conflicts retried": self.conflicts,
        }
        return report_lines(counts, self.unreadable, self.gave_up)


def _batches(entries: Iterator[ConversationEntry], size: int) -> Iterator[list[ConversationEntry]]:
    while chunk := list(islice(entries, size)):
        yield chunk


def _reencrypt_state(
    vault: Vault, entry: ConversationEntry, report: ReencryptReport, retries: int
) -> None:
    name = f"{entry.account}/{entry.convid}"
    for _ in range(retries + 1):
        try:
            done = vault.reencrypt_state(entry.account, entry.convid)
        except InvalidRecord:
            report.unreadable.append(f"{name} state")
            return
        except VersionConflict:
            report.conflicts += 1  # a run saved meanwhile: read its state and try again
            continue
        _count(report, done, "states")
        return
    report.gave_up.append(f"{name} state")


def _reencrypt_title(vault: Vault, entry: ConversationEntry, report: ReencryptReport) -> None:
    try:
        done = vault.reencrypt_title(entry.account, entry.convid)
    except InvalidRecord:
        report.unreadable.append(f"{entry.account}/{entry.convid} title")
        return
    _count(report, done, "titles")


def _count(report: ReencryptReport, done: Reencrypted, counter: str) -> None:
    if done == "current":
        report.current += 1
    elif done == "reencrypted":
        setattr(report, counter, getattr(report, counter) + 1)


def reencrypt_store(
    store: ConversationStore,
    cipher: StateCipher,
    *,
    batch: int = DEFAULT_BATCH,
    retries: int = DEFAULT_RETRIES,
    progress: Callable[[ReencryptReport], None] | None = None,
) -> ReencryptReport:
    """Re-encrypt every state and title of ``store`` under ``cipher``'s current key.

    ``progress`` is called after every ``batch`` conversations with the running counts.
    """
    if batch < 1:
        raise ValueError("the batch size must be at least 1")
    report = ReencryptReport()
    vault = Vault(store, cipher)
    for chunk in _batches(iter(list(store.iter_entries())), batch):
        for entry in chunk:
            report.conversations += 1
            _reencrypt_state(vault, entry, report, retries)
            _reencrypt_title(vault, entry, report)
        if progress is not None:
            progress(report)
    return report


@dataclass
class KeyStatus:
    """How many stored records use each key id."""

    states: Counter[str] = field(default_factory=Counter)
    titles: Counter[str] = field(default_factory=Counter)
    in_hooks: int = 0  # conversations whose state the state hooks keep
    unreadable: int = 0  # records whose header cannot be parsed

    def lines(
        self, current: str | None = None, source_of: Callable[[str], str] | None = None
    ) -> list[str]:
        """One line per key id; with ``source_of`` (key id -> source name), each line names its
        source and a last line says how many records are on the current key's source."""

        def named(key_id: str) -> str:
            return f" [{source_of(key_id)}]" if source_of is not None else ""

        out = []
        for key_id in sorted(set(self.states) | set(self.titles)):
            mark = " (current)" if key_id == current else ""
            out.append(
                f"{key_id}{named(key_id)}{mark}: {self.states[key_id]} states, "
                f"{self.titles[key_id]} titles"
            )
        if current is not None and current not in self.states and current not in self.titles:
            out.append(f"{current}{named(current)} (current): 0 states, 0 titles")
        out.append(f"states kept by state hooks: {self.in_hooks}")
        if self.unreadable:
            out.append(f"unreadable records: {self.unreadable}")
        if source_of is not None and current is not None:
            target = source_of(current)
            total = sum(self.states.values()) + sum(self.titles.values())
            done = sum(
                n
                for counter in (self.states, self.titles)
                for key_id, n in counter.items()
                if source_of(key_id) == target
            )
            out.append(f"records on {target} keys: {done} of {total}")
        return out


def key_status(store: ConversationStore) -> KeyStatus:
    """Count the records of every conversation of ``store`` by key id (nothing is decrypted)."""
    status = KeyStatus()
    for entry in list(store.iter_entries()):
        stored = store.load(entry.account, entry.convid)
        if stored is None:
            continue
        records = [(status.titles, stored.entry.title)]
        if stored.blob is not None:
            records.append((status.states, stored.blob))
        elif stored.entry.state_version > 0:
            status.in_hooks += 1
        for counter, record in records:
            if not record:
                continue
            try:
                counter[record_key_id(record)] += 1
            except InvalidRecord:
                status.unreadable += 1
    return status
