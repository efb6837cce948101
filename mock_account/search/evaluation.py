"""Search evaluation: how often the expected agent is the first (or second) match.

An evaluation set is a folder of YAML files, each a list of ``{query, agent}``: a request
as an employee would type it and the agent that should answer. Three sets ship
(`EVALUATION_SETS`):

- ``agents_catalog/evaluation``: the development set, one request per agent; the agents'
  descriptions and the ranking parameters were shaped on it;
- ``agents_catalog/evaluation_heldout``: the held-out set, 100 requests written apart from
  the descriptions, and two for the workflow agents that their descriptions were then
  adjusted to;
- ``agents_catalog/evaluation_heldout2``: the fresh held-out set, 100 fact-rich requests
  (dates, places, amounts, names, ids, quantities, severities) written before the search
  was tuned for such requests and never used to tune it: the honest figure for requests
  nobody has seen.

The index is built from the agent files of an account folder (``--account``) or, before
those are generated, straight from the sources (`catalog_agents`): the capability files
(``agents_catalog/capabilities/*.yaml``) and the account's hand-written agents (the
workflow agents, which no capability describes).

    python -m mock_account.search.evaluation [--account DIR | --capabilities DIR]
        [--evaluation DIR] [--search hybrid|bm25] [--min-top1 0.9] [--min-top2 0.97]

Exit 0 when the accuracies reach the minimums given, 1 when they don't, 2 when a file
cannot be read. `report_all_sets` (``mock-account search-eval``) reports every shipped set
in both search modes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from mock_account.search.index import BM25Params, Searchable, SearchIndex

# The shipped request sets, in report order: (label, folder under agents_catalog).
EVALUATION_SETS: tuple[tuple[str, str], ...] = (
    ("development set", "evaluation"),
    ("held-out set", "evaluation_heldout"),
    ("fresh held-out set, fact-rich", "evaluation_heldout2"),
)
SEARCH_MODES = ("hybrid", "bm25")


class EvalError(Exception):
    """An evaluation or capability file is missing, unreadable or malformed."""


@dataclass(frozen=True)
class EvalCase:
    query: str
    agent: str


@dataclass(frozen=True)
class Miss:
    query: str
    expected: str
    got: tuple[str, ...]  # the two best matches, best first (fewer when fewer matched)


@dataclass(frozen=True)
class EvalReport:
    top1: float
    top2: float
    n: int
    misses: tuple[Miss, ...]


@dataclass(frozen=True)
class CapabilityAgent:
    """The searchable part of one capability-file entry."""

    name: str
    title: str
    tag: str
    description: str
    examples: tuple[str, ...]
    # Whether the agent does something rather than answers (as ``AgentDefinition.acts``).
    acts: bool = False


def _catalog_dir(name: str) -> Path:
    return Path(str(resources.files("agents_catalog") / name))


def _yaml_files(folder: str | Path) -> list[Path]:
    path = Path(folder)
    if not path.is_dir():
        raise EvalError(f"{path}: not a folder")
    files = sorted(path.glob("*.yaml"))
    if not files:
        raise EvalError(f"{path}: no .yaml files")
    return files


def _read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalError(f"{path}: cannot read: {exc}") from exc
    except yaml.YAMLError as exc:
        raise EvalError(f"{path}: not valid YAML: {exc}".splitlines()[0]) from exc


def load_eval_cases(folder: str | Path | None = None) -> list[EvalCase]:
    """Every ``{query, agent}`` of the folder's YAML files, in file order."""
    cases = []
    for path in _yaml_files(folder or _catalog_dir("evaluation")):
        data = _read_yaml(path)
        if not isinstance(data, list):
            raise EvalError(f"{path}: expected a list of {{query, agent}} entries")
        for number, entry in enumerate(data, start=1):
            if not (
                isinstance(entry, dict)
                and isinstance(entry.get("query"), str)
                and isinstance(entry.get("agent"), str)
            ):
                raise EvalError(f"{path}: entry {number} needs a text 'query' and 'agent'")
            cases.append(EvalCase(entry["query"], entry["agent"]))
    return cases


def agents_from_capabilities(folder: str | Path | None = None) -> list[CapabilityAgent]:
    """The agents of the capability files, with what search needs of them."""
    agents = []
    for path in _yaml_files(folder or _catalog_dir("capabilities")):
        data = _read_yaml(path)
        if not isinstance(data, dict) or not isinstance(data.get("agents"), list):
            raise EvalError(f"{path}: expected a mapping with 'department' and 'agents'")
        tag = str(data.get("department") or path.stem)
        for number, raw in enumerate(data["agents"], start=1):
            if not isinstance(raw, dict) or not raw.get("name") or not raw.get("title"):
                raise EvalError(f"{path}: agent {number} needs a 'name' and a 'title'")
            agents.append(
                CapabilityAgent(
                    name=str(raw["name"]),
                    title=str(raw["title"]),
                    tag=tag,
                    description=" ".join(str(raw.get("description", "")).split()),
                    examples=tuple(str(e) for e in raw.get("examples") or ()),
                    acts=bool(
                        raw.get("action") in ("create", "update")
                        or raw.get("requester")
                        or raw.get("unknown") == "make"
                        or raw.get("ask")
                    ),
                )
            )
    return agents


