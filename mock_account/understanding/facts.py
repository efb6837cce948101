"""The facts a request states, as frozen dataclasses, with their JSON form and a debug summary.

Every fact keeps the exact text it came from and its character span ``(start, end)`` in the
request, so ``request[start:end] == fact.text``. ``RequestFacts.to_dict()`` gives plain JSON
types: dates as ISO strings, amounts as numbers with two decimals.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

Span = tuple[int, int]

PARTS_OF_DAY = ("morning", "afternoon", "evening", "night")
PRIORITY_LEVELS = ("low", "normal", "high", "urgent")
SEVERITY_LEVELS = ("sev1", "sev2", "sev3", "sev4")

# Kinds of `names` whose entries are organisations and people; every other kind's matches are
# reported as `mentions` (products, services, ...).
ORGANISATION_KINDS = frozenset(
    {
        "customer",
        "vendor",
        "supplier",
        "company",
        "organisation",
        "organization",
        "partner",
        "client",
        "counterparty",
        "party",
    }
)
PERSON_KINDS = frozenset(
    {"employee", "candidate", "person", "people", "contact", "user", "staff", "assignee"}
)


@dataclass(frozen=True, slots=True)
class DateFact:
    """One calendar day ("next Tuesday", "7 December"), maybe with a part of day or a time."""

    date: dt.date
    text: str
    span: Span
    part_of_day: str | None = None  # morning | afternoon | evening | night
    time: dt.time | None = None
    role: str | None = None  # start | end | deadline: what the phrasing makes of the day


@dataclass(frozen=True, slots=True)
class DateRangeFact:
    """A span of days, both ends included ("14-16 December", "next week", "in March")."""

    start: dt.date
    end: dt.date
    text: str
    span: Span
    # dates (two ends given) | nights ("3 nights from") | days ("for two days from") | week |
    # weekend | month | quarter | year
    kind: str = "dates"

    @property
    def nights(self) -> int:
        return (self.end - self.start).days

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


@dataclass(frozen=True, slots=True)
class TimeFact:
    """A clock time not attached to any day of the request ("at 3pm")."""

    time: dt.time
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class DurationFact:
    """How long ("for three nights", "a week"); `days` for units of a day or more (a month is
    30 days, a year 365), None for hours and minutes."""

    amount: float
    unit: str  # minute | hour | day | night | week | month | year
    days: int | None
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class ShiftFact:
    """A change to a saved date ("push back by a week" = +7 days, "bring forward two days" = -2).

    `applies_to` says which end moves: "both" for a move, "end" for "extend"/"come back a day
    early", "start" for "leave a day later"."""

    days: int
    applies_to: str  # start | end | both
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class PlaceFact:
    """A city or country of the gazetteer, with its country and that country's currency."""

    name: str  # as the request names it, in the gazetteer's spelling ("Frankfurt", "Zurich")
    kind: str  # city | country
    country_code: str  # ISO 3166-1 alpha-2
    country: str
    currency: str | None  # ISO 4217 code of the country's currency
    text: str
    span: Span
    role: str | None = None  # origin | destination | location | via
    gazetteer_name: str = ""  # the gazetteer's own name ("Frankfurt am Main")
    geonameid: int | None = None
    population: int | None = None


@dataclass(frozen=True, slots=True)
class MoneyFact:
    """An amount with its currency ("45 euros", "$1,200", "EUR 1.5k")."""

    amount: Decimal  # rounded to 2 decimals
    currency: str  # ISO 4217; "" for a plain number that the words around make money
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class QuantityFact:
    """A count of things ("20 office chairs", "a dozen monitors")."""

    count: int
    item: str  # as written: "office chairs"
    singular: str  # "office chair"
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class PercentFact:
    """A percentage ("a 10% discount")."""

    value: Decimal
    text: str
    span: Span
    about: str | None = None  # the word it qualifies when there is one: "discount"


@dataclass(frozen=True, slots=True)
class IdFact:
    """A record id in its canonical zero-padded form ("ord-42" -> "ORD-000042")."""

    id: str
    kind: str  # customer | order | invoice | incident | ticket | employee | ...
    number: int
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class VersionFact:
    """A software version, release, tag or commit as written ("v2.14.0", "3.2", "a1b2c3d")."""

    version: str
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class LevelFact:
    """A severity (sev1..sev4) or a priority (low | normal | high | urgent); `negated` for "not
    urgent", "it's not a sev1"."""

    level: str
    text: str
    span: Span
    negated: bool = False


