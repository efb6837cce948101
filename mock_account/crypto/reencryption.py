"""What every re-encryption pass shares (conversations, workflow records, channel records and
configuration versions, after ``mock-account keys rotate``).

A record already under the current key is counted and skipped, so an interrupted pass resumes
where it stopped; one that cannot be opened is named and left as it is, never overwritten. The
passes' reports print alike: their counts, then every record left unreadable or still busy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from mock_account.crypto.cipher import Purpose, StateCipher
from mock_account.crypto.errors import InvalidRecord


@dataclass
class ReencryptCounts:
    """The counts of one pass that every pass keeps; each pass's report adds its own."""

    current: int = 0  # records already under the current key
    unreadable: list[str] = field(default_factory=list)  # left as they are

    def resealed(
        self,
        cipher: StateCipher,
        blob: bytes,
        name: str,
        *,
        convid: str,
        owner: str,
        purpose: Purpose,
    ) -> bytes | None:
        """``blob`` sealed again under the current key, or ``None`` when there is nothing to
        write: it already is (counted in ``current``) or cannot be opened (``name`` goes to
        ``unreadable``)."""
        if not cipher.needs_reencryption(blob):
            self.current += 1
            return None
        try:
            return cipher.reencrypt(blob, convid=convid, owner=owner, purpose=purpose)
        except InvalidRecord:
            self.unreadable.append(name)
            return None


def report_lines(
    counts: dict[str, int],
    unreadable: Iterable[str],
    gave_up: Iterable[str] = (),
    *,
    unreadable_label: str = "unreadable",
) -> list[str]:
    """A pass's report as printed: a line a count (by its label), then a line a record left
    unreadable and a line a record still changing after every retry."""
    out = [f"{label}: {count}" for label, count in counts.items()]
    out += [f"{unreadable_label}, left as is: {item}" for item in unreadable]
    out += [f"busy, run again to finish: {item}" for item in gave_up]
    return out
