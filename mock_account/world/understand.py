"""From the facts a request states (request understanding) to what the recipes use.

The extractor is told the names of the business data (customers, suppliers, people,
products, services...) so that "Riddle Logistics" is known and "Hoffmann Logistics" is a
name that exists nowhere; the result is cached per (text, day), since load tests and
retries send the same requests again and again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date
from functools import lru_cache
from typing import Any

from mock_account.business.vocab import SERVICES

from ..understanding import RequestFacts, extract_facts
from .places import fold
from .stated import Money, Name, Place, Quantity, Stated, Thing

_DISTANCE_UNITS = {"km": "km", "kilometre": "km", "kilometer": "km", "mile": "mi", "mi": "mi"}
# Which source's names are which kind of name, for the extractor.
_NAME_SOURCES: dict[str, tuple[str, str]] = {
    "customer": ("customers", "name"),
    "vendor": ("vendors", "name"),
    "employee": ("employees", "name"),
    "candidate": ("candidates", "name"),
    "product": ("products", "name"),
    "campaign": ("campaigns", "name"),
    "hotel": ("hotels", "name"),
}


def known_names(data: Any) -> dict[str, tuple[str, ...]]:
    """Every name of the business data, by kind."""
    names = {
        kind: tuple(str(r[field]) for r in data.records(source))
        for kind, (source, field) in _NAME_SOURCES.items()
    }
    names["service"] = SERVICES
    return names


# An id typed in the shape of one ("ORD-20931", "inv-4512"), as opposed to a noun and a
# number ("order 20931"), which is said back in its canonical form.
_ID_AS_TYPED = re.compile(r"[A-Z]{2,5}-\d+")

# Words just before an amount that make it a ceiling, not the price.
_COUNTED_PARTIES = frozenset(
    """
    vendor supplier dealer agency quote quotation bid offer proposal option person people
    colleague candidate reference
    """.split()
)
# An amount being replaced by the one after it: "from 8k to 12k", "was 1,500, now 2,000".
_REPLACED = re.compile(r"\b(?:from|was|instead\s+of|not|rather\s+than)\s*$", re.IGNORECASE)


def _new_amounts_first(text: str, amounts: Sequence[Any]) -> list[Any]:
    """The amounts, the ones a later amount replaces last: what a request asks for first."""
    replaced = [
        m for m in amounts[:-1] if _REPLACED.search(text[max(0, m.span[0] - 20) : m.span[0]])
    ]
    return [m for m in amounts if m not in replaced] + replaced


_LIMIT = re.compile(
    r"\b(?:under|below|less\s+than|no\s+more\s+than|not\s+more\s+than|at\s+most|max(?:imum)?"
    r"|up\s+to|within|cheaper\s+than|budget\s+of)\s*$",
    re.IGNORECASE,
)


def stated_from_facts(facts: RequestFacts) -> Stated:
    """The recipes' view of the extracted facts."""
    span = facts.date_range
    if (
        span is not None
        and span.kind == "quarter"
        and any(d.role not in ("end", "deadline") for d in facts.dates)
    ):
        # "Send the Q4 newsletter next Monday": the day it is done, not the quarter that
        # names what is sent.
        span = None
    elif span is not None and span.kind in ("quarter", "year"):
        # "Our Q1 budget is 40,000 EUR, launch a campaign in February": the month it starts,
        # not the quarter that names the budget; "Last year we had a tiny table … the show
        # runs 22 to 24 April": the days of the show, not the year of the story.
        span = next((r for r in facts.date_ranges if r.kind not in ("quarter", "year")), span)
    start = span.start if span else None
    end = span.end if span else None
    # The day something starts comes first ("signed yesterday and starts Monday 3 March").
    single = tuple(d.date for d in sorted(facts.dates, key=lambda d: d.role != "start"))
    if span is None and len(facts.dates) == 1 and facts.dates[0].role == "end":
        end, single = facts.dates[0].date, ()
    nights: int | None = None
    in_days = False
    if span is not None and span.kind in ("nights", "days"):
        nights = span.nights
    else:
        stay = next((d for d in facts.durations if d.unit in ("night", "day", "week")), None)
        if stay is not None and stay.days:
            nights, in_days = stay.days, stay.unit != "night"
    shift = facts.shifts[0] if facts.shifts else None
    quantities = []
    # Goods first: "three vendors for pricing on 250 chairs" is about the chairs; the count of
    # whom to ask (vendors, quotes, people) says how, not what.
    for q in sorted(facts.quantities, key=lambda q: q.singular.lower() in _COUNTED_PARTIES):
        unit = _DISTANCE_UNITS.get(q.singular.lower(), "")
        quantities.append(Quantity(float(q.count), q.singular, unit, q.text))
    organisations = [
        Name(n.text, n.kind or "", n.name or "") for n in (*facts.organisations, *facts.mentions)
    ]
    people = [Name(n.text, n.kind or "", n.name or "") for n in facts.people]
    ids: dict[str, list[str]] = {}
    ids_typed: dict[str, str] = {}
    for fact in facts.ids:
        ids.setdefault(fact.id.split("-", 1)[0], []).append(fact.id)
        typed = fact.text.upper()
        if _ID_AS_TYPED.fullmatch(typed) and typed != fact.id:
            ids_typed[fact.id] = typed
    deadline = next((d.date for d in facts.dates if d.role == "deadline"), None)
    return Stated(
        text=facts.text,
        start=start,
        end=end,
        dates=single,
        span=span.kind if span else None,
        deadline=deadline,
        nights=nights,
        in_days=in_days,
        shift_days=shift.days if shift else None,
        shift_target=shift.applies_to if shift else None,  # type: ignore[arg-type]
        places=tuple(
            Place(
                _as_said(p.text, p.name),
                p.country,
                p.currency or "",
                "country" if p.kind == "country" else "city",
                p.role if p.role in ("origin", "destination", "vicinity") else "",  # type: ignore[arg-type]
            )
            for p in facts.places
        ),
        amounts=tuple(
            Money(float(m.amount), m.currency, bool(_LIMIT.search(facts.text[: m.span[0]])))
            for m in _new_amounts_first(facts.text, facts.amounts)
        ),
        quantities=tuple(quantities),
        percent=float(facts.percentages[0].value) if facts.percentages else None,
        ids={k: tuple(v) for k, v in ids.items()},
        ids_typed=ids_typed,
        severity=facts.severity,
        priority=facts.priority,
        levels_said=_levels_said(facts),
        organisations=tuple(organisations),
        people=tuple(people),
        emails=tuple(e.address for e in facts.emails),
        versions=tuple(v.version for v in facts.versions),
        times=_times(facts),
        durations=tuple(_duration_said(d.amount, d.unit) for d in facts.durations),
        percents=tuple(float(p.value) for p in facts.percentages),
        things=tuple(Thing(t.kind, t.value) for t in facts.things),
        date_spans=tuple(f.span for f in (*facts.dates, *facts.date_ranges)),
        period_spans=tuple(r.span for r in facts.date_ranges if r.kind in ("quarter", "year")),
        # A plain amount ("make the price 80 each") is a number said alone too: it takes the
        # unit of what it changes.
        fact_spans=tuple(
            f.span
            for _, f in facts.facts()
            if getattr(f, "span", None) and getattr(f, "currency", None) != ""
        ),
    )


