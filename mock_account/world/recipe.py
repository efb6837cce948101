"""The contract of a record recipe, and the context one works in.

A recipe knows one data source (flights, expenses, orders...): which fields a request
states, how to fill the rest plausibly and consistently, what a request that changes a
record changes, and how a request names a record of its kind. The world (``world.py``)
runs the same three actions over every recipe, so an agent file only says which action
it takes and which fields come from the conversation.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, ClassVar

from faker.providers.person.en_US import Provider as _People

from mock_account.business.vocab import INDUSTRY_WORDS, LEGAL_FORMS
from mock_account.understanding.numbers import parse_number

from .changes import CHANGES_IT, count_more, day_of_its_month
from .places import Gazetteer
from .roles import people_beside
from .stated import Name, Stated

Record = dict[str, Any]

# Rough value of one unit of a currency in US dollars: mock prices are set in dollars and
# shown in the currency of the record, so a fare to Tokyo is not "900 JPY".
USD_PER_UNIT: dict[str, float] = {
    "USD": 1.0,
    "EUR": 1.08,
    "GBP": 1.27,
    "CHF": 1.13,
    "CAD": 0.73,
    "AUD": 0.66,
    "NZD": 0.6,
    "SGD": 0.74,
    "JPY": 0.0066,
    "CNY": 0.14,
    "HKD": 0.13,
    "KRW": 0.00074,
    "INR": 0.012,
    "SEK": 0.095,
    "NOK": 0.093,
    "DKK": 0.145,
    "PLN": 0.25,
    "CZK": 0.043,
    "HUF": 0.0027,
    "MXN": 0.055,
    "BRL": 0.18,
    "ZAR": 0.055,
    "AED": 0.27,
    "ILS": 0.27,
    "TRY": 0.029,
    # The rest of the region's and the world's common ones: without a rate, a price in them
    # would be its dollar figure under their name ("382.80 IDR" for a night in Jakarta).
    "IDR": 0.000063,
    "MYR": 0.21,
    "THB": 0.028,
    "PHP": 0.017,
    "VND": 0.000039,
    "TWD": 0.031,
    "SAR": 0.27,
    "QAR": 0.27,
    "KWD": 3.25,
    "EGP": 0.02,
    "KES": 0.0077,
    "NGN": 0.00065,
    "ARS": 0.001,
    "CLP": 0.001,
    "COP": 0.00025,
    "PKR": 0.0036,
    "BDT": 0.0084,
    "LKR": 0.0033,
    "RON": 0.22,
}


@lru_cache(maxsize=1)
def _names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    # Read on first use: Faker's combined first-name table is only filled once its module
    # has finished importing.
    first = (*_People.first_names_male, *_People.first_names_female)
    return tuple(first), tuple(_People.last_names)


@dataclass(frozen=True)
class Asked:
    """How a request names a record: a field, the value to find, and how to say it."""

    field: str
    value: str
    said: str  # "named Hoffmann Logistics", "ORD-000042", "to Reykjavik"


@dataclass
class Context:
    """Everything a recipe may use for one request; ``rng`` is seeded from the request."""

    stated: Stated
    today: date
    rng: random.Random
    data: Any  # BusinessData; typed loosely to keep recipes free of its import cycle
    places: Gazetteer
    user: str = ""
    # The record is the user's own (their laptop, their IT ticket), not a customer's.
    requester: bool = False

    def __post_init__(self) -> None:
        # A plain amount ("budget 35,000") is in the user's own currency when no record of
        # the conversation said one first (the world prices it in the record's, before).
        if any(not m.currency for m in self.stated.amounts):
            self.stated = self.stated.priced_in(self.home_currency())

    # --- the person asking ------------------------------------------------------

    @property
    def user_name(self) -> str:
        local = self.user.split("@", 1)[0]
        parts = [p for p in re.split(r"[._-]+", local) if p]
        return " ".join(p.capitalize() for p in parts) or "You"

    def home_office(self) -> tuple[str, str]:
        """The user's office (city, booking currency): the same for the same user."""
        offices = self.places.offices
        digest = hashlib.sha256(self.user.encode("utf-8", "surrogatepass")).digest()
        return offices[int.from_bytes(digest[:4], "big") % len(offices)]

    def home_currency(self) -> str:
        return self.home_office()[1]

    # --- plausible values -----------------------------------------------------------

    def price(
        self, low_usd: float, high_usd: float, currency: str, rng: random.Random | None = None
    ) -> float:
        """A price between two dollar amounts, in `currency`, rounded as prices are (drawn
        from `rng` when given: the same thing at the same price every time)."""
        usd = (rng or self.rng).uniform(low_usd, high_usd)
        value = usd / USD_PER_UNIT.get(currency, 1.0)
        if value >= 1000:
            return float(round(value, -1))
        return round(value, 2)

    def convert(self, amount: float, source: str, target: str) -> float:
        if source == target:
            return amount
        usd = amount * USD_PER_UNIT.get(source, 1.0)
        return round(usd / USD_PER_UNIT.get(target, 1.0), 2)

    def day_after_today(self, low: int, high: int) -> date:
        return self.today + timedelta(days=self.rng.randint(low, high))

    def pick(self, options: Any) -> Any:
        return self.rng.choice(list(options))

    def person_name(self) -> str:
        """A plausible full name (Faker's name lists, drawn with this request's seed)."""
        first, last = _names()
        return f"{self.pick(first)} {self.pick(last)}"

    def company_name(self) -> str:
        name = f"{self.pick(_names()[1])} {self.pick(INDUSTRY_WORDS)}"
        return f"{name} {self.pick(LEGAL_FORMS)}" if self.rng.random() < 0.4 else name