@dataclass(frozen=True, slots=True)
class NameFact:
    """An organisation, a person or another named thing.

    `known` when it matches a name of the business data (then `name` is that name and `kind` its
    kind); unknown capitalised names ("Hoffmann Logistics") have ``known=False`` and
    ``name=None`` so a lookup can say there is none by that name. `partial` marks a match on part
    of a known name ("Riddle" for "Riddle Logistics")."""

    text: str
    span: Span
    known: bool
    name: str | None = None
    kind: str | None = None
    partial: bool = False


@dataclass(frozen=True, slots=True)
class EmailFact:
    address: str  # lower-cased
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class ThingFact:
    """A named thing of another kind (see `things`): a quoted title, a code, a part of a whole
    ("34 of 40": kind "portion"), a product or model,
    a phone number, a region or site, or a word of a closed vocabulary by its category
    ("environment", "channel", "seat"...)."""

    kind: str
    value: str  # as an answer says it back: "Winter Ops Summit", "CC-4410", "production"
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class RequestFacts:
    """Everything `extract_facts` found in one request, each list in text order."""

    text: str
    today: dt.date
    dates: tuple[DateFact, ...] = ()
    date_ranges: tuple[DateRangeFact, ...] = ()
    times: tuple[TimeFact, ...] = ()
    durations: tuple[DurationFact, ...] = ()
    shifts: tuple[ShiftFact, ...] = ()
    places: tuple[PlaceFact, ...] = ()
    amounts: tuple[MoneyFact, ...] = ()
    quantities: tuple[QuantityFact, ...] = ()
    percentages: tuple[PercentFact, ...] = ()
    ids: tuple[IdFact, ...] = ()
    severities: tuple[LevelFact, ...] = ()
    priorities: tuple[LevelFact, ...] = ()
    organisations: tuple[NameFact, ...] = ()
    people: tuple[NameFact, ...] = ()
    mentions: tuple[NameFact, ...] = ()  # known names of other kinds: products, services...
    emails: tuple[EmailFact, ...] = ()
    versions: tuple[VersionFact, ...] = ()
    things: tuple[ThingFact, ...] = ()

    # -- conveniences for the common questions ------------------------------------------------

    @property
    def date(self) -> DateFact | None:
        """The first single day stated."""
        return self.dates[0] if self.dates else None

    @property
    def date_range(self) -> DateRangeFact | None:
        """The first span of days stated."""
        return self.date_ranges[0] if self.date_ranges else None

    @property
    def origin(self) -> PlaceFact | None:
        return next((p for p in self.places if p.role == "origin"), None)

    @property
    def destination(self) -> PlaceFact | None:
        """The place the request goes to; a lone city counts when nothing says otherwise."""
        found = next((p for p in self.places if p.role == "destination"), None)
        if found is None:
            others = [p for p in self.places if p.role not in ("origin", "via")]
            found = others[0] if len(others) == 1 else None
        return found

    @property
    def amount(self) -> MoneyFact | None:
        return self.amounts[0] if self.amounts else None

    @property
    def severity(self) -> str | None:
        """The last severity stated and not denied ("not a sev1, a sev3" -> "sev3")."""
        levels = [f.level for f in self.severities if not f.negated]
        return levels[-1] if levels else None

    @property
    def priority(self) -> str | None:
        """The last priority stated and not denied; "not urgent" alone means "normal"."""
        levels = [f.level for f in self.priorities if not f.negated]
        if levels:
            return levels[-1]
        return "normal" if self.priorities else None

    def ids_of(self, kind: str) -> tuple[str, ...]:
        """The canonical ids of one kind ("order" -> ("ORD-000042",))."""
        return tuple(f.id for f in self.ids if f.kind == kind)

    def facts(self) -> Iterator[tuple[str, Any]]:
        """Every fact with the name of its list, in list order."""
        for name in _LIST_FIELDS:
            for fact in getattr(self, name):
                yield name, fact

    @property
    def is_empty(self) -> bool:
        return not any(getattr(self, name) for name in _LIST_FIELDS)

    def to_dict(self) -> dict[str, Any]:
        """The facts as plain JSON types (ISO dates, amounts as numbers with 2 decimals)."""
        out: dict[str, Any] = {"text": self.text, "today": self.today.isoformat()}
        for name in _LIST_FIELDS:
            out[name] = [_fact_dict(fact) for fact in getattr(self, name)]
        return out


