"""``summary.json`` of a Locust run: throughput, failures, latency per request, µs histograms.

Built from Locust's ``<prefix>_stats.csv`` (one row per request name plus ``Aggregated``), the
merged microsecond histograms and agent runs (``locust_support``), what the target said of
itself before the run (``loadtests.target``), and the HTTP ceiling of the same session (the
successful req/s of the ``ceiling`` scenario's pings) with the run's ratios to it. Schema
(``SCHEMA_VERSION`` 3)::

    {"schema": 2, "scenario", "configuration": {...}, "machine": {...},
     "target": {"url" (no credentials), "embedded", "loopback", "tls_verified", "server" (its
                ``Server`` header), "title", "version" (of its OpenAPI document), "store",
                "agents" (from ``/health``), "store_url" (embedded only)} or null,
     "agents": {"folder", "in_folder", "runs": {agent: runs}, "outside_folder": {agent: runs}}
               or null,
     "totals": {"requests", "failures", "fail_ratio", "rps", "p50_ms", "p95_ms", "p99_ms",
                "p99_9_ms", "max_ms"},
     "requests": [{"type", "name", "requests", "failures", "rps", "avg_ms", "p50_ms", "p95_ms",
                   "p99_ms", "p99_9_ms", "max_ms"}],
     "state_us": {histogram name: {"count", "mean_us", "min_us", "max_us", "p50_us", "p95_us",
                                   "p99_us", "p99_9_us"}},
     "ceiling": {"rps", "source" (the ceiling run's summary, or "this run"), "saturating"
                 (the run had no think time and no pacing), "ratios": {"rps_over_ceiling",
                 "exec_agent_rps_over_ceiling"} (null for the ceiling run itself)} or null,
     "thresholds": {"max_fail_ratio", "max_p99_ms", "exceeded": ["..."]},
     "files": {...}}
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from loadtests.histograms import HistogramSet

SCHEMA_VERSION = 3
#: The names of the execAgent requests start so (``/api/exec/execAgent [follow-up]``...).
EXEC_AGENT_NAME = "/api/exec/execAgent"
#: The scenario whose req/s is the HTTP ceiling.
CEILING_SCENARIO = "ceiling"
SUMMARY_KEYS = (
    "schema",
    "scenario",
    "configuration",
    "machine",
    "target",
    "agents",
    "totals",
    "requests",
    "state_us",
    "server_cpu",
    "ceiling",
    "thresholds",
    "files",
)
REQUEST_KEYS = (
    "type",
    "name",
    "requests",
    "failures",
    "rps",
    "avg_ms",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "p99_9_ms",
    "max_ms",
)


def _number(row: dict[str, str], column: str) -> float | None:
    text = (row.get(column) or "").strip()
    if not text or text == "N/A":
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _request_row(row: dict[str, str]) -> dict[str, Any]:
    return {
        "type": row.get("Type") or None,
        "name": row.get("Name", ""),
        "requests": int(_number(row, "Request Count") or 0),
        "failures": int(_number(row, "Failure Count") or 0),
        "rps": round(_number(row, "Requests/s") or 0.0, 2),
        "avg_ms": _number(row, "Average Response Time"),
        "p50_ms": _number(row, "50%"),
        "p95_ms": _number(row, "95%"),
        "p99_ms": _number(row, "99%"),
        "p99_9_ms": _number(row, "99.9%"),
        "max_ms": _number(row, "Max Response Time"),
    }


def read_stats(stats_csv: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Per-request rows and the ``Aggregated`` row of a Locust stats CSV."""
    with open(stats_csv, newline="") as handle:
        rows = [_request_row(r) for r in csv.DictReader(handle)]
    aggregated = next((r for r in rows if r["name"] == "Aggregated"), None)
    requests = [r for r in rows if r["name"] != "Aggregated"]
    return requests, aggregated or _request_row({"Name": "Aggregated"})


def read_histograms(path: Path) -> HistogramSet:
    if not path.exists():
        return HistogramSet()
    return HistogramSet.from_dict(json.loads(path.read_text()))


def agent_runs(folder: Path, in_folder: frozenset[str], runs_file: Path) -> dict[str, Any]:
    """Which agents the journeys ran, most first; those the planning folder lacks (the target
    account's search chose them) apart, under their own names."""
    runs: dict[str, int] = {}
    if runs_file.exists():
        data = json.loads(runs_file.read_text())
        runs = {str(name): int(count) for name, count in data.items()}
    ordered = dict(sorted(runs.items(), key=lambda item: (-item[1], item[0])))
    return {
        "folder": str(folder),
        "in_folder": len(in_folder),
        "runs": ordered,
        "outside_folder": {name: n for name, n in ordered.items() if name not in in_folder},
    }