# What ``Recipe.standing`` says of a record: whose it is, what it is worth, and its day.
_PARTIES = ("party", "customer", "counterparty", "vendor", "employee", "assigned_to", "city")
_AMOUNTS = ("amount", "total", "cost", "budget", "value", "price")
_DAYS = (
    ("due_date", "due"),
    ("renewal_date", "renews"),
    ("start_date", "from"),
    ("date", "on"),
)

# A follow-up that changes what an agent made rather than asks for another: "push it back by a
# day", "make it 12", "…instead", "raise it to 60%".

# What an answer asks when the request points at someone else ("give him access") and
# nobody is named or saved: it is not the user's, and nobody is guessed.
WHO_FOR = "Who is it for? Tell me their name and I'll go ahead; I won't guess who you mean."
WHO_IS_IT = "Who is it? Tell me their name and I'll go ahead; I won't guess who you mean."

# The actions that change a saved record (``Recipe.lacking``): cancelling is one, told apart
# because a record may be cancelled that cannot be otherwise changed (a trip that is a stay).
CHANGES = frozenset({"update", "cancel"})

# The kinds of names a record must not be given at random when a question names none.
_NAMED_KINDS = frozenset({"customer", "vendor", "employee", "candidate", "campaign"})


class Recipe:
    """One data source's rules. Subclasses set the class attributes and override hooks."""

    source: ClassVar[str]
    noun: ClassVar[str]  # how the answer names a record of this source: "trip", "customer"
    id_field: ClassVar[str | None] = None
    id_prefix: ClassVar[str | None] = None  # the prefix of ids the request may give: "CUS"
    id_digits: ClassVar[int] = 5
    name_field: ClassVar[str | None] = None  # the field a request names a record by
    name_kinds: ClassVar[tuple[str, ...]] = ()  # which kinds of known names are this source's
    unknown_names: ClassVar[str] = ""  # "organisations" / "people": unknown names to report
    # Fields the request only fills from its own wording (a note, a subject): a value the
    # conversation holds is more precise ("Trip to Lisbon, 14 to 16 December") and wins.
    worded_fields: ClassVar[frozenset[str]] = frozenset()
    # How an answer names a record by its name field: "named X", "with X", "for X".
    by_name: ClassVar[str] = "named {}"
    # Records of this source are one per name (a company): creating a known one is refused.
    unique_name: ClassVar[bool] = False
    # A lookup that nothing names and nothing held points to asks which one rather than
    # take one at random: a company, a product ("buy the materials for the order" with no
    # order here is not about a Wi-Fi access point).
    named_only: ClassVar[bool] = False
    # The fields that say what a record is about: where a trip goes, whose order it is, the
    # other party of a contract. A request that states another value for one of them than the
    # conversation holds is about another record than the one saved.
    about_fields: ClassVar[tuple[str, ...]] = ()
    # Booked where the saved trip goes (a room, a car): a request that points back to the
    # trip counts its relative dates from the trip ("there for the weekend").
    at_trip: ClassVar[bool] = False

    # --- hooks ------------------------------------------------------------------

    def stated(self, ctx: Context) -> Record:
        """The fields of a new record that the request states."""
        return {}

    def applicable(self, given: Record, stated: Record, held: Mapping[str, str]) -> Record:
        """What of ``given`` applies to the record a request states: all of it, unless the
        request is about another record than the one the conversation holds (another
        destination, another customer). Then nothing of the variable that value came from
        applies (``held``: the conversation variable each given value came from): a stay in
        Lisbon takes neither the dates nor the hotel of the Berlin trip saved before it, but
        still what other variables and the agent itself say."""
        other = {
            held[name]
            for name in self.about_fields
            if name in held
            and stated.get(name)
            and given.get(name)
            and str(stated[name]).casefold() != str(given[name]).casefold()
        }
        if not other:
            return given
        return {k: v for k, v in given.items() if held.get(k) not in other}

    def fill(self, record: Record, ctx: Context) -> None:
        """Fill, in place, every field the request and the conversation left open."""

    def preferred(self, given: Record, ctx: Context) -> Record:
        """Filters that what the conversation holds suggests for a lookup nothing else
        narrows (a customer in the country a saved trip goes to); a lookup without them is
        made when none matches."""
        return {}

    def not_the_users(self, ctx: Context) -> str | None:
        """For an agent that makes the user's own record (``requester``: their own trip), why
        the request asks for someone else's instead ("a flight for Anna Schmidt"), as the
        answer says it; None when it is the user's."""
        return None

    def sampled(self, ctx: Context) -> tuple[Record, str | None]:
        """For a lookup whose record stands for many (an approved supplier, an audience):
        the filters the request states (a category, a country), and what the answer says
        instead when it asks for a kind of record the data has none of (or None)."""
        return {}, None

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        """What an answer says of a record that its fields give only in parts ("train IC 578"
        from a trip's mode and train), that depends on ``today`` (a campaign that ran, or is
        still to start), or on what the request asks of it (the seat asked for on a flight);
        applied to every record an action returns, and said anew when a record is changed."""
        return {}

    def unsampled(self, ctx: Context) -> str | None:
        """For a lookup whose record stands for many, what the answer asks when neither the
        request nor the conversation says which kind it wants ("get quotes from suppliers":
        for what?), or None to take one of them all."""
        return None

    def lacking(self, saved: Record, action: str) -> str | None:
        """Why a record the conversation holds cannot be looked at (``action`` "find"),
        changed ("update") or cancelled ("cancel") as one of this kind (what the answer says
        instead), or None when it can."""
        return None

    def as_it_stands(self, made: Record, rewritten: Mapping[str, Record]) -> Record:
        """A record this kind's agent made, once other agents wrote again the conversation
        variables it wrote with it (``rewritten``, by name): what they changed of it. By
        default nothing: the record is its own."""
        return made

    def held_answer(self, given: Record) -> str | None:
        """The answer to a question about what the conversation already holds for this kind
        of record ("Which hotel am I in?" with a trip that holds a room), which a creator
        answers instead of making one; None when it holds nothing to tell."""
        return None

    def unworkable(self, record: Record, ctx: Context, action: str) -> str | None:
        """Why a record the request names (of several by that name) is not the one a change
        means, or None when it can be: by default, what ``lacking`` says of it."""
        return self.lacking(record, action)

    def partial(self, record: Record, ctx: Context) -> str | None:
        """Why a request to cancel ``record`` asks for a part of it that is not cancelled
        alone (the room of a trip whose flight stays), as the answer says it; None when it
        asks for all of it."""
        return None

    def closed(self, saved: Record, source: str) -> str | None:
        """Why nothing of ``source`` can be made from a record the conversation holds (an
        invoice for a cancelled order, a price renegotiation from a customer's contract), as
        the answer says it; None when it can."""
        return None

    def outside(self, record: Record, kind: Mapping[str, Any]) -> str:
        """Why a record the request or the conversation points to is not of the kind an
        agent works on (``kind``: the values its own filters want), as the answer says it."""
        field, wanted = next(
            ((k, v) for k, v in kind.items() if not fits(record, {k: v})),
            next(iter(kind.items())),
        )
        said = " or ".join(wanted) if isinstance(wanted, list | tuple) else wanted
        return (
            f"{self.describe(record)} is not one to work on here: its {field} is "
            f"{record.get(field) or 'not set'}, not {said}."
        )

    def not_for(self, ctx: Context, given: Record) -> str | None:
        """Why a request is for no record of this kind at all (headsets for a customer are
        a sale, not a device for our staff), as the answer says it; None when it is.
        ``given``: what the conversation holds for the new record."""
        return None

    def differs(self, record: Record, ctx: Context) -> str | None:
        """Why a record a lookup found is not what the request says of it (a contract the
        request puts at another amount than its own), as the answer says it instead of
        working from the record as if it were; None when nothing the request states
        contradicts it."""
        return None

    def own(self, record: Record, ctx: Context) -> str | None:
        """Why a record is the user's own, for an agent that works only on other people's
        (nobody approves their own expense claim), as the answer says it; None when it is
        someone else's."""
        return None

    def unchanged(self, record: Record) -> str | None:
        """What the answer says when a request to change a record names nothing to change
        in it ("Change order ORD-000009, please"), or None where being asked is the change
        itself (a supplier's scorecard reviewed)."""
        return None

    def name_question(self) -> str | None:
        """How the answer asks for what names a new record ("its name", "where you are
        going") when a question names nothing, so that none is made up; None for records
        that may be made without one. Companies, people and campaigns are asked for."""
        if self.name_field and _NAMED_KINDS & set(self.name_kinds):
            return "its name"
        return None

    def made_already(self, made: Record) -> str:
        """What the answer says when the agent that made ``made`` in this conversation is
        asked again for the same thing, or asked about it: it is not made twice."""
        label = self.describe(made)
        said = f"{self.noun} {label}" if label != self.noun else f"a {self.noun}"
        return (
            f"This conversation already has {said}, so I did not make a second one; say what "
            "should be different to make another."
        )

    def asks_for_another(self, ctx: Context) -> bool:
        """Whether a request to the agent that made a record of this kind here says anything
        a new one would be made of; one that says nothing of the kind ("Let our customers
        know" after declaring an incident) is about the one made, not a second one."""
        return True

    def changes_made(self, made: Record, ctx: Context) -> bool:
        """Whether a follow-up to the agent that made ``made`` in this conversation changes it
        (``change``) rather than asks for another one: a booking moved ("move it to Friday"),
        an incident raised to sev1, a newsletter pushed back a day. By default: the request
        says it changes something ("…instead", "push it back", "raise it to…") and names no
        other record of this kind."""
        if not CHANGES_IT.search(ctx.stated.text):
            return False
        asked = self.asked(ctx)
        return asked is None or str(made.get(asked.field, "")).casefold() == asked.value.casefold()

    def change(self, base: Record, ctx: Context) -> Record:
        """The fields a request changes in an existing record (update): what it states, read
        against the record (a count "more" on top of it, a day of the month alone in the
        month of the day it changes), and its days moved by a shift it states ("push it back
        by a day")."""
        out = {k: v for k, v in self.stated(ctx).items() if base.get(k) != v}
        stated = ctx.stated
        more = count_more(stated.text)
        held = base.get("quantity")
        if more is not None and isinstance(held, int | float):
            # "Add two more" of 12 desks is 14 desks, and "50 more units" of 250 is 300,
            # whatever the record is: the count said is what comes on top.
            out["quantity"] = max(int(held) + more, 1)
        for name in [k for k in out if k == "date" or k.endswith("_date")]:
            meant = day_of_its_month(text_date(out[name]), stated.text, text_date(base.get(name)))
            if meant is not None:
                out[name] = meant.isoformat()
        if stated.shift_days and not (stated.start or stated.end or stated.dates):
            for name in [k for k in base if k == "date" or k.endswith("_date")]:
                target = stated.shift_target or "both"
                if (target == "start" and name.startswith("end")) or (
                    target == "end" and not name.startswith("end")
                ):
                    continue
                day = text_date(base.get(name))
                if day is not None and name not in out:
                    out[name] = (day + timedelta(days=stated.shift_days)).isoformat()
        return out

    def asked(self, ctx: Context) -> Asked | None:
        """What record the request names, if it names one."""
        stated = ctx.stated
        if self.id_prefix and self.id_field:
            ids = stated.ids_of(self.id_prefix)
            if ids:
                return Asked(self.id_field, ids[0], stated.typed_id(ids[0]))
        if self.name_field:
            # Not someone beside the record's person (a panel, a relative given as a
            # contact): "my emergency contact is my sister, Mei Ling Goh" is about me.
            beside = people_beside(stated)
            known = stated.names_of(*self.name_kinds)
            if known:
                return self._by_name(known[0].shown)
            if self.unknown_names == "people":
                # A full name is that person, known here as another kind (an employee, not a
                # candidate) or not at all: "Tiffany Martin" is not the candidate Martin
                # Schmidt. Without one, "move Lukas to sales": a first name only one has.
                # A first name alone ("a work permit for Priya") is whoever has it.
                person = first_name_match(ctx, self.source, self.name_field)
                people = [p for p in stated.people if p.shown not in beside]
                if people and not (person and " " not in people[0].shown):
                    return self._by_name(people[0].shown)
                if person:
                    return self._by_name(person)
            unknown = [n for n in self._unknown(stated) if n.shown not in beside]
            if unknown:
                return self._by_name(unknown[0].text)
        return None

    def _by_name(self, name: str) -> Asked:
        assert self.name_field is not None
        return Asked(self.name_field, name, self.by_name.format(name))

    def requester(self, ctx: Context) -> Record | None:
        """The user's own record, for sources that have one (employees)."""
        return None

    def of_the_user(self, ctx: Context) -> bool:
        """Whether a request to an agent that works on anyone's records asks about the
        user's own ("Who is my manager?" to the directory), so ``requester`` is the record."""
        return False

    @classmethod
    def none_held(cls) -> str:
        """What an answer says when the conversation holds no record of this kind and the
        request names none: how to name one (a company or a person by name, a document by
        its number)."""
        if cls.name_field == "name" or not cls.id_prefix:
            by = f"its {cls.name_field}"
        else:
            by = f"its number ({cls.id_prefix}-…)"
        return (
            f"There is none in this conversation yet; tell me {by}, or start with the "
            f"{cls.noun} itself."
        )

    def unrecorded(self, ctx: Context) -> str:
        """What an answer that found no record the request means can still say from the
        request alone (a data leak is to be notified whatever its incident number), after
        its own sentence; "" when nothing."""
        return ""

    def standing(self, record: Record) -> str:
        """How a record stands, as a question about it is answered ("Invoice INV-000318
        (Globex Corporation, 17028.52 GBP, due 2026-11-16) is overdue. Nothing was changed.")."""
        said = [str(record[k]) for k in _PARTIES if record.get(k)][:1]
        money = next((k for k in _AMOUNTS if isinstance(record.get(k), int | float)), None)
        if money:
            said.append(shown_money(float(record[money]), str(record.get("currency") or "")))
        for key, phrase in _DAYS:
            if record.get(key):
                said.append(f"{phrase} {record[key]}")
                break
        label = str(record.get(self.id_field or "") or self.describe(record))
        name = f"{self.noun.capitalize()} {label}" if label != self.noun else self.noun.capitalize()
        inside = f" ({', '.join(said)})" if said else ""
        status = f" is {record['status']}" if record.get("status") else " is on record"
        return f"{name}{inside}{status}. Nothing was changed."

    def describe(self, record: Record) -> str:
        """A short name of a record, for 'closest' lists."""
        for field in (self.name_field, self.id_field):
            if field and record.get(field):
                return str(record[field])
        return self.noun

    # --- helpers ----------------------------------------------------------------

    def named(self, stated: Stated) -> Record:
        """The record's name as the request gives it (``{name_field: name}``), or nothing: a
        known name of this source's kinds, else the first unknown one it reports."""
        assert self.name_field is not None
        names = stated.names_of(*self.name_kinds) or self._unknown(stated)
        return {self.name_field: names[0].shown} if names else {}

    def _unknown(self, stated: Stated) -> tuple[Name, ...]:
        if self.unknown_names == "organisations":
            return stated.unknown_organisations()
        if self.unknown_names == "people":
            return stated.unknown_people()
        return ()

    def new_id(self, ctx: Context) -> str:
        """An id of the source's pattern beyond the seeded records (deterministic)."""
        if not self.id_prefix:
            raise ValueError(f"{self.source} records have no id")
        size = ctx.data.size
        top = 10**self.id_digits - 1
        number = size + 1 + ctx.rng.randrange(max(1, top - size - 1))
        return f"{self.id_prefix}-{number:0{self.id_digits}d}"