def _levels_said(facts: RequestFacts) -> dict[str, str]:
    """The severity and priority as typed, when typed as a code other than the level's own
    name ("P1 cases" is noted as P1, not as sev1; "SEV-1" is sev1)."""
    said: dict[str, str] = {}
    for key, found in (("severity", facts.severities), ("priority", facts.priorities)):
        kept = [f for f in found if not f.negated]
        if not kept:
            continue
        text = " ".join(kept[-1].text.split())
        if any(c.isdigit() for c in text) and re.sub(r"[\s_-]", "", text).lower() != kept[-1].level:
            said[key] = text
    return said


def _times(facts: RequestFacts) -> tuple[str, ...]:
    """The clock times stated, on a day or alone ("next Wednesday at 3pm": 15:00)."""
    found = [(d.span, d.time) for d in facts.dates if d.time is not None]
    found += [(t.span, t.time) for t in facts.times]
    return tuple(dict.fromkeys(t.strftime("%H:%M") for _, t in sorted(found)))


def _duration_said(amount: float, unit: str) -> str:
    count = int(amount) if float(amount).is_integer() else amount
    return f"{count} {unit}{'' if count == 1 else 's'}"


def _as_said(text: str, name: str) -> str:
    """The place as the user spelled it when it is the gazetteer's name without accents
    ("Zurich", not "Zürich"); the gazetteer's name for other forms ("NYC")."""
    said = " ".join(text.split())
    return said if fold(said) == fold(name) else name


def understand_request(data: Any, *, cache_size: int = 4096) -> Any:
    """A function (text, today) -> Stated over the names of `data`, cached."""
    names: Mapping[str, tuple[str, ...]] | None = None

    @lru_cache(maxsize=cache_size)
    def understand(text: str, today: date) -> Stated:
        nonlocal names
        if names is None:
            names = known_names(data)
        return stated_from_facts(extract_facts(text, today, names=names))

    return understand
