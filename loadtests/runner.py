"""``loadtests run``: a Locust scenario run headless, with everything it needs, then reported.

1. Unless ``--host`` is given, start ``mock-account serve`` on a free loopback port (the HTTP
   scenarios only; stopped afterwards). ``--host`` takes any http(s) URL; one that is not this
   machine needs ``--allow-remote`` (``loadtests.target``), and is refused before any request.
   The target is asked what it is (``Server`` header, API version, store) before the load
   starts; its TLS certificate is verified unless ``--insecure``. ``--tokens FILE`` gives the
   users' bearer tokens (``loadtests.identities``), ``--agents DIR`` the agent folder that plans
   the journeys; both are checked before anything starts.
2. Run Locust as subprocesses: ``locust -f <scenario file> --headless -u N -r R -t T --csv
   DIR/locust --html DIR/report.html``; with ``--workers K`` a ``--master --expect-workers K``
   plus K ``--worker`` processes (Locust's own distributed mode). Every process has a deadline.
3. With ``--with-ceiling``, run the ``ceiling`` scenario next, on the same server, with the same
   users, spawn rate, run time and Locust workers, into ``OUT/ceiling/``: its req/s is the HTTP
   ceiling of the session, and the scenario's req/s and execAgent/s are divided by it.
4. Write ``summary.json`` (``loadtests.summary``: what was measured, the figures, which agents
   the journeys ran, the ceiling and the ratios to it), PNG plots (``loadtests.plots``), and
   print a short summary. Exit 1 with a line per threshold exceeded (``--max-fail-ratio``,
   ``--max-p99-ms``), or when a run produced nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from loadtests.identities import IdentityError
from loadtests.machine import machine_info
from loadtests.plots import plot_distribution, plot_over_time
from loadtests.preflight import (
    AgentFolder,
    Identities,
    PreflightError,
    agent_folder,
    identities,
    target_notes,
)
from loadtests.server import ServerError, free_port, local_server, stop_process
from loadtests.settings import (
    AGENT_RUNS_FILE_ENV,
    HISTOGRAMS_FILE_ENV,
    INSECURE_ENV,
    WORKERS_ENV,
    SettingsError,
    check_settings,
)
from loadtests.summary import (
    CEILING_SCENARIO,
    agent_runs,
    build_summary,
    format_summary,
    read_histograms,
    read_stats,
)
from loadtests.target import Target, TargetError, describe, parse_target, without_credentials

SCENARIOS = {
    "conversation": "conversation_user.py",
    "store": "store_user.py",
    "crypto": "crypto_user.py",
    "workflows": "workflow_user.py",
    "channels": "channel_user.py",
    "config-edit": "config_edit_user.py",
    CEILING_SCENARIO: "ceiling_user.py",
}
# The scenarios that talk to a server over HTTP (one is started unless --host is given).
HTTP_SCENARIOS = ("conversation", "workflows", "channels", "config-edit", CEILING_SCENARIO)
#: The ceiling run of ``--with-ceiling``: a folder of the run's own.
CEILING_FOLDER = "ceiling"
_RUN_TIME_RE = re.compile(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?")
# Beyond the run time: start-up, waiting for workers, Locust's stop timeout, writing reports.
EXTRA_TIME_S = 120


@dataclass
class RunConfig:
    scenario: str
    users: int
    spawn_rate: float
    run_time: str
    out: Path
    host: str | None = None
    store_url: str | None = None
    workers: int = 0
    server_workers: int = 1
    max_fail_ratio: float | None = None
    max_p99_ms: float | None = None
    think: tuple[float, float] | None = None
    rate: float | None = None
    allow_remote: bool = False
    insecure: bool = False
    tokens: Path | None = None
    agents: Path | None = None
    with_ceiling: bool = False


def run_time_seconds(text: str) -> int:
    """Seconds of a Locust run time: ``90``, ``20s``, ``2m``, ``1h30m``."""
    text = text.strip()
    if text.isdigit():
        seconds = int(text)
    else:
        match = _RUN_TIME_RE.fullmatch(text)
        if not text or match is None:
            raise ValueError(f"invalid run time {text!r}: use e.g. 20s, 2m, 1h30m")
        hours, minutes, secs = (int(g) if g else 0 for g in match.groups())
        seconds = hours * 3600 + minutes * 60 + secs
    if seconds < 1:
        raise ValueError(f"invalid run time {text!r}: at least one second")
    return seconds


def _non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from exc
    if value < 0 or value != value:
        raise argparse.ArgumentTypeError(f"expected a number of at least 0, got {text!r}")
    return value


def _count(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from exc
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected at least {minimum}, got {value}")
        return value

    return parse


def _run_time(text: str) -> str:
    try:
        run_time_seconds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc
    return text


def _think(text: str) -> tuple[float, float]:
    """``0`` (no think time), ``1.5`` or ``0.5-2`` (uniform between) seconds."""
    low_text, _, high_text = text.partition("-")
    low = _non_negative_float(low_text)
    high = _non_negative_float(high_text) if high_text else low
    if high < low:
        raise argparse.ArgumentTypeError(f"the think time {text!r} ends before it starts")
    return low, high


def _rate(text: str) -> float:
    value = _non_negative_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a rate above 0, got {text!r}")
    return value


def default_out(now: datetime | None = None) -> Path:
    """``out/run-YYYYMMDD-HHMMSS``: a new folder for each run."""
    return Path("out") / f"run-{(now or datetime.now()).strftime('%Y%m%d-%H%M%S')}"


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scenario", default="conversation", choices=sorted(SCENARIOS), help="default conversation"
    )
    parser.add_argument("--users", type=_count(1), default=50, help="simulated users (50)")
    parser.add_argument(
        "--spawn-rate", type=_non_negative_float, default=25, help="users started per second (25)"
    )
    parser.add_argument("--run-time", type=_run_time, default="60s", help="e.g. 20s, 2m (60s)")
    parser.add_argument(
        "--out", type=Path, help="folder for the reports (default out/run-<date>-<time>)"
    )
    parser.add_argument(
        "--think",
        type=_think,
        help="seconds an HTTP user waits between tasks: 0 saturates, 1.5, or 0.5-2 (uniform); "
        "default 0.5-2, or 0 with --rate",
    )
    parser.add_argument(
        "--rate",
        type=_rate,
        help="offered execAgent calls per second in all: each user paces its runs at "
        "rate / users per second (a fixed offered rate; a user that falls behind catches up "
        "for at most a second)",
    )
    parser.add_argument(
        "--host",
        help="the URL of a running server that speaks the API (default: start one here); "
        "another machine's needs --allow-remote",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="let --host name a server that is not this machine (one you may load)",
    )
    parser.add_argument(
        "--insecure",
        action="store_true",
        help="do not verify the target's TLS certificate (a warning says so)",
    )
    parser.add_argument(
        "--tokens",
        type=Path,
        metavar="FILE",
        help="bearer tokens, one per line, taken in turn by the users (default: LOADTEST_TOKEN, "
        "else the embedded account's first user); never printed",
    )
    parser.add_argument(
        "--agents",
        type=Path,
        metavar="DIR",
        help="the agent folder whose examples and hand-off graph plan the journeys: the "
        "target account's agents (default: the embedded account)",
    )
    parser.add_argument("--store", help="store URL of the started server or of the store users")
    parser.add_argument(
        "--workers",
        type=_count(0),
        default=0,
        help="Locust worker processes (0: one local process)",
    )
    parser.add_argument(
        "--server-workers",
        type=_count(1),
        default=1,
        help="processes of the started server (its --workers; default 1)",
    )
    parser.add_argument(
        "--max-fail-ratio",
        type=_non_negative_float,
        help="fail when failures / requests is above this (e.g. 0.01)",
    )
    parser.add_argument(
        "--max-p99-ms",
        type=_non_negative_float,
        help="fail when the p99 of all requests is above this many ms",
    )
    parser.add_argument(
        "--with-ceiling",
        action="store_true",
        help="then run the ceiling scenario on the same server with the same users, spawn rate, "
        "run time and workers (into OUT/ceiling) and print the scenario's req/s and "
        "execAgent/s over it (an HTTP scenario; use --think 0 for the saturating ratios)",
    )


def _locust_command(config: RunConfig, host: str, locustfile: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(locustfile),
        "--headless",
        "-u",
        str(config.users),
        "-r",
        str(config.spawn_rate),
        "-t",
        config.run_time,
        "--host",
        host,
        "--csv",
        str(config.out / "locust"),
        # Without it, the history's percentiles are cumulative since the start (they only
        # settle); with it, Locust writes those of its recent window (10 s), and a row per
        # request name as well as the aggregate.
        "--csv-full-history",
        "--html",
        str(config.out / "report.html"),
        "--stop-timeout",
        "5",
        "--only-summary",
        "--loglevel",
        "WARNING",
    ]


def _run_locust(config: RunConfig, host: str, env: dict[str, str]) -> int:
    """Run Locust (local, or master + workers); its exit code. Bounded by the run time."""
    locustfile = Path(__file__).with_name(SCENARIOS[config.scenario])
    deadline = run_time_seconds(config.run_time) + EXTRA_TIME_S
    command = _locust_command(config, host, locustfile)
    workers: list[subprocess.Popen] = []
    logs = []
    try:
        if config.workers:
            port = free_port()
            command += [
                "--master",
                "--expect-workers",
                str(config.workers),
                "--master-bind-host",
                "127.0.0.1",
                "--master-bind-port",
                str(port),
                "--expect-workers-max-wait",
                "60",
            ]
            for index in range(config.workers):
                log = open(config.out / f"locust-worker-{index + 1}.log", "wb")  # noqa: SIM115
                logs.append(log)
                workers.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "locust",
                            "-f",
                            str(locustfile),
                            "--worker",
                            "--master-host",
                            "127.0.0.1",
                            "--master-port",
                            str(port),
                            "--loglevel",
                            "WARNING",
                        ],
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        env=env,
                    )
                )
        with open(config.out / "locust.log", "wb") as log:
            master = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
            try:
                code = master.wait(timeout=deadline)
            except subprocess.TimeoutExpired:
                print(
                    f"loadtests: Locust did not finish within {deadline}s; stopped it",
                    file=sys.stderr,
                )
                stop_process(master)
                code = 1
        for worker in workers:
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                stop_process(worker)
        return code
    finally:
        for worker in workers:
            stop_process(worker)
        for log in logs:
            log.close()


def _summarize(
    config: RunConfig,
    host: str,
    target: dict[str, Any] | None,
    plan: tuple[Identities, AgentFolder] | None,
    server_cpu_s: float | None = None,
    ceiling: tuple[float, str] | None = None,
) -> dict[str, Any] | None:
    """Write the run's ``summary.json`` and plots; the summary, or ``None`` (said why) when
    Locust wrote no statistics."""
    out = config.out
    stats_csv = out / "locust_stats.csv"
    if not stats_csv.exists():
        print(f"loadtests: Locust wrote no statistics; see {out / 'locust.log'}", file=sys.stderr)
        return None
    histograms = read_histograms(out / "histograms.json")
    requests, _ = read_stats(stats_csv)
    files = {
        "stats_csv": "locust_stats.csv",
        "history_csv": "locust_stats_history.csv",
        "html": "report.html",
        "histograms": "histograms.json",
        "log": "locust.log",
    }
    for name, path in (
        (
            "plot_over_time",
            plot_over_time(out / "locust_stats_history.csv", out / "latency_over_time.png"),
        ),
        (
            "plot_distribution",
            plot_distribution(histograms, requests, out / "latency_distribution.png"),
        ),
    ):
        if path is not None:
            files[name] = path.name
    configuration = {
        **{name: str(v) if isinstance(v, Path) else v for name, v in asdict(config).items()},
        "host": host,
        "store_url": config.store_url and without_credentials(config.store_url),
        "run_time_s": run_time_seconds(config.run_time),
    }
    agents = None
    if plan is not None:
        users, folder = plan
        configuration |= {
            "tokens": users.file and str(users.file),
            "token_source": users.source,
            "token_count": users.count,
            "agents": str(folder.path),
        }
        if config.scenario != CEILING_SCENARIO:  # pings run no agent
            agents = agent_runs(folder.path, folder.names, out / "agent_runs.json")
            files["agent_runs"] = "agent_runs.json"
    summary = build_summary(
        scenario=config.scenario,
        configuration=configuration,
        machine=machine_info(),
        stats_csv=stats_csv,
        histograms=histograms,
        max_fail_ratio=config.max_fail_ratio,
        max_p99_ms=config.max_p99_ms,
        files=files,
        server_cpu_s=server_cpu_s,
        target=target,
        agents=agents,
        ceiling=ceiling,
    )
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def _report(config: RunConfig, summary: dict[str, Any] | None) -> int:
    """Print the summary and what it exceeded; 0 passed, 1 failed a threshold or measured
    nothing."""
    if summary is None:
        return 1
    print(format_summary(summary))
    print(f"reports in {config.out}: summary.json, report.html, locust_stats.csv, plots")
    for line in summary["thresholds"]["exceeded"]:
        print(f"loadtests: threshold exceeded: {line}", file=sys.stderr)
    return 1 if summary["thresholds"]["exceeded"] else 0


def _ceiling_config(config: RunConfig) -> RunConfig:
    """The ceiling run of ``--with-ceiling``: the same server, users and Locust processes, in a
    folder of its own, judged by no threshold of the scenario's."""
    return replace(
        config,
        scenario=CEILING_SCENARIO,
        out=config.out / CEILING_FOLDER,
        think=None,
        rate=None,
        max_fail_ratio=None,
        max_p99_ms=None,
        with_ceiling=False,
    )