class PartyRecipe(Recipe):
    """A record of a deal with another party, a customer or a supplier (a contract, an
    invoice): it is named by that party, known here or not."""

    name_kinds = ("customer", "vendor")
    unknown_names = "organisations"
    # The field that says which side of the deal the party is on, and its values when the
    # party is a supplier and when it is a customer.
    side_field: ClassVar[str]
    sides: ClassVar[tuple[str, str]]

    def name_question(self) -> str | None:
        # Asked for as the answer names it: "with {}" is "who it is with".
        return "who it is " + self.by_name.removesuffix(" {}")

    def fill_party(self, record: Record, ctx: Context) -> None:
        """The party and its side, where nothing said them: a party of the side said (a
        supplier for a supplier's side, else a customer), and the side of the party."""
        assert self.name_field is not None
        supplier_side, customer_side = self.sides
        if not record.get(self.name_field):
            source = "vendors" if record.get(self.side_field) == supplier_side else "customers"
            record[self.name_field] = ctx.pick(r["name"] for r in ctx.data.records(source))
        if not record.get(self.side_field):
            supplier = ctx.data.lookup("vendors", where={"name": record[self.name_field]})
            record[self.side_field] = supplier_side if supplier else customer_side


_CAPITALISED = re.compile(r"\b([A-Z][a-z]{2,})(?:'s)?\b")
_FIRST_NAMES: dict[tuple[int, str], dict[str, str]] = {}


