"""Shared text machinery: word tokens with spans, folding, sentences, claimed spans, negation.

A request is analysed once into `Analysis`: its words (with character spans, original and folded
form), the sentence each word starts, and a mask of the characters some fact has already claimed,
so that later extractors skip them ("7 December" is a date, not a quantity of Decembers).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

# Letters and digits; an apostrophe inside a word keeps it whole ("it's", "O'Neil") so that
# negations like "isn't" stay one word.
WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
# A sentence ends at . ! ? or a line break followed by space; "e.g." and "S.A." are not ends
# because the next character is not a space, or the word before is one letter.
_SENTENCE_END_RE = re.compile(r"(?<![A-Z])(?<!\b[a-z])[.!?;]+(?=\s)|\n+")
_NEGATIONS = frozenset(
    {"not", "no", "never", "non", "without", "nothing", "none", "neither", "nor", "hardly"}
)
# A full stop or colon between digits is a number or a time ("184.50", "09:15"), not a break.
_CLAUSE_BREAK_RE = re.compile(
    r"[;!?]|(?<!\d)[.:]|[.:](?!\d)|\bbut\b|\bhowever\b|\brather\b|\binstead\b"
)


@lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """Lower case without accents: "Zürich" -> "zurich", "Köln" -> "koln"."""
    folded = word.casefold()
    if folded.isascii():
        return folded
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ß", "ss")


@dataclass(slots=True)
class Word:
    text: str
    start: int
    end: int
    folded: str
    sentence_start: bool  # first word of its sentence

    @property
    def capitalised(self) -> bool:
        return self.text[0].isupper()


@dataclass(slots=True)
class Analysis:
    text: str
    words: list[Word]
    claimed: bytearray = field(default_factory=bytearray)

    @classmethod
    def of(cls, text: str) -> Analysis:
        ends = [m.end() for m in _SENTENCE_END_RE.finditer(text)]
        words: list[Word] = []
        k = 0
        last_end = 0
        for m in WORD_RE.finditer(text):
            # A word starts a sentence when a sentence end lies between it and the word before.
            while k < len(ends) and ends[k] < last_end:
                k += 1
            boundary = not words or (k < len(ends) and ends[k] <= m.start())
            token, end = m.group(), m.end()
            if len(token) > 3 and token[-2] in "'’" and token[-1] in "sS":
                # "Schmidt's", "Lisbon's": the name without its possessive ending.
                token, end = token[:-2], end - 2
            words.append(Word(token, m.start(), end, fold(token), boundary))
            last_end = m.end()
        return cls(text, words, bytearray(len(text)))

    def is_free(self, start: int, end: int) -> bool:
        return not any(self.claimed[start:end])

    def claim(self, start: int, end: int) -> None:
        self.claimed[start:end] = b"\x01" * (end - start)

    def word_index_at(self, pos: int) -> int:
        """Index of the first word starting at or after `pos` (len(words) if none)."""
        lo, hi = 0, len(self.words)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.words[mid].start < pos:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def words_before(self, pos: int, n: int) -> list[Word]:
        """Up to `n` words ending before `pos`, nearest last, within the same clause."""
        i = self.word_index_at(pos)
        out: list[Word] = []
        j = i - 1
        while j >= 0 and len(out) < n:
            w = self.words[j]
            # Searched in place, one character past the gap, so a full stop between digits
            # is seen as part of a number.
            if _CLAUSE_BREAK_RE.search(self.text, w.end, (out[0].start if out else pos) + 1):
                break
            out.insert(0, w)
            if w.sentence_start:
                break
            j -= 1
        return out


def negated_before(analysis: Analysis, pos: int, window: int = 3) -> bool:
    """Whether one of the few words before `pos` in the same clause denies what follows
    ("not urgent", "it isn't a sev1", "non-urgent")."""
    for w in analysis.words_before(pos, window):
        if w.folded in _NEGATIONS or w.folded.endswith(("n't", "n’t")):
            return True
    return False
