"""The public API: the result type, its JSON form, caching, argument checks and the command."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest
from understanding_data import NAMES, TODAY

import mock_account.understanding as understanding
from mock_account.understanding import (
    RequestFacts,
    clear_cache,
    describe,
    extract_facts,
)

ISSUE_REQUESTS = [
    "I need to fly to Berlin next Tuesday for a client meeting",
    "Book me a business trip to Lisbon from December 7 to December 9",
    "Pull up the account for Hoffmann Logistics",
    "File the expenses for your Lisbon trip, 14-16 December",
    "Book me a flight to Oslo on Monday and file last week's taxi receipt",
    "I drove 230 km to the Leeds site in my own car",
    "I flew out on Sunday for work, can I have a day back?",
    "A supplier offered me tickets to the football final",
    "Order 20 office chairs for Smith Foods, it's not urgent",
    "Declare a sev2 incident for the Checkout API, INC-00013 is related",
    "Claim 654.91 GBP for the taxi on 3 November, 10% tip included",
    "Push the Lisbon trip back by a week and add an extra night",
    "Email anna.schmidt@example.com about ORD-000042",
]


def test_the_issue_starters() -> None:
    berlin = extract_facts(ISSUE_REQUESTS[0], TODAY)
    assert berlin.date is not None and berlin.date.date == dt.date(2026, 12, 8)
    assert berlin.destination is not None and berlin.destination.name == "Berlin"
    assert berlin.origin is None  # nobody said Chicago
    lisbon = extract_facts(ISSUE_REQUESTS[1], TODAY)
    assert lisbon.date_range is not None
    assert (lisbon.date_range.start, lisbon.date_range.end) == (
        dt.date(2026, 12, 7),
        dt.date(2026, 12, 9),
    )
    two_parts = extract_facts(ISSUE_REQUESTS[4], TODAY)
    assert two_parts.date is not None and two_parts.date.date == dt.date(2026, 12, 7)
    assert two_parts.date_range is not None and two_parts.date_range.kind == "week"


@pytest.mark.parametrize("text", ISSUE_REQUESTS)
def test_every_fact_points_at_its_text_and_json_round_trips(text: str) -> None:
    facts = extract_facts(text, TODAY, names=NAMES)
    for _, fact in facts.facts():
        start, end = fact.span
        assert 0 <= start < end <= len(text)
        assert text[start:end] == fact.text
    as_json = json.dumps(facts.to_dict(), allow_nan=False)
    assert json.loads(as_json) == facts.to_dict()
    assert describe(facts).startswith("today 2026-11-30")


@pytest.mark.parametrize(
    "text",
    [
        "Order 20 chairs for €3,000 from Berlin on 7 December, sev2, ORD-000042, urgent",
        # found by fuzzing: a day before a time, a count between two days, a pair of days
        # around an id
        "morning May 3pm tomorrow next a",
        "tomorrow 3 week from 3 March 3pm",
        "week tomorrow Foods ORD-42 from a , back tomorrow back a Smith",
        "and Book Tuesday flight push Schmidt €300 Logistics a week by a",
    ],
)
def test_facts_do_not_overlap(text: str) -> None:
    facts = extract_facts(text, TODAY, names=NAMES)
    spans = sorted({fact.span for _, fact in facts.facts()})
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        assert end <= start


def test_to_dict_shape() -> None:
    data = extract_facts("€300 for 3 nights from 9 December in Lisbon", TODAY).to_dict()
    assert data["today"] == "2026-11-30"
    assert data["amounts"] == [{"amount": 300.0, "currency": "EUR", "text": "€300", "span": [0, 4]}]
    stay = data["date_ranges"][0]
    assert (stay["start"], stay["end"], stay["nights"], stay["days"]) == (
        "2026-12-09",
        "2026-12-12",
        3,
        4,
    )
    assert set(data) == {"text", "today"} | {
        f.name for f in dataclasses.fields(RequestFacts) if f.name not in ("text", "today")
    }


def test_frozen_and_deterministic() -> None:
    facts = extract_facts("fly to Oslo tomorrow", TODAY)
    with pytest.raises(dataclasses.FrozenInstanceError):
        facts.text = "other"  # type: ignore[misc]
    clear_cache()
    again = extract_facts("fly to Oslo tomorrow", TODAY)
    assert again == facts and again is not facts


def test_cache_is_keyed_by_today_and_names() -> None:
    first = extract_facts("next Tuesday", TODAY)
    assert extract_facts("next Tuesday", TODAY) is first
    later = extract_facts("next Tuesday", TODAY + dt.timedelta(days=7))
    assert later.date is not None and later.date.date == dt.date(2026, 12, 15)
    with_names = extract_facts("Smith Foods next Tuesday", TODAY, names=NAMES)
    without = extract_facts("Smith Foods next Tuesday", TODAY)
    assert with_names.organisations[0].known and not without.organisations[0].known


def test_datetime_today_is_its_date() -> None:
    facts = extract_facts("tomorrow", dt.datetime(2026, 11, 30, 23, 59))
    assert facts.today == TODAY and facts.date is not None
    assert facts.date.date == dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "today"), [(None, TODAY), (b"bytes", TODAY), ("text", "2026-11-30"), ("text", None)]
)
def test_bad_arguments(text: object, today: object) -> None:
    with pytest.raises(TypeError):
        extract_facts(text, today)  # type: ignore[arg-type]


def test_empty_and_long_text() -> None:
    assert extract_facts("", TODAY).is_empty
    assert extract_facts("   \n\t", TODAY).is_empty
    long = "Order 3 laptops. " * 1000
    facts = extract_facts(long, TODAY)
    assert facts.text == long and 0 < len(facts.quantities) < 1000


def test_public_names() -> None:
    assert "extract_facts" in understanding.__all__ and "RequestFacts" in understanding.__all__
    for name in understanding.__all__:
        assert hasattr(understanding, name)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mock_account.understanding", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_command_prints_json() -> None:
    done = _run("Fly to Lisbon next Tuesday for €300", "--today", "2026-11-30")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["dates"][0]["date"] == "2026-12-08"
    assert data["places"][0]["name"] == "Lisbon"
    assert data["amounts"][0]["currency"] == "EUR"


def test_command_describe_and_names(tmp_path: Path) -> None:
    names = tmp_path / "names.json"
    names.write_text(json.dumps({"customer": ["Smith Foods GmbH"]}))
    done = _run(
        "Pull", "up", "Smith", "Foods", "--today", "2026-11-30", "--names", str(names), "--describe"
    )
    assert done.returncode == 0, done.stderr
    assert "Smith Foods GmbH (customer)" in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("text", "--today", "2026-13-01"),
        ("text", "--today", "tomorrow"),
        (),
        ("text", "--names", "/nonexistent/names.json"),
        ("text", "--bogus"),
    ],
)
def test_command_bad_arguments(args: tuple[str, ...]) -> None:
    done = _run(*args)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "error:" in done.stderr


def test_command_names_file_must_be_a_mapping(tmp_path: Path) -> None:
    names = tmp_path / "names.json"
    names.write_text(json.dumps(["not", "a", "mapping"]))
    done = _run("text", "--names", str(names))
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_describe_names_each_fact() -> None:
    text = "Order 20 chairs for €300 by next Friday, urgent, ORD-000042"
    summary = describe(extract_facts(text, TODAY))
    assert "quantity     20 x chair" in summary
    assert "amount       300.00 EUR" in summary
    assert "date         2026-12-11 Fri (deadline)" in summary
    assert "priority     urgent" in summary
    assert "id           ORD-000042 (order)" in summary
    assert describe(extract_facts("hello", TODAY)).endswith("(no facts)")


def test_benchmark_runs() -> None:
    from mock_account.understanding import bench

    report = bench.run(size=30, rounds=1, with_dateparser=False)
    assert report["requests"] == 30
    assert report["cold"]["n"] == 30 and report["warm"]["p50_us"] <= report["cold"]["p99_us"]
    requests, names = bench.corpus(30)
    assert (requests, names) == bench.corpus(30)  # deterministic