def first_name_match(ctx: Context, source: str, field: str) -> str | None:
    """The full name of the record whose first name the request uses alone ("Julia's last
    day"), when a capitalised word of the request is the first name of a record."""
    key = (id(ctx.data), source)
    if key not in _FIRST_NAMES:
        table: dict[str, str] = {}
        for record in ctx.data.records(source):
            first = str(record.get(field, "")).split(" ", 1)[0]
            table.setdefault(first, str(record[field]))
        _FIRST_NAMES[key] = table
    table = _FIRST_NAMES[key]
    stated = ctx.stated
    for match in _CAPITALISED.finditer(stated.text):
        if match.start() == 0 and match.group(1) not in table:
            continue
        if any(start <= match.start() < end for start, end in stated.date_spans):
            continue  # "the course is in April": a month, not April Clay
        found = table.get(match.group(1))
        if found:
            return found
    return None


def kind_of(where: Mapping[str, Any] | None) -> Record:
    """An agent's own filters among its ``where``: the constants (``direction:
    receivable``), not templates of what the conversation holds. They say what kind of
    record it works on."""
    return {k: v for k, v in (where or {}).items() if not (isinstance(v, str) and "{" in v)}


def fits(record: Mapping[str, Any], kind: Mapping[str, Any]) -> bool:
    """Whether a record is of a kind (``{"direction": "receivable"}``; a list is any of its
    values: ``{"stage": ["offer", "hired"]}``), compared as text without case."""
    for key, wanted in kind.items():
        allowed = wanted if isinstance(wanted, list | tuple) else [wanted]
        value = str(record.get(key) or "").casefold()
        if value not in {str(a or "").casefold() for a in allowed}:
            return False
    return True


