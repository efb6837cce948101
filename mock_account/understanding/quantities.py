"""Counts of things: "20 office chairs", "three laptops", "a dozen monitors", "a pair of
headsets".

Runs last, on the numbers no other fact has claimed (a date's day, an amount, an id, a
duration). The item is the run of up to four words after the number, up to a function word or
punctuation ("20 office chairs for the Berlin office" -> "office chairs"); words of time, money
and percentages are not items, and a year-like number (1900-2099) needs a plural item ("2027
budget" is not a count).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from .facts import QuantityFact
from .lexicon import FUNCTION_WORDS, MONTH_WORDS, WEEKDAY_WORDS
from .numbers import TENS, UNITS, WORDS_NUMBER, parse_number
from .text import Analysis

_COUNT_RE = re.compile(
    r"(?<![\w.,#$€£¥/:-])(?P<n>a\s+couple\s+of|a\s+pair\s+of|\d{1,3}(?:,\d{3})+|\d+"
    rf"|\b{WORDS_NUMBER})(?:\s+x)?(?=\s+[A-Za-z])",
    re.IGNORECASE,
)
# Cheap test before the pattern: a digit or a number word.
_MAYBE_COUNT_RE = re.compile(
    r"\d|\b(?i:" + "|".join([*UNITS, *TENS, "dozen", "couple", "pair", "hundred"]) + r")\b"
)
_NOT_ITEMS = frozenset(
    """
    night nights day days week weeks month months year years hour hours hr hrs minute minutes
    min mins second seconds fortnight fortnights percent pct times time am pm o'clock st nd rd th
    dollars euros pounds yen francs per than or and to of instead please then now each in all
    total altogether grand bucks
    """.split()
)
# Adjectives of amount dropped from the front of an item ("5 more monitors", "20 new chairs").
_DROP_FIRST = frozenset({"more", "extra", "additional", "further", "other", "spare", "new"})
_IRREGULAR = {
    "people": "person",
    "children": "child",
    "men": "man",
    "women": "woman",
    "mice": "mouse",
    "feet": "foot",
    "teeth": "tooth",
    "knives": "knife",
    "shelves": "shelf",
}


def find_quantities(
    analysis: Analysis, shared: Sequence[tuple[int, int]] = ()
) -> Iterator[QuantityFact]:
    """Counts of things; `shared` spans (known product names) may be items too ("20 Aero
    Office Chairs" is a count and a product)."""
    text = analysis.text
    if not _MAYBE_COUNT_RE.search(text):
        return
    for m in _PORTION_RE.finditer(text):
        # "only 18 of the 20 pallets": what is counted is the 18.
        item_words = _item(analysis, m.end(), shared)
        if not item_words or not analysis.is_free(m.start(), m.end()):
            continue
        first, last = analysis.words[item_words[0]], analysis.words[item_words[-1]]
        item = text[first.start : last.end]
        analysis.claim(m.start(), last.end)
        yield QuantityFact(
            int(m.group("part")), item, singular(item), text[m.start() : last.end],
            (m.start(), last.end),
        )  # fmt: skip
    for m in _COUNT_RE.finditer(text):
        start, end = m.span("n")
        if not analysis.is_free(start, end):
            continue
        raw = " ".join(m.group("n").lower().split())
        if raw in ("a couple of", "a pair of"):
            count = 2
        else:
            value = parse_number(raw)
            if value is None or value != value.to_integral_value() or value <= 0:
                continue
            count = int(value)
        if raw in ("one", "a", "an"):
            before = analysis.words_before(start, 1)
            if before and before[0].folded in ("the", "this", "that", "which", "each", "any"):
                continue  # "the one I ordered"
        item_words = _item(analysis, m.end(), shared)
        if not item_words:
            continue
        first_word = analysis.words[item_words[0]]
        if first_word.folded in _DROP_FIRST:
            item_words = item_words[1:]
            if not item_words:
                continue
        item_start = analysis.words[item_words[0]].start
        item_end = analysis.words[item_words[-1]].end
        item = text[item_start:item_end]
        if len(item_words) == 1 and analysis.words[item_words[0]].folded in _CONTAINERS:
            # "10 boxes of A4 paper": what is counted is the paper, in boxes.
            contents = _contents(analysis, item_words[0], shared)
            if contents:
                first, last = analysis.words[contents[0]], analysis.words[contents[-1]]
                item_end = last.end
                said = text[start:item_end]
                analysis.claim(start, item_end)
                item = text[first.start : last.end]
                yield QuantityFact(count, item, singular(item), said, (start, item_end))
                continue
        if 1900 <= count <= 2099 and not item.lower().endswith("s") and raw.isdigit():
            continue
        analysis.claim(start, item_end)
        yield QuantityFact(count, item, singular(item), text[start:item_end], (start, item_end))


# A part of a counted whole: "18 of the 20 pallets", "3 of our 12 laptops".
_PORTION_RE = re.compile(
    r"(?<![\w.,])(?P<part>\d+)\s+of\s+(?:the|those|these|our|their|all|its)\s+\d+(?=\s+[A-Za-z])",
    re.IGNORECASE,
)

# What things are counted in: "10 boxes of paper", "2 kg of coffee beans".
_CONTAINERS = frozenset(
    """
    box boxes pack packs packet packets case cases carton cartons ream reams bag bags bottle
    bottles can cans crate crates pallet pallets roll rolls set sets pair pairs bundle bundles
    kg kilo kilos kilogram kilograms g gram grams litre litres liter liters l tub tubs jar jars
    tin tins sheet sheets sack sacks tray trays unit units piece pieces
    """.split()
)


def _contents(analysis: Analysis, container: int, shared: Sequence[tuple[int, int]]) -> list[int]:
    """The words of what a container holds: "of" and up to three words after it."""
    words = analysis.words
    of = container + 1
    if of >= len(words) or words[of].folded != "of":
        return []
    if analysis.text[words[container].end : words[of].start].strip():
        return []
    return _item(analysis, words[of].end, shared)[:3]


def _item(analysis: Analysis, pos: int, shared: Sequence[tuple[int, int]]) -> list[int]:
    """Indexes of the words of the item right after `pos`."""
    words = analysis.words
    i = analysis.word_index_at(pos)
    out: list[int] = []
    while i < len(words) and len(out) < 4:
        w = words[i]
        gap = analysis.text[(words[out[-1]].end if out else pos) : w.start]
        if not re.fullmatch(r"\s+|-" if out else r"\s+", gap):
            break
        inside = any(a <= w.start and w.end <= b for a, b in shared)
        if not w.text[0].isalpha() and not inside:
            break  # a model's number belongs to its name ("40 PX-20 printers")
        if not analysis.is_free(w.start, w.end) and not inside:
            break
        # A word joined by a hyphen is part of the item's name ("pull-up banners").
        if w.folded in FUNCTION_WORDS and w.folded not in _DROP_FIRST and gap != "-":
            break
        if not out and (w.folded in _NOT_ITEMS or w.folded in MONTH_WORDS):
            return []
        if w.folded in WEEKDAY_WORDS or (out and w.sentence_start):
            break
        out.append(i)
        i += 1
        if _plural(w.folded) and w.folded not in _DROP_FIRST:
            break  # "two interns join", "120 miles round trip": the plural ends the item
    return out


def _plural(word: str) -> bool:
    return word in _IRREGULAR or (
        len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))
    )


def singular(item: str) -> str:
    """ "office chairs" -> "office chair", "batteries" -> "battery" (the last word only)."""
    head, _, last = item.rpartition(" ")
    lowered = last.lower()
    if lowered in _IRREGULAR:
        word = _IRREGULAR[lowered]
        word = word.capitalize() if last[0].isupper() else word
    elif lowered.endswith("ies") and len(lowered) > 4:
        word = last[:-3] + "y"
    elif lowered.endswith(("ches", "shes", "xes", "sses", "zzes")):
        word = last[:-2]
    elif lowered.endswith("s") and not lowered.endswith(("ss", "us", "is")) and len(lowered) > 3:
        word = last[:-1]
    else:
        word = last
    return f"{head} {word}" if head else word