def check_thresholds(
    totals: dict[str, Any], max_fail_ratio: float | None, max_p99_ms: float | None
) -> list[str]:
    """A sentence per threshold the run exceeded (an empty list means it passed)."""
    exceeded = []
    if totals["requests"] == 0:
        exceeded.append("no request completed during the run")
    if max_fail_ratio is not None and totals["fail_ratio"] > max_fail_ratio:
        exceeded.append(
            f"failure ratio {totals['fail_ratio']:.4f} is above --max-fail-ratio {max_fail_ratio:g}"
            f" ({totals['failures']} of {totals['requests']} requests failed)"
        )
    p99 = totals.get("p99_ms")
    if max_p99_ms is not None and p99 is not None and p99 > max_p99_ms:
        exceeded.append(f"p99 latency {p99:g} ms is above --max-p99-ms {max_p99_ms:g}")
    return exceeded


def successful_rps(totals: dict[str, Any]) -> float:
    """Requests per second that succeeded (Locust's req/s counts the failed ones too)."""
    if not totals["requests"]:
        return 0.0
    return round(totals["rps"] * (1 - totals["failures"] / totals["requests"]), 2)


def saturating(configuration: dict[str, Any]) -> bool:
    """Whether the run's users neither thought between calls nor paced their runs: the only
    runs whose req/s compare with a ceiling."""
    think = configuration.get("think")
    return think is not None and max(think) == 0 and not configuration.get("rate")


def ceiling_figures(
    scenario: str,
    configuration: dict[str, Any],
    totals: dict[str, Any],
    ceiling: tuple[float, str] | None,
) -> dict[str, Any] | None:
    """``summary.json``'s ``ceiling``: the ceiling run's own figure, or the ``(rps, source)`` of
    one in the same session and this run's req/s and execAgent/s over it."""
    if scenario == CEILING_SCENARIO:
        # Its users never wait (``ceiling_user``): saturating whatever --think says.
        rps = successful_rps(totals)
        return {"rps": rps, "source": "this run", "saturating": True, "ratios": None}
    if ceiling is None:
        return None
    rps, source = ceiling
    exec_rps = totals.get("exec_agent_rps") or 0.0

    def over(value: float) -> float | None:
        return round(value / rps, 3) if rps else None

    return {
        "rps": rps,
        "source": source,
        "saturating": saturating(configuration),
        "ratios": {
            "rps_over_ceiling": over(totals["rps"]),
            "exec_agent_rps_over_ceiling": over(exec_rps) if exec_rps else None,
        },
    }


def build_summary(
    *,
    scenario: str,
    configuration: dict[str, Any],
    machine: dict[str, Any],
    stats_csv: Path,
    histograms: HistogramSet,
    max_fail_ratio: float | None,
    max_p99_ms: float | None,
    files: dict[str, str],
    server_cpu_s: float | None = None,
    target: dict[str, Any] | None = None,
    agents: dict[str, Any] | None = None,
    ceiling: tuple[float, str] | None = None,
) -> dict[str, Any]:
    """``target``: what was load-tested (``None`` for the in-process scenarios); ``agents``: the
    agent runs of the journeys (``agent_runs``). ``server_cpu_s``: CPU seconds (user + system)
    the server's processes spent during the run, when it was started by the run; per request
    and per ``execAgent`` it is the figure that holds across machines. ``ceiling``: the req/s of
    a ceiling run in the same session and where its summary is."""
    requests, aggregated = read_stats(stats_csv)
    count, failures = aggregated["requests"], aggregated["failures"]
    totals = {
        "requests": count,
        "failures": failures,
        "fail_ratio": round(failures / count, 6) if count else 0.0,
        "rps": aggregated["rps"],
        **{k: aggregated[k] for k in ("p50_ms", "p95_ms", "p99_ms", "p99_9_ms", "max_ms")},
    }
    exec_agents = [r for r in requests if r["name"].startswith(EXEC_AGENT_NAME)]
    totals["exec_agent_rps"] = round(sum(r["rps"] for r in exec_agents), 2)
    server_cpu = None
    if server_cpu_s is not None:
        runs = sum(r["requests"] for r in exec_agents)
        server_cpu = {
            "seconds": round(server_cpu_s, 3),
            "us_per_request": round(server_cpu_s * 1e6 / count, 1) if count else None,
            # All the server's CPU over the execAgent calls: their share of the searches and
            # listings around them included.
            "us_per_exec_agent": round(server_cpu_s * 1e6 / runs, 1) if runs else None,
        }
    return {
        "schema": SCHEMA_VERSION,
        "scenario": scenario,
        "configuration": configuration,
        "machine": machine,
        "target": target,
        "agents": agents,
        "totals": totals,
        "requests": requests,
        "state_us": histograms.summary(),
        "server_cpu": server_cpu,
        "ceiling": ceiling_figures(scenario, configuration, totals, ceiling),
        "thresholds": {
            "max_fail_ratio": max_fail_ratio,
            "max_p99_ms": max_p99_ms,
            "exceeded": check_thresholds(totals, max_fail_ratio, max_p99_ms),
        },
        "files": files,
    }