def clean(values: Mapping[str, Any] | None) -> Record:
    """The entries of a mapping that carry a value (None and "" say nothing)."""
    if not values:
        return {}
    return {k: v for k, v in values.items() if v is not None and v != "" and v != []}


# Fields that hold numbers and dates in every source; a form answers them as text.
NUMBER_FIELDS = frozenset(
    "amount cost total nightly_rate price value budget rating unit_price distance_km".split()
)
INTEGER_FIELDS = frozenset("quantity stock stars nights".split())
DATE_FIELDS = frozenset(
    "start_date end_date date due_date renewal_date check_in check_out visit_date "
    "travel_date".split()
)
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def coerce(values: Mapping[str, Any], unread: set[str] | None = None) -> Record:
    """Numbers and dates given as text become numbers and ISO dates ("230 km", "twenty");
    what cannot be read as one is left out, never stored as text, and its key added to
    ``unread`` when given (a form answer the agent cannot use: asked again, not made up)."""
    out: Record = {}
    for key, value in values.items():
        if key in NUMBER_FIELDS or key in INTEGER_FIELDS:
            if isinstance(value, str):
                found = _NUMBER.search(value)
                number = float(found.group(0).replace(",", "")) if found else parse_number(value)
                if number is None:
                    if unread is not None:
                        unread.add(key)
                    continue
                value = float(number)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            value = int(value) if key in INTEGER_FIELDS else float(value)
        elif key in DATE_FIELDS:
            day = text_date(value)
            if day is None:
                if unread is not None:
                    unread.add(key)
                continue
            value = day.isoformat()
        out[key] = value
    return out


