"""The ``Server-Timing`` header of execAgent: each phase of the run, in milliseconds.

The phases are disjoint and follow each other, so they add up: ``restore`` (read, decrypt and
parse the state; only when a state was read, i.e. not for a new conversation), ``run`` (the
engine), then the vault's save stages ``serialize``, ``encrypt`` and ``write``. ``total`` is
the whole call, from the request's arrival in the account to its answer: what the phases leave
of it is the account's own bookkeeping.

``server_timing`` writes it; ``parse_server_timing`` is how every client here reads it back.
"""

from __future__ import annotations

from collections.abc import Mapping

PHASES = ("restore", "run", "serialize", "encrypt", "write")
TOTAL = "total"


def server_timing(timings: Mapping[str, float]) -> str:
    """``restore;dur=0.123, run;dur=4.560, ...`` from phase durations in seconds.

    Durations go out in milliseconds with three decimals (microsecond precision); a phase the
    run never reached (a failure before saving) is left out.
    """
    return ", ".join(
        f"{phase};dur={timings[phase] * 1000:.3f}" for phase in (*PHASES, TOTAL) if phase in timings
    )


def parse_server_timing(header: str | None) -> dict[str, float]:
    """``{"restore": 0.123, ...}`` in milliseconds from a ``Server-Timing`` header.

    Entries without a valid ``dur`` are skipped: the header is informational, never fatal.
    """
    phases: dict[str, float] = {}
    for entry in (header or "").split(","):
        name, *params = (part.strip() for part in entry.split(";"))
        for param in params:
            key, _, value = param.partition("=")
            if name and key.strip().lower() == "dur":
                try:
                    phases[name] = float(value.strip().strip('"'))
                except ValueError:
                    pass
    return phases