def format_summary(summary: dict[str, Any]) -> str:
    """A few readable lines: the target, totals, agents, then the µs percentiles of the state
    histograms."""
    t = summary["totals"]
    lines = [_target_line(summary["target"])] if summary.get("target") else []
    lines += [
        f"{summary['scenario']}: {t['requests']} requests, {t['failures']} failures "
        f"({t['fail_ratio'] * 100:.2f}%), {t['rps']:.1f} req/s, "
        f"p50 {t['p50_ms']} ms, p95 {t['p95_ms']} ms, p99 {t['p99_ms']} ms",
    ]
    if t.get("exec_agent_rps"):
        lines.append(f"execAgent: {t['exec_agent_rps']:.1f}/s")
    if summary.get("agents"):
        lines.append(_agents_line(summary["agents"]))
    if summary.get("ceiling"):
        lines += _ceiling_lines(summary["scenario"], t, summary["ceiling"])
    cpu = summary.get("server_cpu")
    if cpu and cpu["us_per_exec_agent"] is not None:
        lines.append(
            f"server CPU: {cpu['seconds']:.1f} s, {cpu['us_per_request']:.0f} µs per request, "
            f"{cpu['us_per_exec_agent']:.0f} µs per execAgent (all its CPU / execAgent calls)"
        )
    if summary["state_us"]:
        lines.append(
            f"{'histogram (µs)':<32} {'count':>7} {'p50':>9} {'p95':>9} {'p99':>9} {'p99.9':>9}"
        )
        for name, h in summary["state_us"].items():
            # Whole operations only (``save 16KB``); their stages are in summary.json.
            if h["count"] and len(name.split()) <= 2:
                lines.append(
                    f"{name:<32} {h['count']:>7} {h['p50_us']:>9.1f} {h['p95_us']:>9.1f} "
                    f"{h['p99_us']:>9.1f} {h['p99_9_us']:>9.1f}"
                )
    return "\n".join(lines)


def _ceiling_lines(scenario: str, totals: dict[str, Any], ceiling: dict[str, Any]) -> list[str]:
    rps = ceiling["rps"]
    if ceiling["ratios"] is None:
        return [f"HTTP ceiling: {rps:.1f} req/s (successful signed-in pings)"]
    ratios = ceiling["ratios"]
    lines = [f"HTTP ceiling: {rps:.1f} req/s, same server and session ({ceiling['source']})"]
    if ratios["rps_over_ceiling"] is not None:
        lines.append(
            f"{scenario} req/s ÷ ceiling: {totals['rps']:.1f} ÷ {rps:.1f} = "
            f"{ratios['rps_over_ceiling']:.2f}"
        )
    if ratios["exec_agent_rps_over_ceiling"] is not None:
        lines.append(
            f"execAgent/s ÷ ceiling: {totals['exec_agent_rps']:.1f} ÷ {rps:.1f} = "
            f"{ratios['exec_agent_rps_over_ceiling']:.2f}"
        )
    if not ceiling["saturating"]:
        lines.append(
            "  (this run's users thought between calls or were paced: its ratios to a ceiling "
            "say little; --think 0 saturates)"
        )
    return lines


def _target_line(target: dict[str, Any]) -> str:
    said = [
        f"server {target['server']}" if target.get("server") else None,
        " ".join(filter(None, (target.get("title"), target.get("version")))) or None,
        f"store {target['store']}" if target.get("store") else None,
        "TLS not verified" if target.get("tls_verified") is False else None,
    ]
    kind = "embedded server" if target["embedded"] else "target"
    details = "; ".join(part for part in said if part)
    return f"{kind}: {target['url']}" + (f" ({details})" if details else "")


def _agents_line(agents: dict[str, Any]) -> str:
    runs, outside = agents["runs"], agents["outside_folder"]
    line = f"agents: {len(runs)} ran ({sum(runs.values())} runs), planned from {agents['folder']}"
    if outside:
        named = ", ".join(f"{name} {count}" for name, count in list(outside.items())[:5])
        more = f" and {len(outside) - 5} more" if len(outside) > 5 else ""
        line += f"; not in that folder: {named}{more}"
    return line
