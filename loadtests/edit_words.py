"""Made-up words for the config-edit scenario (no Locust import: tests use it directly)."""

from __future__ import annotations

import string


def made_up_word(number: int) -> str:
    """A word no agent uses, different for each number (letters only: search keeps it)."""
    letters = []
    number += 26 * 26  # at least three letters after the prefix
    while number:
        number, rest = divmod(number, 26)
        letters.append(string.ascii_lowercase[rest])
    return "quorv" + "".join(letters)