def _ceiling_env(env: dict[str, str], out: Path) -> dict[str, str]:
    """``env`` with the ceiling run's own result files (its users never wait nor pace)."""
    return {
        **env,
        HISTOGRAMS_FILE_ENV: str(out / "histograms.json"),
        AGENT_RUNS_FILE_ENV: str(out / "agent_runs.json"),
    }


def _described(
    url: str, target: Target | None, *, insecure: bool, store_url: str | None
) -> dict[str, Any]:
    """``summary.json``'s ``target``: where the load went and what answered there."""
    verify = not insecure
    said = describe(url, verify=verify)
    if target is None:  # the server this run started: the store it was given (None: SQLite)
        said["store_url"] = store_url and without_credentials(store_url)
    return {
        "url": url,
        "embedded": target is None,
        "loopback": True if target is None else target.loopback,
        "tls_verified": verify if url.startswith("https://") else None,
        **said,
    }


def _unused_options(config: RunConfig) -> list[str]:
    given = [
        option
        for option, value in (
            ("--host", config.host),
            ("--allow-remote", config.allow_remote),
            ("--insecure", config.insecure),
            ("--tokens", config.tokens),
            ("--agents", config.agents),
        )
        if value
    ]
    if not given:
        return []
    return [
        f"loadtests: {', '.join(given)} not used: the {config.scenario} scenario runs in process"
    ]