# How an answer names a field it could not read.
_FIELD_PHRASES = {"distance_km": "the distance in kilometres"}


def unreadable(fields: set[str], values: Mapping[str, Any]) -> str:
    """What the answer says of form answers that cannot be read as what they stand for ("I
    could not read “test” as the distance in kilometres"), instead of making a value up."""
    said = "; ".join(
        f"“{values.get(field)}” as {_FIELD_PHRASES.get(field, 'the ' + field.replace('_', ' '))}"
        f" ({'a date' if field in DATE_FIELDS else 'a number'})"
        for field in sorted(fields)
    )
    return f"I could not read {said}. Say it again that way and I will go ahead."


def text_date(value: Any) -> date | None:
    """A date from an ISO text (or a date); None when it is not one."""
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


# A trailing instruction to the assistant is not part of what happened
# ("..., open an incident", "..., please log a case").
_TRAILING_ASK = re.compile(
    r"[,;:-]\s*(?:please\s+|can you\s+|could you\s+)?(?:open|log|file|create|declare|raise|"
    r"book|record|report|send|put|get|fix|escalate|register|start)\b.*$",
    re.IGNORECASE,
)


def starts_name(said: Any, name: Any) -> bool:
    """Whether ``said`` is ``name`` or its first words, as people say a name short ("Zephyr"
    for Zephyr Analytics, "Rebecca" for Rebecca Nguyen)."""
    if not isinstance(said, str) or not isinstance(name, str):
        return False
    short, whole = said.casefold().split(), name.casefold().split()
    return bool(short) and whole[: len(short)] == short


