"""The extraction pipeline: one request in, `RequestFacts` out.

The extractors run in a fixed order and each claims the characters it used, so a later one does
not read them again: ids, e-mails and software versions first (they contain digits and
capitals), then amounts and percentages (numbers with a currency), dates and times, durations
and shifts, severities and priorities, known names, organisations named with a legal form
("Berlin Logistics" is not Berlin), places, the other capitalised names, and last the counts of
things.

Results are cached per (text, today, name index): the agent server sees the same request text
again on retries, follow-up searches and hand-offs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from functools import lru_cache

from .dates import find_dates
from .durations import find_durations
from .facts import NameFact, RequestFacts
from .ids import find_emails, find_ids, find_levels, find_versions
from .money import find_money, find_percentages, find_plain_money
from .names import (
    NameIndex,
    find_known,
    find_organisations_by_form,
    find_organisations_named_after_places,
    find_people_in_roles,
    find_unknown_names,
    name_index,
)
from .places import find_places, gazetteer
from .quantities import find_quantities
from .subjects import find_subjects
from .text import Analysis
from .things import (
    find_addresses,
    find_codes,
    find_phones,
    find_products,
    find_regions,
    find_titles,
    find_vocabulary,
)

# Longer text is cut: a request is a sentence or a few; a pasted document is not one.
MAX_CHARS = 4000
CACHE_SIZE = 4096

Names = Mapping[str, Iterable[str]]


def extract_facts(
    text: str, today: dt.date, *, names: Names | NameIndex | None = None
) -> RequestFacts:
    """The facts `text` states, dates relative to `today` (never the clock).

    `names` maps a kind ("customer", "vendor", "employee", "product", ...) to the known names of
    that kind; known names that the text mentions are reported with their kind, and capitalised
    names that match none are reported as unknown. The index built from `names` is cached by
    the mapping's identity (see `name_index`).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if isinstance(today, dt.datetime):
        today = today.date()
    elif not isinstance(today, dt.date):
        raise TypeError(f"today must be a datetime.date, not {type(today).__name__}")
    index = name_index(names) if names is not None else None
    return _cached(text, today, index)


@lru_cache(maxsize=CACHE_SIZE)
def _cached(text: str, today: dt.date, index: NameIndex | None) -> RequestFacts:
    return _extract(text, today, index)


def clear_cache() -> None:
    """Forget cached results (for benchmarks of the cold path)."""
    _cached.cache_clear()


def warm_up() -> None:
    """Build the gazetteer and compile the patterns now rather than on the first request."""
    gazetteer()
    _extract(
        "Warm up: 2 chairs for €10 to Berlin next Tuesday, sev2, ORD-1.", dt.date(2026, 1, 1), None
    )


def _extract(text: str, today: dt.date, index: NameIndex | None) -> RequestFacts:
    analysis = Analysis.of(text[:MAX_CHARS])
    # A quoted title is one thing whatever it holds ("Your 2027 freight plan" names no year).
    things = list(find_titles(analysis))
    ids = list(find_ids(analysis))
    emails = list(find_emails(analysis))
    versions = list(find_versions(analysis))
    things += find_addresses(analysis)
    things += find_phones(analysis)
    things += find_codes(analysis)
    # "LinkedIn" is a channel before it is a product name with an inner capital.
    things += find_vocabulary(analysis)
    amounts = list(find_money(analysis))
    percentages = list(find_percentages(analysis))
    dates = find_dates(analysis, today)
    durations, shifts = find_durations(analysis)
    severities, priorities = find_levels(analysis)

    organisations: list[NameFact] = []
    people: list[NameFact] = []
    mentions: list[NameFact] = []
    if index is not None:
        for fact, category in find_known(analysis, index):
            {"organisation": organisations, "person": people, "mention": mentions}[category].append(
                fact
            )
    people.extend(find_people_in_roles(analysis))
    # Models and brands after the known names ("Datadog Inc." is a supplier, not the brand).
    things += find_products(analysis)
    organisations.extend(find_organisations_by_form(analysis))
    places = find_places(analysis)
    named_after, places = find_organisations_named_after_places(analysis, places)
    organisations.extend(named_after)
    things += find_regions(analysis)
    unknown_orgs, unknown_people = find_unknown_names(analysis, gazetteer().given_names)
    organisations.extend(unknown_orgs)
    people.extend(unknown_people)
    # A count may name its item by a product ("30 SmartSense T4 sensors").
    shared = [m.span for m in mentions] + [t.span for t in things if t.kind in ("product", "code")]
    quantities = list(find_quantities(analysis, shared))
    # A plain number is money only where dates, counts and percentages left it free.
    amounts = sorted([*amounts, *find_plain_money(analysis)], key=lambda m: m.span)
    # What is left between the facts: what the request is about, in its own words.
    things += find_subjects(analysis)

    def ordered(facts: list[NameFact]) -> tuple[NameFact, ...]:
        return tuple(sorted(facts, key=lambda f: f.span))

    return RequestFacts(
        text=text,
        today=today,
        dates=tuple(dates.dates),
        date_ranges=tuple(dates.ranges),
        times=tuple(dates.times),
        durations=tuple(durations),
        shifts=tuple(shifts),
        places=tuple(places),
        amounts=tuple(amounts),
        quantities=tuple(quantities),
        percentages=tuple(percentages),
        ids=tuple(sorted(ids, key=lambda f: f.span)),
        severities=tuple(severities),
        priorities=tuple(priorities),
        organisations=ordered(organisations),
        people=ordered(people),
        mentions=ordered(mentions),
        emails=tuple(emails),
        versions=tuple(versions),
        things=tuple(sorted(things, key=lambda f: f.span)),
    )