def run_load_test(config: RunConfig) -> int:
    """Run the scenario and write its reports; 0 passed, 1 failed a threshold, 2 bad usage."""
    http = config.scenario in HTTP_SCENARIOS
    if config.with_ceiling and (not http or config.scenario == CEILING_SCENARIO):
        print(
            f"loadtests: --with-ceiling goes with an HTTP scenario other than the ceiling "
            f"({', '.join(s for s in HTTP_SCENARIOS if s != CEILING_SCENARIO)}), "
            f"not {config.scenario}",
            file=sys.stderr,
        )
        return 2
    try:
        # First of all: a refused target is refused before anything is written or sent.
        target = (
            parse_target(config.host, allow_remote=config.allow_remote)
            if config.host and http
            else None
        )
    except TargetError as exc:
        print(f"loadtests: {exc}", file=sys.stderr)
        return 2
    if target is not None:
        config.host = target.url  # credentials, if the URL had any, go no further
    config.out = config.out.resolve()
    env = {**os.environ, HISTOGRAMS_FILE_ENV: str(config.out / "histograms.json")}
    think = config.think if config.think is not None else (0.0, 0.0) if config.rate else None
    if think is not None:
        env["LOADTEST_THINK_MIN"], env["LOADTEST_THINK_MAX"] = (f"{t:g}" for t in think)
    if config.rate:
        env["LOADTEST_EXEC_RATE_PER_USER"] = f"{config.rate / config.users:g}"
    plan = None
    try:
        check_settings()
        if http:
            plan = identities(config.tokens, os.environ), agent_folder(config.agents)
    except (SettingsError, IdentityError, PreflightError, ValueError) as exc:
        # ValueError: the agent folder's own message (an unreadable file, no agent in it).
        print(f"loadtests: {exc}", file=sys.stderr)
        return 2
    notes = _unused_options(config) if not http else target_notes(target, insecure=config.insecure)
    if plan is not None:
        users, folder = plan
        notes += users.notes
        env |= {**users.env, **folder.env, AGENT_RUNS_FILE_ENV: str(config.out / "agent_runs.json")}
    if config.insecure:
        env[INSECURE_ENV] = "1"
    if config.workers:
        env[WORKERS_ENV] = str(config.workers)
    if target is not None and config.store_url:
        notes.append("loadtests: --store is ignored with --host: the server keeps its own store")
    for line in notes:
        print(line, file=sys.stderr)
    ceiling = _ceiling_config(config) if config.with_ceiling else None
    for run in (config, ceiling):
        if run is not None:
            run.out.mkdir(parents=True, exist_ok=True)
            for stale in ("summary.json", "histograms.json", "locust_stats.csv", "agent_runs.json"):
                (run.out / stale).unlink(missing_ok=True)
    if config.scenario == "store":
        env["LOADTEST_STORE_URL"] = config.store_url or f"sqlite:///{config.out / 'store.db'}"
    host = target.url if target is not None else "http://127.0.0.1:9020"
    described, server_cpu_s = None, None
    try:
        if http and target is None:
            with local_server(config.out, config.store_url, config.server_workers) as server:
                host = server.url
                described = _described(host, None, insecure=False, store_url=config.store_url)
                before = server.cpu_seconds()
                _run_locust(config, host, env)
                server_cpu_s = server.cpu_seconds() - before
                if ceiling is not None:
                    _run_locust(ceiling, host, _ceiling_env(env, ceiling.out))
        else:
            if target is not None:
                # Before the load: an unreachable or unverifiable target is one line, not a
                # run full of failures.
                described = _described(host, target, insecure=config.insecure, store_url=None)
            _run_locust(config, host, env)
            if ceiling is not None:
                _run_locust(ceiling, host, _ceiling_env(env, ceiling.out))
    except (ServerError, TargetError) as exc:
        print(f"loadtests: {exc}", file=sys.stderr)
        return 1
    if ceiling is None:
        return _report(config, _summarize(config, host, described, plan, server_cpu_s))
    # The ceiling's own summary first: the scenario's ends with its ratios to it.
    ceiling_summary = _summarize(ceiling, host, described, plan)
    ceiling_code = _report(ceiling, ceiling_summary)
    figure = None
    if ceiling_summary is not None and ceiling_summary["ceiling"]["rps"]:
        figure = ceiling_summary["ceiling"]["rps"], f"{CEILING_FOLDER}/summary.json"
    summary = _summarize(config, host, described, plan, server_cpu_s, figure)
    return max(ceiling_code, _report(config, summary))
