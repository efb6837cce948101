"""Search evaluation: reading the files, measuring top-1 / top-2, the command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mock_account.search.evaluation import (
    EVALUATION_SETS,
    EvalCase,
    EvalError,
    agents_from_capabilities,
    catalog_agents,
    evaluate,
    load_eval_cases,
    main,
    report_all_sets,
)
from mock_account.search.index import BM25Params, SearchIndex

CATALOG = Path(__file__).resolve().parents[3] / "agents_catalog"

CAPABILITIES = """\
department: travel
label: Travel
agents:
  - name: BookBusinessFlight
    title: Book a flight for a business trip
    description: >-
      Books a plane ticket for a work trip: destination, dates and airline.
    examples:
      - I need to fly to Berlin next Tuesday
  - name: BookHotelStay
    title: Book a hotel room
    description: Reserves a room for business travel, city and nights.
    examples: [I need a hotel in Munich for three nights]
"""
FINANCE = """\
department: finance
label: Finance
agents:
  - name: ChaseOverdueInvoice
    title: Chase an overdue invoice
    description: Sends a payment reminder for an invoice past its due date.
    examples: [The customer has not paid invoice INV-000123]
"""
EVALUATION = """\
- query: book me a plane ticket to Lisbon on Monday
  agent: BookBusinessFlight
- query: somewhere to sleep in Paris for two nights
  agent: BookHotelStay
- query: the invoice to Umbrella is late, remind them
  agent: ChaseOverdueInvoice
- query: qwerty zzzz blorp nothing at all
  agent: BookHotelStay
