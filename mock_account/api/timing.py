"""The ``Server-Timing`` header of execAgent: each phase of the run, in milliseconds.

``server_timing`` writes it; ``parse_server_timing`` is how every client here reads it back.
"""

from __future__ import annotations

from collections.abc import Mapping

PHASES = ("restore", "run", "encrypt", "save")


def server_timing(timings: Mapping[str, float]) -> str:
    """``restore;dur=0.123, run;dur=4.560, ...`` from phase durations in seconds.

    Durations go out in milliseconds with three decimals (microsecond precision); a phase the
    run never reached (a failure before saving) is left out.
    """
    return ", ".join(
        f"{phase};dur={timings[phase] * 1000:.3f}" for phase in PHASES if phase in timings
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
