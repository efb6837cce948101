"""Request understanding: the facts a request states, found deterministically.

``extract_facts(text, today, names=...)`` returns a `RequestFacts`: dates and ranges relative to
*today*, durations and shifts, places (with country and currency), amounts, counts of things,
percentages, record ids, software versions, severities and priorities, organisations and people
(known to the business data or not), e-mail addresses. Each fact keeps its text and character
span. Pure: no clock, no network, no model; the same input always gives the same facts.

    >>> import datetime
    >>> facts = extract_facts("Fly me to Berlin next Tuesday", datetime.date(2026, 11, 30))
    >>> facts.date.date.isoformat(), facts.destination.name
    ('2026-12-08', 'Berlin')

`python -m mock_account.understanding "text" [--today YYYY-MM-DD]` prints the facts as JSON;
`python -m mock_account.understanding.bench` measures the time a request takes.
"""

from .extract import clear_cache, extract_facts, warm_up
from .facts import (
    PARTS_OF_DAY,
    PRIORITY_LEVELS,
    SEVERITY_LEVELS,
    DateFact,
    DateRangeFact,
    DurationFact,
    EmailFact,
    IdFact,
    LevelFact,
    MoneyFact,
    NameFact,
    PercentFact,
    PlaceFact,
    QuantityFact,
    RequestFacts,
    ShiftFact,
    ThingFact,
    TimeFact,
    VersionFact,
    describe,
)
from .ids import ID_KINDS, canonical_id
from .names import NameIndex, name_index

__all__ = [
    "ID_KINDS",
    "PARTS_OF_DAY",
    "PRIORITY_LEVELS",
    "SEVERITY_LEVELS",
    "DateFact",
    "DateRangeFact",
    "DurationFact",
    "EmailFact",
    "IdFact",
    "LevelFact",
    "MoneyFact",
    "NameFact",
    "NameIndex",
    "PercentFact",
    "PlaceFact",
    "QuantityFact",
    "RequestFacts",
    "ShiftFact",
    "ThingFact",
    "TimeFact",
    "VersionFact",
    "canonical_id",
    "clear_cache",
    "describe",
    "extract_facts",
    "name_index",
    "warm_up",
]