"""


@pytest.fixture()
def folders(tmp_path: Path) -> tuple[Path, Path]:
    capabilities = tmp_path / "capabilities"
    evaluation = tmp_path / "evaluation"
    capabilities.mkdir()
    evaluation.mkdir()
    (capabilities / "travel.yaml").write_text(CAPABILITIES)
    (capabilities / "finance.yaml").write_text(FINANCE)
    (evaluation / "travel.yaml").write_text(EVALUATION)
    return capabilities, evaluation


def test_capability_files_become_searchable_agents(folders: tuple[Path, Path]) -> None:
    agents = agents_from_capabilities(folders[0])
    assert [(a.name, a.tag) for a in agents] == [
        ("ChaseOverdueInvoice", "finance"),
        ("BookBusinessFlight", "travel"),
        ("BookHotelStay", "travel"),
    ]
    assert agents[1].description.startswith("Books a plane ticket")
    assert agents[1].examples == ("I need to fly to Berlin next Tuesday",)


def test_eval_cases_are_read_in_order(folders: tuple[Path, Path]) -> None:
    cases = load_eval_cases(folders[1])
    assert cases[0] == EvalCase("book me a plane ticket to Lisbon on Monday", "BookBusinessFlight")
    assert len(cases) == 4


def test_evaluate_counts_top1_top2_and_lists_misses(folders: tuple[Path, Path]) -> None:
    index = SearchIndex.build(agents_from_capabilities(folders[0]))
    cases = load_eval_cases(folders[1])
    report = evaluate(index, cases)
    assert report.n == 4
    assert report.top1 == 0.75 and report.top2 == 0.75
    assert [(m.expected, m.got) for m in report.misses] == [("BookHotelStay", ())]


def test_evaluate_counts_a_second_place_in_top2() -> None:
    index = SearchIndex.build(agents_from_capabilities_text(CAPABILITIES))
    report = evaluate(index, [EvalCase("book a business trip hotel room", "BookBusinessFlight")])
    assert report.top1 == 0.0 and report.top2 == 1.0
    assert report.misses[0].got == ("BookHotelStay", "BookBusinessFlight")


def agents_from_capabilities_text(text: str) -> list:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "travel.yaml").write_text(text)
        return agents_from_capabilities(folder)


def test_main_prints_accuracy_and_misses(
    folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["--capabilities", str(folders[0]), "--evaluation", str(folders[1])])
    out = capsys.readouterr().out
    assert code == 0
    assert "top-1 accuracy: 75.0%" in out and "top-2 accuracy: 75.0%" in out
    assert "qwerty zzzz blorp" in out and "(no match)" in out


def test_main_fails_below_the_minimum(folders: tuple[Path, Path]) -> None:
    args = ["--capabilities", str(folders[0]), "--evaluation", str(folders[1])]
    assert main([*args, "--min-top1", "0.9"]) == 1


def test_main_refuses_unknown_expected_agents(
    folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    (folders[1] / "extra.yaml").write_text("- {query: anything at all here, agent: Nobody}\n")
    code = main(["--capabilities", str(folders[0]), "--evaluation", str(folders[1])])
    assert code == 2
    assert "unknown agents: Nobody" in capsys.readouterr().err


@pytest.mark.parametrize(
    "content, message",
    [
        ("- query: [unclosed\n", "not valid YAML"),
        ("query: x\n", "expected a list"),
        ("- {query: only a query}\n", "entry 1 needs"),
    ],
)
def test_bad_eval_files_are_one_line_errors(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.yaml").write_text(content)
    with pytest.raises(EvalError, match=message):
        load_eval_cases(tmp_path)
    code = main(["--capabilities", str(tmp_path), "--evaluation", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EvalError, match="not a folder"):
        agents_from_capabilities(tmp_path / "missing")
    with pytest.raises(EvalError, match="no .yaml files"):
        load_eval_cases(tmp_path)


def test_the_account_catalog_reaches_its_accuracy_floor() -> None:
    # A regression guard on the shipped catalog: descriptions that start to overlap
    # show up here first. The floors sit at or below the measured accuracy (development
    # 97.0 / 99.0 %, held-out 88.2 / 96.1 %, fresh held-out 90 / 95 %); the held-out one is
    # the account's target for requests nobody has seen.
    capabilities = CATALOG / "capabilities"
    assert len(list(capabilities.glob("*.yaml"))) == 10
    index = SearchIndex.build(catalog_agents(capabilities, CATALOG / "account"))
    floors = {
        "evaluation": (0.95, 0.98),
        "evaluation_heldout": (0.85, 0.95),
        "evaluation_heldout2": (0.85, 0.92),
    }
    for folder, (top1, top2) in floors.items():
        report = evaluate(index, load_eval_cases(CATALOG / folder))
        assert report.top1 >= top1 and report.top2 >= top2, (folder, report.misses)


def test_the_shipped_sets_load_and_name_known_agents() -> None:
    agents = catalog_agents(CATALOG / "capabilities", CATALOG / "account")
    assert len(agents) == 200
    known = {agent.name for agent in agents}
    sizes = {}
    for _, folder in EVALUATION_SETS:
        cases = load_eval_cases(CATALOG / folder)
        assert {case.agent for case in cases} <= known, folder
        sizes[folder] = len(cases)
    assert sizes == {"evaluation": 200, "evaluation_heldout": 102, "evaluation_heldout2": 100}


def test_the_fresh_set_spans_every_department_and_many_agents() -> None:
    tags = {agent.name: agent.tag for agent in agents_from_capabilities(CATALOG / "capabilities")}
    cases = load_eval_cases(CATALOG / "evaluation_heldout2")
    per_department = {tag: 0 for tag in set(tags.values())}
    for case in cases:
        per_department[tags[case.agent]] += 1
    assert len(per_department) == 10 and min(per_department.values()) >= 5, per_department
    assert len({case.agent for case in cases}) >= 90
    # Written in the fact-rich style: most requests carry a number, a date, an id or a name.
    with_facts = [c for c in cases if re.search(r"\d|[a-z,] [A-Z][a-z]", c.query)]
    assert len(with_facts) >= 60


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def test_no_evaluation_request_is_copied_into_the_account() -> None:
    # Neither a whole request of any set nor a run of 10 of its words may appear in what
    # the agents say about themselves (capability files and generated agent files).
    from agents_catalog.loader import load_account

    run = 10
    account = load_account(CATALOG / "account")
    sources = (agents_from_capabilities(CATALOG / "capabilities"), account)
    texts = [
        text
        for agents in sources
        for agent in agents
        for text in (agent.title, agent.description, *agent.examples)
    ]
    said = " | ".join(" ".join(_words(text)) for text in texts)
    runs = set()
    for text in texts:
        words = _words(text)
        runs.update(tuple(words[i : i + run]) for i in range(len(words) - run + 1))
    for _, folder in EVALUATION_SETS:
        for case in load_eval_cases(CATALOG / folder):
            words = _words(case.query)
            assert " ".join(words) not in said, (folder, case.query)
            copied = [w for w in zip(*(words[i:] for i in range(run)), strict=False) if w in runs]
            assert not copied, (folder, case.query)


def test_the_sets_share_no_request() -> None:
    seen: dict[str, str] = {}
    for _, folder in EVALUATION_SETS:
        for case in load_eval_cases(CATALOG / folder):
            key = " ".join(_words(case.query))
            assert key not in seen, (folder, seen.get(key), case.query)
            seen[key] = folder


def test_report_all_sets_prints_each_set_in_each_mode_and_a_summary(
    folders: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "catalog"
    for _, folder in EVALUATION_SETS:
        (catalog / folder).mkdir(parents=True)
        (catalog / folder / "travel.yaml").write_text(EVALUATION)
    code = report_all_sets(capabilities=folders[0], catalog=catalog)
    out = capsys.readouterr().out
    assert code == 0
    for mode in ("hybrid", "bm25"):
        for label, folder in EVALUATION_SETS:
            assert f"== {mode}: {label} (agents_catalog/{folder}) ==" in out
    summary = out.split("== summary: top-1 / top-2 ==")[1].splitlines()
    assert summary[1].split() == ["set", "hybrid", "bm25"]
    assert [line.split("(")[0].strip() for line in summary[2:]] == [
        label for label, _ in EVALUATION_SETS
    ]
    assert "75.0% / 75.0%" in summary[2]


def test_report_all_sets_refuses_unknown_agents_and_missing_sets(
    folders: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "catalog"
    for _, folder in EVALUATION_SETS[:2]:
        (catalog / folder).mkdir(parents=True)
        (catalog / folder / "travel.yaml").write_text(EVALUATION)
    assert report_all_sets(capabilities=folders[0], catalog=catalog) == 2
    assert "evaluation_heldout2: not a folder" in capsys.readouterr().err
    (catalog / EVALUATION_SETS[2][1]).mkdir()
    (catalog / EVALUATION_SETS[2][1] / "x.yaml").write_text("- {query: a b c d, agent: Nobody}\n")
    assert report_all_sets(capabilities=folders[0], catalog=catalog) == 2
    assert "unknown agents: Nobody" in capsys.readouterr().err


@pytest.mark.parametrize("mode", ["hybrid", "bm25"])
def test_each_onboarding_request_reaches_the_agent_for_whoever_asks(mode: str) -> None:
    # The workflow agents continue an onboarding under way, for the new hire or the buyer;
    # starting one (a manager's new starter, a supplier not in the system) stays elsewhere.
    index = SearchIndex.build(
        catalog_agents(CATALOG / "capabilities", CATALOG / "account"),
        BM25Params() if mode == "hybrid" else BM25Params(semantic=0.0),
    )
    expected = {
        "Priya Varga joins us on Monday, start her onboarding": "StartNewHireOnboarding",
        "Onboard Northwind Traders as a new supplier": "OnboardNewSupplier",
        "I just joined, what's left in my onboarding?": "CompleteNewHireOnboarding",
        "Northwind's sanctions screening is clear, carry on with their onboarding": (
            "CompleteSupplierOnboarding"
        ),
    }
    for query, agent in expected.items():
        assert index.search(query, limit=1)[0].agent_name == agent, query
