"""What an action of the mock world gives (``Outcome``), and where the values it was given
came from (``Held``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .recipe import Record


@dataclass(frozen=True)
class Held:
    """Which conversation variable each value an agent passes came from (``{conv.trip.x}``
    gives ``"trip"``): its ``given`` and ``where`` values by field, and its ``base``. Values
    not in it are the agent's own."""

    given: Mapping[str, str] = field(default_factory=dict)
    where: Mapping[str, str] = field(default_factory=dict)
    base: str | None = None


@dataclass
class Outcome:
    """What an action gave: the record, or why there is none."""

    record: Record | None
    kind: str
    asked: str = ""
    closest: list[str] = field(default_factory=list)
    message: str = ""
    stated: dict[str, Any] = field(default_factory=dict)
    changed: list[str] = field(default_factory=list)
    # The conversation variables whose values the record did not take: the request is about
    # another record than the one they hold (``Recipe.applicable``, ``Finding.find``).
    set_aside: list[str] = field(default_factory=list)
    # The record of the data the request named when nothing was made of it because it exists
    # already ("set up Perez Consulting as a supplier"): the conversation is about it from then.
    known: Record | None = None
    # What a question about the record answers, when the request asks and changes nothing
    # ("Is INV-000318 still unpaid?" to the agent that sends reminders).
    answer: str | None = None

    @property
    def found(self) -> bool:
        return self.record is not None

    def report(self) -> dict[str, Any]:
        """The agent's view of the outcome (the ``outcome`` local)."""
        report = {
            "found": self.found,
            "kind": self.kind,
            "asked": self.asked,
            "closest": ", ".join(self.closest),
            "message": self.message,
            "stated": self.stated,
            "changed": list(self.changed),
        }
        if self.answer is not None:
            report["answer"] = self.answer
        return report