def said_together(items: Sequence[str]) -> str:
    """Items as a sentence lists them: "a", "a and b", "a, b and c" ("" for none)."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def shown_money(amount: float, currency: str) -> str:
    """An amount as answers write it ("404004.35 GBP", "84.50 EUR", "2500 EUR")."""
    shown = str(int(amount)) if float(amount).is_integer() else f"{float(amount):.2f}"
    return f"{shown} {currency}".strip()


# "Open a ticket for Hoffmann Logistics: their delivery arrived damaged": what is wrong is
# after the ask.
_LEADING_ASK = re.compile(
    r"^(?:please\s+)?(?:open|log|file|create|raise|record|declare|report|submit)\s+"
    r"(?:a|an|the)?\s*(?:[\w-]+\s+){0,3}?(?:ticket|case|incident|issue|bug|outage|problem)s?\b"
    r"[^:,;]*[:,;]\s*(?P<rest>\S.*)$",
    re.IGNORECASE,
)


def first_sentence(text: str, limit: int = 120) -> str:
    """The request as a note: its first sentence, trimmed, with a capital letter."""
    sentence = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0].strip()
    asked = _LEADING_ASK.match(sentence)
    sentence = asked.group("rest") if asked else sentence
    sentence = _TRAILING_ASK.sub("", sentence).strip() or sentence
    sentence = sentence.rstrip(".!?")
    if len(sentence) > limit:
        sentence = sentence[:limit].rsplit(" ", 1)[0]
    return sentence[:1].upper() + sentence[1:]


def keyword_choice(text: str, table: Mapping[str, tuple[str, ...]]) -> str | None:
    """The key of the first table entry one of whose words the text contains."""
    lowered = f" {text.lower()} "
    best: tuple[int, str] | None = None
    for key, words in table.items():
        for word in words:
            at = lowered.find(word)
            if at >= 0 and (best is None or at < best[0]):
                best = (at, key)
    return best[1] if best else None
