"""The ``Server-Timing`` header of execAgent: each phase of the run, in milliseconds."""

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
