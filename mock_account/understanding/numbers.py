"""Numbers written in digits or in words: "1,200.50", "1.5k", "2 million", "forty-five", "a dozen".

`NUMBER` is a regular-expression fragment (no groups) that other extractors embed; `parse_number`
turns the text it matched into a Decimal.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

UNITS: dict[str, int] = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
TENS: dict[str, int] = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
SCALES: dict[str, int] = {
    "hundred": 100,
    "thousand": 1_000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
}
_MULTIPLIERS: dict[str, int] = {
    "k": 1_000,
    "thousand": 1_000,
    "grand": 1_000,
    "lakh": 100_000,
    "lakhs": 100_000,
    "crore": 10_000_000,
    "crores": 10_000_000,
    "m": 1_000_000,
    "mn": 1_000_000,
    "mio": 1_000_000,
    "million": 1_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
}

_WORD = "|".join(sorted([*UNITS, *TENS, *SCALES, "dozen"], key=len, reverse=True))
# A run of number words: "forty-five", "two hundred and fifty", "a dozen", "half a dozen".
WORDS_NUMBER = (
    r"(?:half\s+a\s+dozen|(?:an?\s+(?=(?:hundred|thousand|million|billion|dozen)\b))?"
    rf"(?:{_WORD})(?:(?:\s+and\s+|[\s-]+)(?:{_WORD}))*)"
    rf"(?!\w)(?!-(?:{_WORD})\b)"
)
# Digits with thousands separators or a decimal part: "1,200", "1,200.50", "1.200,50", "45".
DIGITS_NUMBER = r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+,\d{1,2}|\d+(?:[.,]\d+)?)"
# A multiplier right after digits: "1.5k", "2 million", "3bn".
MULTIPLIER = (
    r"(?:\s?(?:k|K|m|M|mn|mio|bn|BN)\b|\s+(?:thousand|million|billion|grand|lakhs?|crores?)\b)"
)
# Any number, digits (maybe with a multiplier) or words.
NUMBER = rf"(?:{DIGITS_NUMBER}(?:{MULTIPLIER})?|\b{WORDS_NUMBER})"

_SPLIT_RE = re.compile(r"[\s-]+")


def parse_digits(text: str) -> Decimal | None:
    """ "1,200.50" -> 1200.50, "1.200,50" -> 1200.50, "45" -> 45, "4,5" -> 4.5."""
    text = text.strip()
    if "," in text and "." in text:
        if text.rfind(",") > text.rfind("."):  # European: 1.200,50
            text = text.replace(".", "").replace(",", ".")
        else:
            text = text.replace(",", "")
    elif "," in text:
        head, _, tail = text.rpartition(",")
        # "1,200" groups thousands; "4,5" is a decimal comma.
        text = text.replace(",", "") if len(tail) == 3 else f"{head.replace(',', '')}.{tail}"
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def parse_words(text: str) -> int | None:
    """ "forty-five" -> 45, "two hundred and fifty" -> 250, "a dozen" -> 12, "a" alone -> None."""
    words = [w for w in _SPLIT_RE.split(text.lower().strip()) if w and w != "and"]
    if words[:3] == ["half", "a", "dozen"]:
        return 6
    if words and words[0] in ("a", "an"):
        if len(words) == 1:
            return None
        words[0] = "one"
    total = 0
    current = 0
    seen = False
    previous_small: int | None = None
    for word in words:
        if word in UNITS or word in TENS:
            value = UNITS.get(word, TENS.get(word, 0))
            # "twenty five" is fine, "five twenty" or "one two" is not one number.
            if previous_small is not None and not (previous_small >= 20 and value < 10):
                return None
            current += value
            previous_small = value
        elif word == "dozen":
            current = (current or 1) * 12
            previous_small = None
        elif word == "hundred":
            current = (current or 1) * 100
            previous_small = None
        elif word in SCALES:
            total += (current or 1) * SCALES[word]
            current = 0
            previous_small = None
        else:
            return None
        seen = True
    return total + current if seen else None


def parse_number(text: str) -> Decimal | None:
    """Any text matched by `NUMBER`."""
    text = text.strip()
    if not text:
        return None
    if text[0].isdigit():
        m = re.match(rf"({DIGITS_NUMBER})\s*(\w*)$", text)
        if not m:
            return None
        value = parse_digits(m.group(1))
        if value is None:
            return None
        suffix = m.group(2).lower()
        if suffix:
            if suffix not in _MULTIPLIERS:
                return None
            value *= _MULTIPLIERS[suffix]
        return value
    words = parse_words(text)
    return Decimal(words) if words is not None else None