def evaluate(index: SearchIndex, cases: Sequence[EvalCase]) -> EvalReport:
    """Top-1 and top-2 accuracy of `index` on `cases`, with every query not ranked first."""
    first = second = 0
    misses = []
    for case in cases:
        got = tuple(hit.agent_name for hit in index.search(case.query, limit=2))
        if got[:1] == (case.agent,):
            first += 1
            continue
        if case.agent in got:
            second += 1
        misses.append(Miss(case.query, case.agent, got))
    n = len(cases)
    return EvalReport(
        top1=first / n if n else 0.0,
        top2=(first + second) / n if n else 0.0,
        n=n,
        misses=tuple(misses),
    )


def hand_written_agents(account: str | Path | None = None) -> list[Searchable]:
    """The hand-written agents of an account folder (default: the shipped account)."""
    # Imported here: the agent format is only needed when agent files are read.
    from agents_catalog.errors import CatalogError
    from agents_catalog.generator import GeneratorError, hand_written_files
    from agents_catalog.loader import parse_agent_text

    try:
        files = hand_written_files(account or _catalog_dir("account"))
        return [parse_agent_text(text, name)[0] for name, text in files.items()]
    except (CatalogError, GeneratorError) as exc:
        raise EvalError(str(exc).splitlines()[0]) from exc


def catalog_agents(
    capabilities: str | Path | None = None, account: str | Path | None = None
) -> list[Searchable]:
    """Every agent of the account as search sees it, from its sources: one per capability,
    plus the hand-written ones of the account folder."""
    return [*agents_from_capabilities(capabilities), *hand_written_agents(account)]


def _load_agents(args: argparse.Namespace) -> Sequence[Searchable]:
    if args.account:
        # Imported here: the account loader is only needed for generated agent files.
        from agents_catalog.errors import CatalogError
        from agents_catalog.loader import load_account

        try:
            return load_account(args.account)
        except CatalogError as exc:
            raise EvalError(str(exc).splitlines()[0]) from exc
    if args.capabilities:
        return agents_from_capabilities(args.capabilities)
    return catalog_agents()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mock_account.search.evaluation",
        description="Measure how often search ranks the expected agent first or second.",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--account", type=Path, help="folder of agent YAML files")
    source.add_argument(
        "--capabilities",
        type=Path,
        help="folder of capability files (default: the shipped ones and hand-written agents)",
    )
    parser.add_argument("--evaluation", type=Path, help="folder of evaluation YAML files")
    parser.add_argument(
        "--search",
        choices=SEARCH_MODES,
        default="hybrid",
        help="hybrid: BM25 blended with sentence embeddings (default); bm25: lexical only",
    )
    parser.add_argument("--min-top1", type=float, default=0.0, help="fail below this top-1")
    parser.add_argument("--min-top2", type=float, default=0.0, help="fail below this top-2")
    return parser


def _params(mode: str) -> BM25Params:
    return BM25Params() if mode == "hybrid" else BM25Params(semantic=0.0)


def _print_report(agents: int, report: EvalReport) -> None:
    print(f"agents: {agents}  queries: {report.n}")
    print(f"top-1 accuracy: {report.top1:.1%}")
    print(f"top-2 accuracy: {report.top2:.1%}")
    if report.misses:
        print(f"\nnot ranked first ({len(report.misses)}):")
        for miss in report.misses:
            got = ", ".join(miss.got) or "(no match)"
            print(f"- {miss.query}\n    expected {miss.expected}; got {got}")


def report_all_sets(
    modes: Sequence[str] = SEARCH_MODES,
    capabilities: str | Path | None = None,
    catalog: str | Path | None = None,
) -> int:
    """Every shipped evaluation set (`EVALUATION_SETS`, folders of `catalog`) in every
    search mode, each with its misses, then one summary table; 0, or 2 when a file cannot
    be read or names an unknown agent."""
    root = Path(catalog or _catalog_dir(""))
    try:
        agents = [*agents_from_capabilities(capabilities), *hand_written_agents(root / "account")]
        sets = [
            (label, folder, load_eval_cases(root / folder)) for label, folder in EVALUATION_SETS
        ]
    except EvalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    known = {agent.name for agent in agents}
    unknown = sorted({case.agent for _, _, cases in sets for case in cases} - known)
    if unknown:
        print(f"error: evaluation names unknown agents: {', '.join(unknown)}", file=sys.stderr)
        return 2
    figures: dict[tuple[str, str], EvalReport] = {}
    for mode in modes:
        index = SearchIndex.build(agents, _params(mode))
        for label, folder, cases in sets:
            print(f"== {mode}: {label} (agents_catalog/{folder}) ==")
            figures[mode, folder] = report = evaluate(index, cases)
            _print_report(len(agents), report)
            print()
    print("== summary: top-1 / top-2 ==")
    print(f"{'set':44}" + "".join(f"{mode:>18}" for mode in modes))
    for label, folder, cases in sets:
        name = f"{label} ({len(cases)})"
        cells = (f"{figures[m, folder].top1:.1%} / {figures[m, folder].top2:.1%}" for m in modes)
        print(f"{name:44}" + "".join(f"{cell:>18}" for cell in cells))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        agents = _load_agents(args)
        cases = load_eval_cases(args.evaluation)
        index = SearchIndex.build(agents, _params(args.search))
    except (EvalError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    known = {agent.name for agent in agents}
    unknown = sorted({case.agent for case in cases} - known)
    if unknown:
        print(f"error: evaluation names unknown agents: {', '.join(unknown)}", file=sys.stderr)
        return 2
    report = evaluate(index, cases)
    _print_report(len(agents), report)
    return 0 if report.top1 >= args.min_top1 and report.top2 >= args.min_top2 else 1


if __name__ == "__main__":
    raise SystemExit(main())
