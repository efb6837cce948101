"""What a request states, in the terms the record recipes use.

The request-understanding package extracts facts with their spans and every reading it
can tell; this is the narrower view a recipe needs to build or change a record: the
dates (a range, single dates, a length of stay, a shift), the places with their roles,
the amounts, quantities, ids, severities, names. Keeping it separate means a recipe
never depends on how a phrase was parsed, and tests can state facts directly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any, Literal

from mock_account.understanding.money import currency_codes

# A currency asked for without an amount ("a quote ... in SEK").
_IN_CURRENCY = re.compile(r"\bin\s+([A-Z]{3})\b")
# A request that moves something already booked to other days, or makes it longer or
# shorter, rather than asking for another one: "move it to Friday", "make it Thursday",
# "push it back a week", "stay two nights longer".
_MOVES = re.compile(
    r"\b(?:move|moved|moving|shift|push|pushed|postpone|postponed|reschedule|rescheduled|"
    r"bring\s+(?:it|them|that)\s+forward|change\s+(?:it|that|the\s+dates?)|make\s+it|"
    r"make\s+(?:that|this|the\s+(?:trip|stay|booking|hotel(?:\s+booking)?|room|reservation|"
    r"car|rental(?:\s+car)?|leave))\b|"
    r"instead|extend|extended|longer|shorten|shorter|earlier|later)\b",
    re.IGNORECASE,
)
# A change asked of what the conversation is about, by a pronoun: "Move it to the 16th",
# "actually, cancel it", "make that five nights".
_CHANGE_OF_IT = re.compile(
    r"^\s*(?:(?:please|actually|ok|okay|and|now|can\s+you|could\s+you)[,\s]+)*"
    r"(?P<verb>move|shift|push|postpone|reschedule|change|make|extend|shorten|cancel|upgrade|"
    r"downgrade|bring)\s+(?:it|that|this|them)\b(?P<rest>[^?]*)$",
    re.IGNORECASE,
)
# A question about how something is done, or what the rule is, rather than a request to do
# it: "How do I report a phishing email?", "What is the process to request a new laptop?".
_ASKS_HOW = re.compile(
    r"^\s*(?:how\s+(?:do|can|should|would)\s+(?:i|we|you|one)\b|"
    r"what(?:'s|’s|\s+is)\s+the\s+(?:process|procedure|policy|rule)\b|"
    r"how\s+long\s+does\b|what\s+happens\s+if\b|do\s+(?:i|we)\s+need\s+(?:approval|permission)\b|"
    r"is\s+there\s+a\s+(?:policy|process|limit|rule)\b|"
    r"how\s+many\s+(?:days|hours|times)\s+(?:can|may)\s+(?:i|we)\b)",
    re.IGNORECASE,
)
# Someone the request does not name: "someone in my team resigned", "a colleague is leaving".
_SOMEONE = re.compile(
    r"\b(?:someone|somebody|a colleague|a co-worker|a coworker|one of my (?:reports|team)|"
    r"a team member|a member of (?:my|our|the) team|an employee of mine)\b",
    re.IGNORECASE,
)
# "Them" and "their" are as often a company's, so only these point back at a person.
_THIRD_PERSON = re.compile(r"\b(?:him|her|his|he|she)\b", re.IGNORECASE)

ShiftTarget = Literal["start", "end", "both"]


@dataclass(frozen=True)
class Place:
    name: str
    country: str = ""
    currency: str = ""
    kind: Literal["city", "country"] = "city"
    role: Literal["origin", "destination", "vicinity", ""] = ""


@dataclass(frozen=True)
class Money:
    amount: float
    currency: str  # "" for a plain number the words around make money ("budget 35,000")
    # Said as the most it may be ("under 900 USD", "up to 150 EUR a night"), not the price.
    limit: bool = False
    # Whether the request said the currency; a plain amount's is filled in (`priced_in`).
    said: bool = True


@dataclass(frozen=True)
class Quantity:
    count: float
    item: str
    unit: str = ""
    said: str = ""  # as the request says it: "14 people", "146 km"


@dataclass(frozen=True)
class Thing:
    """A named thing of another kind than the rest (``understanding.things``)."""

    kind: str  # product | code | title | phone | region | site | environment | channel | ...
    value: str


@dataclass(frozen=True)
class Name:
    """An organisation or a person the request names, known to the data or not."""

    text: str
    kind: str = ""  # "customer", "vendor", "employee"... when known; "" when not
    known: str = ""  # the name as the business data spells it, when known

    @property
    def shown(self) -> str:
        return self.known or self.text


_NOT_WHERE_TO = frozenset({"origin", "vicinity"})


@dataclass(frozen=True)
class Stated:
    """The facts of one request. Everything is optional: a request may state nothing."""

    text: str = ""
    start: date | None = None
    end: date | None = None
    dates: tuple[date, ...] = ()
    span: str | None = None  # what a stated range is: dates, nights, week, month, quarter...
    deadline: date | None = None  # a day the request says something is due by
    nights: int | None = None
    # Whether ``nights`` was said in days ("three days off": the 14th to the 16th) rather
    # than nights ("three nights": checking out on the 17th).
    in_days: bool = False
    shift_days: int | None = None
    shift_target: ShiftTarget | None = None
    places: tuple[Place, ...] = ()
    amounts: tuple[Money, ...] = ()
    quantities: tuple[Quantity, ...] = ()
    percent: float | None = None
    ids: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # An id as typed where it was typed otherwise than its canonical form ("ORD-20931" for
    # ORD-020931): what the answer says back.
    ids_typed: Mapping[str, str] = field(default_factory=dict)
    severity: str | None = None
    priority: str | None = None
    # A level as typed when it is a code of the user's own ("P1" for sev1): what is noted.
    levels_said: Mapping[str, str] = field(default_factory=dict)
    organisations: tuple[Name, ...] = ()
    people: tuple[Name, ...] = ()
    emails: tuple[str, ...] = ()
    versions: tuple[str, ...] = ()
    # Clock times ("15:00"), lengths of time as said ("2 hours"), every percentage ("9%",
    # "4%"), and named things of other kinds ("product", "code", "title", "channel"...).
    times: tuple[str, ...] = ()
    durations: tuple[str, ...] = ()
    percents: tuple[float, ...] = ()
    things: tuple[Thing, ...] = ()
    # Where the text states dates ("in April"), so a month is not read as a first name.
    date_spans: tuple[tuple[int, int], ...] = ()
    # Of those, the ones of a whole quarter or year ("the Q4 newsletter"): a name as often as
    # a date, and never the day something is sent or starts.
    period_spans: tuple[tuple[int, int], ...] = ()
    # Where the text states any fact: a number outside them all is a value said alone ("make
    # that 55 instead").
    fact_spans: tuple[tuple[int, int], ...] = ()

    # --- convenient readings --------------------------------------------------

    def priced_in(self, currency: str) -> Stated:
        """The request with its plain amounts ("budget 35,000", "around 2,100 each") in
        ``currency``: the record's when it has one, else the user's own."""
        if not currency or all(m.currency for m in self.amounts):
            return self
        amounts = tuple(
            m if m.currency else replace(m, currency=currency, said=False) for m in self.amounts
        )
        return replace(self, amounts=amounts)

    @property
    def origin(self) -> Place | None:
        return next((p for p in self.places if p.role == "origin"), None)

    @property
    def destination(self) -> Place | None:
        """The place the request goes to: one said to be the destination, else the first
        city that is not the origin."""
        chosen = next((p for p in self.places if p.role == "destination"), None)
        if chosen is not None:
            return chosen
        # A place "near" which the request wants to be is the destination only when nothing
        # else is (a hotel near Shinagawa, alone, is in Shinagawa).
        return next(
            (p for p in self.places if p.role not in _NOT_WHERE_TO and p.kind == "city"),
            next((p for p in self.places if p.role not in _NOT_WHERE_TO), self.vicinity),
        )

    @property
    def vicinity(self) -> Place | None:
        """The place a request wants to be near ("a hotel near Shinagawa"): where in the
        destination, which a trip the conversation holds may name."""
        return next((p for p in self.places if p.role == "vicinity"), None)

    @property
    def amount(self) -> Money | None:
        return self.amounts[0] if self.amounts else None

    @property
    def currency_said(self) -> bool:
        """Whether the request says the currency of its amount (it has one)."""
        return self.amount is not None and self.amount.said and bool(self.amount.currency)

    @property
    def first_date(self) -> date | None:
        return self.start or (self.dates[0] if self.dates else None)

    @property
    def last_day(self) -> date | None:
        """The last day of what the request asks for: its end, else the last of a count of
        days from its start ("three days off from the 14th": the 16th). A count of days
        inside a longer range is that many days from the range's start ("2 days of leave next
        week": Monday and Tuesday, not the whole week)."""
        first = self.first_date
        if first is None:
            return self.end
        counted = first + timedelta(days=self.nights - 1) if self.nights and self.in_days else None
        if counted is not None and (self.end is None or counted < self.end):
            return counted
        return self.end

    def ids_of(self, prefix: str) -> tuple[str, ...]:
        return tuple(self.ids.get(prefix, ()))

    def typed_id(self, canonical: str) -> str:
        """An id as the request typed it ("ORD-20931"), else its canonical form."""
        return self.ids_typed.get(canonical, canonical)

    def names_of(self, *kinds: str) -> tuple[Name, ...]:
        """Known names of these kinds, in the order the request gives them."""
        found = [n for n in (*self.organisations, *self.people) if n.kind in kinds and n.known]
        return tuple(found)

    def unknown_organisations(self) -> tuple[Name, ...]:
        return tuple(n for n in self.organisations if not n.known)

    def unknown_people(self) -> tuple[Name, ...]:
        return tuple(n for n in self.people if not n.known)

    @property
    def speaks_of_self(self) -> bool:
        """Whether the user talks about themself ("I forgot my password")."""
        lowered = f" {self.text.lower()} "
        return any(w in lowered for w in (" i ", " i'", " my ", " me ", " myself ", " mine "))

    @property
    def currency_named(self) -> str | None:
        """A currency the request asks for without an amount ("a quote ... in SEK")."""
        found = _IN_CURRENCY.search(self.text)
        return found.group(1) if found and found.group(1) in currency_codes() else None

    @property
    def speaks_of_another(self) -> bool:
        """Whether the user points back at someone else ("order him a laptop", "give her
        access"), without naming them."""
        return not self.people and bool(_THIRD_PERSON.search(self.text))

    @property
    def moves(self) -> bool:
        """Whether the request moves something already made to other days ("move it to
        Friday", "make it the 17th") rather than asking for another one."""
        return bool(_MOVES.search(self.text))

    @property
    def moves_days(self) -> bool:
        """Whether the request moves something to days it says ("move it to 18 January",
        "push it back two days"); "make it a window seat" moves nothing."""
        said = self.first_date or self.shift_days or self.nights
        return self.moves and bool(said)

    @property
    def when_said(self) -> str | None:
        """The first date the request states, as typed ("next Monday at 9am"); a quarter or
        a year only when it states nothing else ("the Q4 newsletter on 15 December" is sent
        on 15 December)."""
        days = [span for span in self.date_spans if span not in self.period_spans]
        if not (days or self.date_spans):
            return None
        start, end = min(days or self.date_spans)
        return " ".join(self.text[start:end].split()) or None

    @property
    def change_of_it(self) -> dict[str, str] | None:
        """A change asked of "it" ("Move it to the 16th", "Cancel it"): its verb and what
        follows "it", so an agent that only looks things up can say how to ask for it."""
        found = _CHANGE_OF_IT.match(self.text)
        if found is None:
            return None
        verb = found.group("verb")
        return {"verb": verb[:1].upper() + verb[1:].lower(), "rest": found.group("rest").rstrip()}

    @property
    def asks_how(self) -> bool:
        """Whether the request asks how something is done or what the rule is ("How do I
        declare an incident?"), rather than asks for it to be done."""
        return bool(_ASKS_HOW.match(self.text))

    @property
    def speaks_of_someone(self) -> bool:
        """Whether the request is about a person it does not name ("someone in my team
        resigned"), who is then not the user."""
        return not self.people and bool(_SOMEONE.search(self.text))

    def mentions(self, *words: str) -> bool:
        lowered = f" {self.text.lower()} "
        return any(word in lowered for word in words)

    def summary(self) -> dict[str, Any]:
        """What was understood, as plain JSON (kept in the run's tool call)."""
        out: dict[str, Any] = {}
        if self.start:
            out["start"] = self.start.isoformat()
        if self.end:
            out["end"] = self.end.isoformat()
        if self.dates and not self.start:
            out["dates"] = [d.isoformat() for d in self.dates]
        if self.nights is not None:
            out["nights"] = self.nights
        if self.shift_days:
            out["shift"] = {"days": self.shift_days, "of": self.shift_target or "both"}
        if self.places:
            out["places"] = [
                {"name": p.name, "role": p.role} if p.role else {"name": p.name}
                for p in self.places
            ]
        if self.amounts:
            out["amounts"] = [{"amount": m.amount, "currency": m.currency} for m in self.amounts]
        if self.quantities:
            out["quantities"] = [
                {"count": q.count, "item": q.item, **({"unit": q.unit} if q.unit else {})}
                for q in self.quantities
            ]
        if self.percent is not None:
            out["percent"] = self.percent
        if self.ids:
            out["ids"] = {k: list(v) for k, v in self.ids.items() if v}
        if self.severity:
            out["severity"] = self.severity
        if self.priority:
            out["priority"] = self.priority
        names = [n.shown for n in (*self.organisations, *self.people)]
        if names:
            out["names"] = names
        if self.emails:
            out["emails"] = list(self.emails)
        if self.versions:
            out["versions"] = list(self.versions)
        if self.times:
            out["times"] = list(self.times)
        if self.durations:
            out["durations"] = list(self.durations)
        if self.things:
            out["things"] = [{"kind": t.kind, "value": t.value} for t in self.things]
        return out
