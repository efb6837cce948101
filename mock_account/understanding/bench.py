"""`python -m mock_account.understanding.bench`: how long request understanding takes.

Runs a fixed corpus of a few hundred varied requests (travel, orders, incidents, expenses, HR...,
with 600 known business names) through `extract_facts` and prints percentiles in microseconds:

- start-up: importing the package, building the gazetteer (`warm_up`), indexing the names;
- cold: each request seen for the first time (the result cache is empty);
- warm: the same requests again (answered from the result cache);
- cold, best of 5: each request's uncached extraction timed five times, the fastest kept (the
  cost of the code itself, without pre-emptions on a shared machine).

`--dateparser` also times dateparser on the date phrases of the corpus, next to this package's
date pass on the same phrases (dateparser is not a dependency: install it to compare).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

TODAY = dt.date(2026, 11, 30)

_CITIES = (
    "Berlin Lisbon Oslo Paris London Chicago Madrid Vienna Zurich Amsterdam Tokyo Toronto "
    "Singapore Dublin Prague Warsaw Milan Boston Munich Copenhagen"
).split()
_WHEN = [
    "next Tuesday",
    "on Monday",
    "tomorrow morning",
    "from the 4th to the 6th of June",
    "December 7 to December 9",
    "14-16 December",
    "three nights from 9 December",
    "next week",
    "for two days from Thursday",
    "in March",
    "on 3 January",
    "this weekend",
    "Friday at 3pm",
    "from 28 December to 3 January",
    "the day after tomorrow",
]
_PAST = ["last Friday", "yesterday", "on 3 November", "last week", "two days ago"]
_MONEY = [
    "45 euros",
    "$1,200",
    "€300",
    "EUR 1.5k",
    "1,200.50 GBP",
    "£80",
    "CHF 200",
    "2 million yen",
]
_THINGS = [
    "20 office chairs",
    "three laptops",
    "a dozen monitors",
    "5 webcams",
    "two docking stations",
]
_TEMPLATES = [
    "I need to fly to {city} {when} for a client meeting",
    "Book me a business trip to {city} {when}",
    "Book a hotel in {city} {when}, budget {money}",
    "Fly me from {city} to {city2} {when}",
    "File the expenses for my {city} trip: taxi {money} {past}",
    "I paid {money} for a taxi {past}, please reimburse",
    "Order {things} for {customer}, it's not urgent",
    "Place an order of {things} for {customer} by {when}",
    "Pull up the account for {customer}",
    "Pull up the account for {unknown}",
    "What is the status of {order}?",
    "Invoice {customer} {money} for {order}",
    "Declare a sev{sev} incident for the {service}, {incident} is related",
    "It's not a sev1 but the {service} is slow, P3",
    "Open a high priority ticket for {customer}: {things} arrived damaged ({order})",
    "Schedule an interview with {person} {when}",
    "Book {person} a flight to {city} {when}",
    "Push the {city} trip back by a week",
    "Bring the meeting with {customer} forward two days",
    "Extend my stay in {city} by two nights",
    "Give {customer} a 10% discount on {things}",
    "Email {email} about {order}",
    "a report for Q3 in euros",
    "Nice work on the report, thanks!",
    "Can you summarise the last sync?",
    "Reset my password please",
]


def corpus(size: int = 400, seed: int = 7) -> tuple[list[str], dict[str, list[str]]]:
    """(requests, names): deterministic for a seed."""
    from faker import Faker

    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    industry = ["Logistics", "Foods", "Analytics", "Media", "Robotics", "Telecom", "Energy"]
    legal = ["Inc.", "Ltd", "GmbH", "LLC", "S.A.", "Group", ""]
    companies = sorted(
        {
            f"{fake.last_name()} {rng.choice(industry)} {rng.choice(legal)}".strip()
            for _ in range(400)
        }
    )
    people = sorted({fake.name() for _ in range(200)})
    names = {
        "customer": companies[: len(companies) // 2],
        "vendor": companies[len(companies) // 2 :],
        "employee": people,
        "service": ["Checkout API", "Payments gateway", "Customer portal", "Billing service"],
    }
    requests: list[str] = []
    seen: set[str] = set()
    for _ in range(size * 20):
        if len(requests) == size:
            break
        template = rng.choice(_TEMPLATES)
        city, city2 = rng.sample(_CITIES, 2)
        person = rng.choice(people)
        text = template.format(
            city=city,
            city2=city2,
            when=rng.choice(_WHEN),
            past=rng.choice(_PAST),
            money=rng.choice(_MONEY),
            things=rng.choice(_THINGS),
            customer=rng.choice(names["customer"]),
            unknown=f"{fake.last_name()} {rng.choice(industry)}",
            order=f"ORD-{rng.randint(1, 999):06d}",
            incident=f"INC-{rng.randint(1, 999):05d}",
            sev=rng.randint(1, 4),
            service=rng.choice(names["service"]),
            person=person,
            email=f"{person.split()[0].lower()}@example.com",
        )
        if text not in seen:  # every request distinct, so the cold pass never hits the cache
            seen.add(text)
            requests.append(text)
    return requests, names


def _percentiles(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "n": len(ordered),
        "p50_us": round(at(0.50), 1),
        "p90_us": round(at(0.90), 1),
        "p99_us": round(at(0.99), 1),
        "max_us": round(ordered[-1], 1),
        "mean_us": round(statistics.fmean(ordered), 1),
    }


def _time_each(items: Sequence[Any], call: Callable[[Any], object]) -> list[float]:
    out = []
    for item in items:
        start = time.perf_counter()
        call(item)
        out.append((time.perf_counter() - start) * 1e6)
    return out


def _import_ms() -> float:
    """Importing the package in a fresh interpreter (here it is imported already)."""
    code = (
        "import time; t = time.perf_counter(); import mock_account.understanding; "
        "print((time.perf_counter() - t) * 1e3)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return round(float(done.stdout.strip()), 1)


def run(size: int, rounds: int, with_dateparser: bool) -> dict[str, Any]:
    from . import clear_cache, extract_facts, name_index, warm_up
    from .extract import _extract

    report: dict[str, Any] = {"import_ms": _import_ms()}
    start = time.perf_counter()
    warm_up()
    report["warm_up_ms"] = round((time.perf_counter() - start) * 1e3, 1)
    requests, names = corpus(size)
    start = time.perf_counter()
    index = name_index(names)
    report["name_index_ms"] = round((time.perf_counter() - start) * 1e3, 1)
    report["names"] = sum(len(v) for v in names.values())
    report["requests"] = len(requests)

    cold: list[float] = []
    warm: list[float] = []
    for _ in range(rounds):
        clear_cache()
        cold.extend(_time_each(requests, lambda text: extract_facts(text, TODAY, names=index)))
        warm.extend(_time_each(requests, lambda text: extract_facts(text, TODAY, names=index)))
    report["cold"] = _percentiles(cold)
    report["warm"] = _percentiles(warm)
    # The same cold work, best of 5 per request: what the code costs without the noise of a
    # shared machine (a pre-emption lands in the plain cold figures).
    best = [min(_time_each([text] * 5, lambda t: _extract(t, TODAY, index))) for text in requests]
    report["cold_best_of_5"] = _percentiles(best)
    if with_dateparser:
        report["date_phrases"] = _compare_dateparser(requests)
    return report


def _compare_dateparser(requests: Sequence[str]) -> dict[str, Any]:
    from .dates import find_dates
    from .extract import extract_facts
    from .text import Analysis

    phrases = sorted(
        {
            fact.text
            for text in requests
            for name, fact in extract_facts(text, TODAY).facts()
            if name in ("dates", "date_ranges")
        }
    )
    ours = _time_each(phrases, lambda p: find_dates(Analysis.of(p), TODAY))
    out: dict[str, Any] = {"phrases": len(phrases), "this_package": _percentiles(ours)}
    try:
        from dateparser.date import DateDataParser
    except ImportError:
        out["dateparser"] = "not installed (pip install dateparser to compare)"
        return out
    base = dt.datetime.combine(TODAY, dt.time())
    parser = DateDataParser(
        languages=["en"], settings={"RELATIVE_BASE": base, "PREFER_DATES_FROM": "future"}
    )
    parser.get_date_data("next Tuesday")  # its first call loads its language data
    out["dateparser"] = _percentiles(_time_each(phrases, parser.get_date_data))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mock_account.understanding.bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--requests", type=int, default=400, help="corpus size (default 400)")
    parser.add_argument("--rounds", type=int, default=3, help="cold+warm rounds (default 3)")
    parser.add_argument("--dateparser", action="store_true", help="compare with dateparser")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.requests < 1 or args.rounds < 1:
        parser.error("--requests and --rounds must be at least 1")
    report = run(args.requests, args.rounds, args.dateparser)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"start-up: import {report['import_ms']} ms, warm_up {report['warm_up_ms']} ms, "
        f"index of {report['names']} names {report['name_index_ms']} ms"
    )
    print(f"{report['requests']} distinct requests, {args.rounds} rounds")
    for name in ("cold", "warm", "cold_best_of_5"):
        p = report[name]
        print(
            f"  {name:<14} p50 {p['p50_us']:>8} us  p90 {p['p90_us']:>8} us  "
            f"p99 {p['p99_us']:>8} us  max {p['max_us']:>8} us  mean {p['mean_us']:>8} us"
        )
    if "date_phrases" in report:
        dp = report["date_phrases"]
        print(f"date phrases of the corpus: {dp['phrases']}")
        for name in ("this_package", "dateparser"):
            p = dp[name]
            if isinstance(p, str):
                print(f"  {name:<12} {p}")
            else:
                print(f"  {name:<12} p50 {p['p50_us']:>8} us  p99 {p['p99_us']:>8} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