_LIST_FIELDS: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(RequestFacts) if f.name not in ("text", "today")
)


def _json_value(value: Any) -> Any:
    if isinstance(value, dt.date):  # datetime.date and datetime.datetime
        return value.isoformat()
    if isinstance(value, dt.time):
        return value.strftime("%H:%M")
    if isinstance(value, Decimal):
        # A JSON number; amounts are already rounded to two decimals ("1,200.50" -> 1200.5).
        return float(value)
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    return value


def _fact_dict(fact: Any) -> dict[str, Any]:
    out = {f.name: _json_value(getattr(fact, f.name)) for f in dataclasses.fields(fact)}
    if isinstance(fact, DateRangeFact):
        out["nights"] = fact.nights
        out["days"] = fact.days
    return out


def describe(facts: RequestFacts) -> str:
    """A short human summary, one fact a line, for debugging."""
    lines = [f"today {facts.today.isoformat()}: {facts.text!r}"]
    for name, fact in facts.facts():
        lines.append(f"  {_LABELS.get(name, name):<12} {_summary(fact)}")
    if facts.is_empty:
        lines.append("  (no facts)")
    return "\n".join(lines)


_LABELS = {
    "dates": "date",
    "date_ranges": "date range",
    "times": "time",
    "durations": "duration",
    "shifts": "shift",
    "places": "place",
    "amounts": "amount",
    "quantities": "quantity",
    "percentages": "percentage",
    "ids": "id",
    "severities": "severity",
    "priorities": "priority",
    "organisations": "organisation",
    "people": "person",
    "mentions": "mention",
    "emails": "email",
    "versions": "version",
    "things": "thing",
}


def _summary(fact: Any) -> str:
    said = f"  <- {fact.text!r}"
    if isinstance(fact, DateFact):
        extra = " ".join(
            x
            for x in (
                fact.date.strftime("%a"),
                fact.part_of_day or "",
                fact.time.strftime("%H:%M") if fact.time else "",
                f"({fact.role})" if fact.role else "",
            )
            if x
        )
        return f"{fact.date.isoformat()} {extra}{said}"
    if isinstance(fact, DateRangeFact):
        return (
            f"{fact.start.isoformat()} .. {fact.end.isoformat()} ({fact.kind}, "
            f"{fact.days} days){said}"
        )
    if isinstance(fact, TimeFact):
        return f"{fact.time.strftime('%H:%M')}{said}"
    if isinstance(fact, DurationFact):
        days = f" = {fact.days} days" if fact.days is not None else ""
        return f"{fact.amount:g} {fact.unit}{days}{said}"
    if isinstance(fact, ShiftFact):
        return f"{fact.days:+d} days ({fact.applies_to}){said}"
    if isinstance(fact, PlaceFact):
        role = f" ({fact.role})" if fact.role else ""
        return f"{fact.name}, {fact.country_code} {fact.kind} [{fact.currency}]{role}{said}"
    if isinstance(fact, MoneyFact):
        return f"{fact.amount:.2f} {fact.currency}{said}"
    if isinstance(fact, QuantityFact):
        return f"{fact.count} x {fact.singular}{said}"
    if isinstance(fact, PercentFact):
        about = f" {fact.about}" if fact.about else ""
        return f"{fact.value}%{about}{said}"
    if isinstance(fact, IdFact):
        return f"{fact.id} ({fact.kind}){said}"
    if isinstance(fact, LevelFact):
        return f"{'not ' if fact.negated else ''}{fact.level}{said}"
    if isinstance(fact, NameFact):
        if fact.known:
            partial = ", partial" if fact.partial else ""
            return f"{fact.name} ({fact.kind}{partial}){said}"
        return f"{fact.text} (unknown){said}"
    if isinstance(fact, EmailFact):
        return f"{fact.address}{said}"
    if isinstance(fact, VersionFact):
        return f"{fact.version}{said}"
    if isinstance(fact, ThingFact):
        return f"{fact.value} ({fact.kind}){said}"
    return repr(fact)
