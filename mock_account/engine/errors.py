"""What ends a run early: the agent's own mistake, its time running out, or a stop from outside.

``Engine.run`` turns each into the result code a caller sees.
"""

from __future__ import annotations


class AgentError(Exception):
    """An agent did something invalid at run time (becomes ``errorInAgent``)."""


class RunTimedOut(Exception):
    """The run went past its time limit or its step limit (becomes ``timedOut``)."""


class RunStopped(Exception):
    """The caller asked the run to stop (becomes ``stopped``)."""
