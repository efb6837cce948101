"""Shared by the workflow tests: a clock that moves only when told to."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class Clock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float = 1.0) -> None:
        self.now += timedelta(seconds=seconds)
