"""What ``loadtests run`` settles before it starts anything: the identities and the agent folder.

Each is checked in the runner's own process, so a bad file is one line and exit 2 before any
server or Locust process starts, and handed to the Locust processes as environment variables
(a path, never a token). The notes are lines for the run's output: what will not be used, and
what is not protected (``target_notes``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from agents_catalog.loader import default_account_dir
from loadtests.identities import TOKEN_ENV, TOKENS_FILE_ENV, read_tokens_file
from loadtests.journeys import JourneyPlanner
from loadtests.settings import AGENTS_DIR_ENV
from loadtests.target import Target


class PreflightError(ValueError):
    """A file or folder the run was given cannot be used."""


@dataclass
class Identities:
    """Where the users' tokens come from (``source``: ``file``, ``LOADTEST_TOKEN`` or
    ``mock user``; ``file`` names the file) and how many there are."""

    source: str
    count: int
    file: Path | None = None
    env: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def identities(tokens_file: Path | None, environ: Mapping[str, str]) -> Identities:
    """The run's tokens: ``--tokens FILE`` (or ``LOADTEST_TOKENS_FILE``), else ``LOADTEST_TOKEN``,
    else the embedded account's first user. The file is read here to check it."""
    given = tokens_file or (Path(p) if (p := environ.get(TOKENS_FILE_ENV)) else None)
    if given is not None:
        path = given.resolve()
        count = len(read_tokens_file(path))
        notes = (
            [f"loadtests: {TOKEN_ENV} is not used: the tokens come from {path}"]
            if environ.get(TOKEN_ENV)
            else []
        )
        return Identities("file", count, path, {TOKENS_FILE_ENV: str(path)}, notes)
    if environ.get(TOKEN_ENV, "").strip():
        return Identities(TOKEN_ENV, 1)
    return Identities("mock user", 1)


@dataclass(frozen=True)
class AgentFolder:
    """The folder that plans the journeys, and the names of the agents in it."""

    path: Path
    names: frozenset[str]
    env: dict[str, str]


def agent_folder(agents: Path | None) -> AgentFolder:
    """``--agents DIR`` (default: the embedded account), planned once here to check it."""
    path = (agents or default_account_dir()).resolve()
    if not path.is_dir():
        raise PreflightError(f"--agents {path}: not a folder of agent files")
    planner = JourneyPlanner.from_account(path)
    return AgentFolder(path, frozenset(planner.graph.agents), {AGENTS_DIR_ENV: str(path)})


def target_notes(target: Target | None, *, insecure: bool) -> list[str]:
    """Lines to print before the run about ``target`` (``None``: the server the run starts)."""
    notes = []
    if target is not None and target.had_credentials:
        notes.append(
            "loadtests: the user:password in --host is not sent: requests authenticate with "
            "bearer tokens (--tokens FILE or LOADTEST_TOKEN)"
        )
    if insecure:
        if target is not None and target.tls:
            notes.append(
                f"loadtests: warning: --insecure: the TLS certificate of {target.url} is not "
                "verified; anyone on the way can read and change the traffic, tokens included"
            )
        else:
            notes.append("loadtests: warning: --insecure has no effect: the target is not https")
    if target is not None and not target.tls and not target.loopback:
        notes.append(
            f"loadtests: warning: {target.url} is plain http to another machine: the bearer "
            "tokens cross the network unencrypted"
        )
    return notes
