"""Mock business records (Faker, seeded) that agents look up with the `data` command.

Each source is built lazily, with its own seed derived from the account seed and the
source name, so a source's records never depend on which sources were asked for first.
Sources that refer to others (an order's customer, an asset's holder) read those
sources' records, which are themselves order-independent.

Records are flat dicts of strings, integers and floats: dates are ISO ``YYYY-MM-DD``,
amounts floats with two decimals, ids in the patterns of the naming scheme, so a record
of a source that backs an agreed variable can be stored in that variable as it is.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime, time, timedelta
from typing import Any

from faker import Faker

from agents_catalog.capabilities import SOURCE_FIELDS
from agents_catalog.capabilities import VARIABLE_SOURCES as CAPABILITY_VARIABLE_SOURCES
from mock_account.business import vocab

Record = dict[str, Any]

# The fields of each source, in record order (one table, kept with the capability content
# whose agreed variables hold these records).
FIELDS = SOURCE_FIELDS
SOURCES: tuple[str, ...] = tuple(FIELDS)

# The agreed conversation variable -> the source whose records it holds (one table, kept
# with the capability content that relies on it).
VARIABLE_SOURCES = CAPABILITY_VARIABLE_SOURCES

# The fields that name a record: a word shared with one of them counts double, so
# "order ORD-000042" finds that order rather than one whose customer is CUS-00042.
KEY_FIELDS: dict[str, frozenset[str]] = {
    source: frozenset(fields)
    for source, fields in {
        "customers": ("id", "name"),
        "orders": ("id",),
        "employees": ("id", "name"),
        "flights": ("destination",),
        "hotels": ("name", "city"),
        "invoices": ("number",),
        "expenses": ("id",),
        "tickets": ("id", "subject"),
        "incidents": ("id", "service"),
        "contracts": ("id", "counterparty"),
        "vendors": ("id", "name"),
        "campaigns": ("name",),
        "candidates": ("id", "name"),
        "products": ("sku", "name"),
        "assets": ("tag", "model"),
        "car_rentals": ("id", "city"),
    }.items()
}
KEY_FIELD_BOOST = 2.0

ANCHOR = date(vocab.ANCHOR_YEAR, vocab.ANCHOR_MONTH, vocab.ANCHOR_DAY)
MAX_LIMIT = 1000

# Words that say nothing about which record is meant.
_STOP_WORDS = frozenset(
    "a an the to for of in on at and or with my me i we our us is are be am please can could "
    "you your need want would like from this that it its by as about do does get find show "
    "look up some any what which who".split()
)
_TOKEN = re.compile(r"[a-z0-9]+")


def derive_seed(seed: int, source: str) -> int:
    """A stable 64-bit seed for one source (hashlib, so it is the same in every process)."""
    digest = hashlib.sha256(f"{seed}/{source}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def tokens(text: str) -> set[str]:
    """Lower-cased word tokens without stop words; numbers lose leading zeros (007 -> 7)."""
    found = set()
    for token in _TOKEN.findall(text.lower()):
        if token in _STOP_WORDS:
            continue
        if token.isdigit():
            token = token.lstrip("0") or "0"
        found.add(token)
    return found


def _stable_index(text: str, size: int) -> int:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % size


class _Builder:
    """Random helpers for one source: a seeded Faker and a seeded Random."""

    def __init__(self, seed: int, anchor: date = ANCHOR) -> None:
        self.fake = Faker("en_US")
        self.fake.seed_instance(seed)
        self.rng = random.Random(seed)
        self.anchor = anchor

    def pick(self, options: Sequence[Any], weights: Sequence[float] | None = None) -> Any:
        if weights is None:
            return self.rng.choice(options)
        return self.rng.choices(options, weights=weights, k=1)[0]

    def money(self, low: float, high: float) -> float:
        return round(self.rng.uniform(low, high), 2)

    def day(self, low: int, high: int) -> date:
        return self.anchor + timedelta(days=self.rng.randint(low, high))

    def unique(self, make: Callable[[], str], seen: set[str], variants: Sequence[str] = ()) -> str:
        """A value of `make` not in `seen`; once the generator runs dry, the first of its
        `variants` still free (templates of it: "Nordics {}" makes "Nordics Spring 2027 Product
        Launch"), else numbered. The generator is called as often either way, so the records
        after it stay as they were."""
        for _ in range(50):
            value = make()
            if value not in seen:
                break
        else:
            value = make()
            value = next(
                (v.format(value) for v in variants if v.format(value) not in seen),
                f"{value} {len(seen) + 1}",
            )
        seen.add(value)
        return value

    def person(self, seen: set[str]) -> tuple[str, str, str]:
        name = self.unique(lambda: f"{self.fake.first_name()} {self.fake.last_name()}", seen)
        first, _, last = name.partition(" ")
        return name, first, last

    def company(self, seen: set[str]) -> str:
        def make() -> str:
            name = f"{self.fake.last_name()} {self.pick(vocab.INDUSTRY_WORDS)}"
            return f"{name} {self.pick(vocab.LEGAL_FORMS)}" if self.rng.random() < 0.4 else name

        return self.unique(make, seen)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


class BusinessData:
    """The mock business records of one account, built lazily per source."""

    def __init__(self, seed: int = 7, size: int = 200, anchor: date | None = None) -> None:
        """``anchor``: the day the records' dates count from (trips ahead of it, expenses
        before it); the account passes its today, so the data reads right on any day."""
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        self.seed = seed
        self.size = size
        self.anchor = anchor or ANCHOR
        self._records: dict[str, list[Record]] = {}
        self._tokens: dict[str, list[dict[str, set[str]]]] = {}
        self._weights: dict[str, dict[str, dict[str, float]]] = {}
        self._building: set[str] = set()
        self._index: dict[str, dict[str, list[tuple[int, float]]]] = {}
        self._lock = threading.RLock()

    # --- public API ---------------------------------------------------------

    def records(self, source: str) -> list[Record]:
        """Copies of every record of `source`, in id order."""
        return [dict(record) for record in self._source(source)]

    def lookup(
        self,
        source: str,
        *,
        match: str | None = None,
        where: Mapping[str, Any] | None = None,
        limit: int = 1,
    ) -> list[Record]:
        """Records of `source` that satisfy `where`, best `match` first (copies).

        `where` is exact equality per field (strings compare case-insensitively). `match`
        ranks by the words it shares with the record's text fields, words that are rare
        in their field counting more; ties, and a text that shares no word, fall back to
        a pick derived from the text itself, so the same request always gets the same
        record.
        """
        records = self._source(source)
        if limit < 1 or limit > MAX_LIMIT:
            raise ValueError(f"limit must be between 1 and {MAX_LIMIT}, got {limit}")
        candidates = list(range(len(records)))
        if where:
            unknown = sorted(set(where) - set(FIELDS[source]))
            if unknown:
                raise ValueError(
                    f"unknown field '{unknown[0]}' for source '{source}'; "
                    f"fields: {', '.join(FIELDS[source])}"
                )
            matches = _matcher(where)
            candidates = [i for i in candidates if matches(records[i])]
        if match is not None and candidates:
            candidates = self._rank(source, match, candidates)
        return [dict(records[i]) for i in candidates[:limit]]

    # --- ranking --------------------------------------------------------------

    def _rank(self, source: str, match: str, candidates: list[int]) -> list[int]:
        # Rarity is measured per field: "Berlin" as a destination (few trips) outweighs
        # "Berlin" as an origin (an office many trips start from). Only records sharing a
        # word with the text get a score, through the per-source word -> records index.
        postings = self._postings(source)
        scores: dict[int, float] = {}
        for token in sorted(tokens(match)):
            for index, weight in postings.get(token, ()):
                scores[index] = scores.get(index, 0.0) + weight
        # The order is by score, best first, then the candidates' own order rotated to start
        # at ``offset``. Most candidates share no word with the text: they keep the rotated
        # order as they are, and only the few with a score are sorted (a lookup ranks up to
        # every record of its source, and sorting them all was most of its time).
        count = len(candidates)
        offset = _stable_index(match, count)
        position = {i: n for n, i in enumerate(candidates)}
        scored = [
            (-rounded, (position[i] - offset) % count, i)
            for i, score in scores.items()
            if i in position and (rounded := round(score, 9)) != 0.0
        ]
        if not scored:
            return candidates[offset:] + candidates[:offset]
        scored.sort()
        chosen = {i for _, _, i in scored}
        rotated = [i for i in candidates[offset:] + candidates[:offset] if i not in chosen]
        better = [i for key, _, i in scored if key < 0.0]
        worse = [i for key, _, i in scored if key > 0.0]
        return better + rotated + worse

    def _postings(self, source: str) -> dict[str, list[tuple[int, float]]]:
        if source not in self._index:
            weights = self._token_weights(source)
            index: dict[str, list[tuple[int, float]]] = {}
            for number, fields in enumerate(self._record_tokens(source)):
                per_token: dict[str, float] = {}
                for field, field_tokens in fields.items():
                    for token in field_tokens:
                        per_token[token] = per_token.get(token, 0.0) + weights[field][token]
                for token, weight in per_token.items():
                    index.setdefault(token, []).append((number, weight))
            self._index[source] = index
        return self._index[source]

    def _record_tokens(self, source: str) -> list[dict[str, set[str]]]:
        if source not in self._tokens:
            self._tokens[source] = [
                {f: tokens(v) for f, v in record.items() if isinstance(v, str)}
                for record in self._source(source)
            ]
        return self._tokens[source]

    def _token_weights(self, source: str) -> dict[str, dict[str, float]]:
        if source not in self._weights:
            per_record = self._record_tokens(source)
            counts: dict[str, dict[str, int]] = {}
            for fields in per_record:
                for field, field_tokens in fields.items():
                    field_counts = counts.setdefault(field, {})
                    for token in field_tokens:
                        field_counts[token] = field_counts.get(token, 0) + 1
            n = len(per_record)
            keys = KEY_FIELDS[source]
            self._weights[source] = {
                field: {
                    t: math.log(1 + n / c) * (KEY_FIELD_BOOST if field in keys else 1.0)
                    for t, c in field_counts.items()
                }
                for field, field_counts in counts.items()
            }
        return self._weights[source]

    # --- building -------------------------------------------------------------

    def _source(self, source: str) -> list[Record]:
        if source not in FIELDS:
            raise ValueError(f"unknown data source '{source}'; known sources: {', '.join(SOURCES)}")
        if source not in self._records:
            # Server threads look records up concurrently; one builds, the others wait.
            # Re-entrant because a source's builder reads the sources it refers to.
            with self._lock:
                if source not in self._records:
                    self._records[source] = self._build(source)
        return self._records[source]

    def _build(self, source: str) -> list[Record]:
        if source in self._building:
            raise RuntimeError(f"data source '{source}' refers to itself")
        self._building.add(source)
        try:
            build = getattr(self, f"_build_{source}")
            records = build(_Builder(derive_seed(self.seed, source), self.anchor))
        finally:
            self._building.discard(source)
        if self.size >= CAST_MIN_SIZE:
            _cast(source, records, self._source("products") if source == "orders" else [])
            if source == "invoices":
                # The cast's overdue invoice (INV-000318) is due in the past too.
                for record in records:
                    if (
                        record["status"] == "overdue"
                        and record["due_date"] >= self.anchor.isoformat()
                    ):
                        record["due_date"] = (self.anchor - timedelta(days=21)).isoformat()
        return [{name: record[name] for name in FIELDS[source]} for record in records]

    def _names(self, source: str, field: str = "name") -> list[str]:
        return [record[field] for record in self._source(source)]

    def _build_customers(self, b: _Builder) -> list[Record]:
        seen: set[str] = set()
        people: set[str] = set()
        out = []
        for i in range(1, self.size + 1):
            company = b.company(seen)
            contact, first, last = b.person(people)
            domain = company_domain(company)
            out.append(
                {
                    "id": f"CUS-{i:05d}",
                    "name": company,
                    "contact": contact,
                    "email": f"{_slug(first)}.{_slug(last)}@{domain}",
                    "tier": b.pick(vocab.CUSTOMER_TIERS, vocab.CUSTOMER_TIER_WEIGHTS),
                    "country": b.pick(vocab.CITIES)[1],
                }
            )
        return out

    def _build_products(self, b: _Builder) -> list[Record]:
        seen: set[str] = set()
        categories = list(vocab.PRODUCT_CATEGORIES)
        out = []
        for i in range(1, self.size + 1):
            category = b.pick(categories)
            kinds = vocab.PRODUCT_CATEGORIES[category]
            nouns = tuple(kinds)
            name = b.unique(lambda n=nouns: f"{b.pick(vocab.PRODUCT_LINES)} {b.pick(n)}", seen)
            # Priced for its kind ("Core Office Chair": a chair), the longest noun it ends in.
            kind = max((n for n in nouns if name.endswith(n)), key=len, default=nouns[0])
            low, high = kinds[kind]
            out.append(
                {
                    "sku": f"SKU-{i:05d}",
                    "name": name,
                    "category": category,
                    "price": b.money(low, high),
                    "currency": b.pick(vocab.BOOKING_CURRENCIES),
                    "stock": b.rng.choice((0, 0, *range(1, 500))),
                }
            )
        return out

    def _build_orders(self, b: _Builder) -> list[Record]:
        customers = self._names("customers", "id")
        products = self._source("products")
        out = []
        for i in range(1, self.size + 1):
            product = b.pick(products)
            quantity = b.pick((1, 1, 2, 3, 5, 10, 20, 50))
            out.append(
                {
                    "id": f"ORD-{i:06d}",
                    "customer_id": b.pick(customers),
                    "product": product["name"],
                    "quantity": quantity,
                    "total": round(product["price"] * quantity, 2),
                    "currency": product["currency"],
                    "status": b.pick(vocab.ORDER_STATUSES, vocab.ORDER_STATUS_WEIGHTS),
                }
            )
        return out

    def _build_employees(self, b: _Builder) -> list[Record]:
        seen: set[str] = set()
        departments = list(vocab.DEPARTMENTS)
        out: list[Record] = []
        heads: dict[str, str] = {}

        def add(department: str, title: str, manager: str) -> str:
            name, first, last = b.person(seen)
            out.append(
                {
                    "id": f"EMP-{len(out) + 1:05d}",
                    "name": name,
                    "email": f"{_slug(first)}.{_slug(last)}@{vocab.COMPANY_DOMAIN}",
                    "department": department,
                    "title": title,
                    "manager": manager,
                    "location": b.pick(vocab.OFFICES)[0],
                }
            )
            return name

        ceo = add("Executive", "Chief Executive Officer", "Board of Directors")
        for department in departments[: self.size - 1]:
            heads[department] = add(department, f"Head of {department}", ceo)
        while len(out) < self.size:
            department = b.pick(departments)
            add(department, b.pick(vocab.DEPARTMENTS[department]), heads[department])
        return out

    def _build_hotels(self, b: _Builder) -> list[Record]:
        seen: set[str] = set()
        # Cycle through every city before repeating one, so each city has a hotel.
        cities: list[tuple[str, str, str]] = []
        while len(cities) < self.size:
            cities.extend(b.rng.sample(vocab.CITIES, len(vocab.CITIES)))
        out = []
        for city, _country, currency in cities[: self.size]:
            name = b.unique(
                lambda c=city: f"{b.pick(vocab.HOTEL_PREFIXES)} {b.pick(vocab.HOTEL_SUFFIXES)} {c}",
                seen,
            )
            stars = b.pick((3, 3, 4, 4, 4, 5))
            out.append(
                {
                    "name": name,
                    "city": city,
                    "nightly_rate": b.money(60 + 40 * stars, 120 + 80 * stars),
                    "currency": currency if currency in vocab.BOOKING_CURRENCIES else "USD",
                    "stars": stars,
                }
            )
        return out

    def _build_car_rentals(self, b: _Builder) -> list[Record]:
        out = []
        for i in range(1, self.size + 1):
            city, _country, currency = b.pick(vocab.CITIES)
            car_class = b.pick(tuple(vocab.CAR_CLASSES))
            _, low, high = vocab.CAR_CLASSES[car_class]
            pick_up, days = b.day(3, 240), b.rng.randint(1, 7)
            currency = currency if currency in vocab.BOOKING_CURRENCIES else "USD"
            rate = b.money(low, high)
            out.append(
                {
                    "id": f"CAR-{i:05d}",
                    "city": city,
                    "pick_up": pick_up.isoformat(),
                    "drop_off": (pick_up + timedelta(days=days)).isoformat(),
                    "car_class": car_class,
                    "company": b.pick(vocab.CAR_RENTAL_COMPANIES),
                    "daily_rate": rate,
                    "currency": currency,
                    "days": days,
                    "total": round(rate * days, 2),
                    "status": "reserved",
                }
            )
        return out

    def _build_flights(self, b: _Builder) -> list[Record]:
        hotels: dict[str, list[str]] = {}
        for hotel in self._source("hotels"):
            hotels.setdefault(hotel["city"], []).append(hotel["name"])
        out = []
        for _ in range(self.size):
            origin, currency = b.pick(vocab.OFFICES)
            destination = b.pick([c for c in vocab.CITIES if c[0] != origin])[0]
            start = b.day(3, 240)
            hotel_choices = hotels.get(destination) or [f"Central Hotel {destination}"]
            out.append(
                {
                    "destination": destination,
                    "origin": origin,
                    "start_date": start.isoformat(),
                    "end_date": (start + timedelta(days=b.rng.randint(1, 7))).isoformat(),
                    "purpose": b.pick(vocab.TRIP_PURPOSES),
                    "flight": f"{b.pick(vocab.AIRLINES)} {b.rng.randint(100, 9899)}",
                    "hotel": b.pick(hotel_choices),
                    "cost": b.money(240, 3900),
                    "currency": currency if currency in vocab.BOOKING_CURRENCIES else "USD",
                    "status": "booked",
                }
            )
        return [_by_flight(trip) for trip in out]

    def _build_invoices(self, b: _Builder) -> list[Record]:
        suppliers = self._names("vendors")
        parties = self._names("customers") + suppliers
        out = []
        for i in range(1, self.size + 1):
            status = b.pick(vocab.INVOICE_STATUSES, vocab.INVOICE_STATUS_WEIGHTS)
            # An overdue invoice is due in the past; a draft or sent one mostly later.
            due = b.day(-75, -1) if status == "overdue" else b.day(-45, 60)
            party = b.pick(parties)
            out.append(
                {
                    "number": f"INV-{i:06d}",
                    "amount": b.money(150, 48000),
                    "currency": b.pick(vocab.BOOKING_CURRENCIES),
                    "due_date": due.isoformat(),
                    "status": status,
                    "party": party,
                    # A supplier's invoice is a bill to us; a customer's, one we issued.
                    "direction": "payable" if party in suppliers else "receivable",
                }
            )
        return out

    def _build_expenses(self, b: _Builder) -> list[Record]:
        companies = self._names("customers")
        staff = self._names("employees")
        out = []
        for i in range(1, self.size + 1):
            category = b.pick(list(vocab.EXPENSE_CATEGORIES))
            low, high, notes = vocab.EXPENSE_CATEGORIES[category]
            note = b.pick(notes).format(city=b.pick(vocab.CITIES)[0], company=b.pick(companies))
            out.append(
                {
                    "id": f"EXP-{i:05d}",
                    "category": category,
                    "amount": b.money(low, high),
                    "currency": b.pick(vocab.BOOKING_CURRENCIES),
                    "date": b.day(-120, 0).isoformat(),
                    "note": note,
                    # Spread over the staff without a draw, so the other fields stay as seeded.
                    "employee": staff[(i * 7) % len(staff)],
                }
            )
        return out

    def _build_tickets(self, b: _Builder) -> list[Record]:
        customers = self._names("customers", "id")
        staff = [
            e["name"] for e in self._source("employees") if e["department"] in ("Support", "IT")
        ] or self._names("employees")
        out = []
        for i in range(1, self.size + 1):
            out.append(
                {
                    "id": f"TCK-{i:06d}",
                    "subject": b.pick(vocab.TICKET_SUBJECTS),
                    "priority": b.pick(vocab.TICKET_PRIORITIES, vocab.TICKET_PRIORITY_WEIGHTS),
                    "status": b.pick(vocab.TICKET_STATUSES, vocab.TICKET_STATUS_WEIGHTS),
                    "customer_id": b.pick(customers),
                    "assignee": b.pick(staff),
                }
            )
        return out

    def _build_incidents(self, b: _Builder) -> list[Record]:
        out = []
        for i in range(1, self.size + 1):
            service = b.pick(vocab.SERVICES)
            started = datetime.combine(
                b.day(-60, 0), time(b.rng.randint(0, 23), b.rng.randrange(0, 60, 5))
            )
            out.append(
                {
                    "id": f"INC-{i:05d}",
                    "service": service,
                    "severity": b.pick(vocab.INCIDENT_SEVERITIES, vocab.INCIDENT_SEVERITY_WEIGHTS),
                    "status": b.pick(vocab.INCIDENT_STATUSES, vocab.INCIDENT_STATUS_WEIGHTS),
                    "summary": b.pick(vocab.INCIDENT_SYMPTOMS).format(service=service),
                    "started_at": started.isoformat(timespec="minutes") + "Z",
                }
            )
        return out

    def _build_contracts(self, b: _Builder) -> list[Record]:
        suppliers = self._names("vendors")
        parties = self._names("customers") + suppliers
        out = []
        for i in range(1, self.size + 1):
            kind = b.pick(vocab.CONTRACT_KINDS)
            party = b.pick(parties)
            out.append(
                {
                    "id": f"CTR-{i:05d}",
                    "counterparty": party,
                    "party_type": "supplier" if party in suppliers else "customer",
                    "kind": kind,
                    "value": 0.0 if kind == "nda" else b.money(2000, 750000),
                    "currency": b.pick(vocab.BOOKING_CURRENCIES),
                    "renewal_date": b.day(15, 720).isoformat(),
                    # One in eight is still being negotiated; chosen without a draw, so the
                    # other fields stay as seeded.
                    "status": "draft" if i % 8 == 1 and i > 1 else "signed",
                }
            )
        return out

    def _build_vendors(self, b: _Builder) -> list[Record]:
        seen: set[str] = set()
        out = []
        for i in range(1, self.size + 1):
            out.append(
                {
                    "id": f"VEN-{i:04d}",
                    "name": b.company(seen),
                    "category": b.pick(vocab.VENDOR_CATEGORIES),
                    "country": b.pick(vocab.CITIES)[1],
                    "rating": round(b.rng.uniform(2.0, 5.0), 1),
                }
            )
        return out

    def _build_campaigns(self, b: _Builder) -> list[Record]:
        seen: set[str] = set()
        out = []
        for _ in range(self.size):
            start = b.day(-90, 180)
            season = vocab.CAMPAIGN_SEASONS[((start.month - 3) % 12) // 3]
            name = b.unique(
                lambda s=season, y=start.year: f"{s} {y} {b.pick(vocab.CAMPAIGN_THEMES)}",
                seen,
                _rotated([f"{market} {{}}" for market in vocab.CAMPAIGN_MARKETS], len(out)),
            )
            out.append(
                {
                    "name": name,
                    "channel": b.pick(vocab.CAMPAIGN_CHANNELS),
                    "budget": b.money(2000, 250000),
                    "currency": b.pick(vocab.BOOKING_CURRENCIES),
                    "start_date": start.isoformat(),
                    "audience": b.pick(vocab.CAMPAIGN_AUDIENCES),
                }
            )
        return out

    def _build_candidates(self, b: _Builder) -> list[Record]:
        seen: set[str] = set()
        out = []
        for i in range(1, self.size + 1):
            name, first, last = b.person(seen)
            out.append(
                {
                    "id": f"CAN-{i:05d}",
                    "name": name,
                    "role": b.pick(vocab.CANDIDATE_ROLES),
                    "stage": b.pick(vocab.CANDIDATE_STAGES, vocab.CANDIDATE_STAGE_WEIGHTS),
                    "email": f"{_slug(first)}.{_slug(last)}@{b.fake.free_email_domain()}",
                }
            )
        return out

    def _build_assets(self, b: _Builder) -> list[Record]:
        employees = self._names("employees")
        out = []
        for i in range(1, self.size + 1):
            kind = b.pick(list(vocab.ASSET_MODELS))
            status = b.pick(vocab.ASSET_STATUSES, vocab.ASSET_STATUS_WEIGHTS)
            holder = b.pick(employees) if status in ("in use", "in repair") else "IT storeroom"
            out.append(
                {
                    "tag": f"AST-{i:05d}",
                    "kind": kind,
                    "model": b.pick(vocab.ASSET_MODELS[kind]),
                    "assigned_to": holder,
                    "status": status,
                }
            )
        return out


# Below this size (unit tests of the generator) the data is all generated, cast included.
CAST_MIN_SIZE = 60
_ID_FIELDS = {"customers": "id", "orders": "id", "invoices": "number", "tickets": "id",
              "incidents": "id"}  # fmt: skip


def person_email(name: str, domain: str) -> str:
    """A person's work address at ``domain`` ("Jane Doe": jane.doe@, "Sofia": sofia@)."""
    first, _, last = name.partition(" ")
    return f"{_slug(first)}.{_slug(last)}@{domain}" if last else f"{_slug(first)}@{domain}"


def company_domain(company: str) -> str:
    """The mail domain of a company of the data: its first word (Hoffmann Logistics:
    hoffmann.com)."""
    return _slug(company.split()[0]) + ".com"


def _cast(source: str, records: list[Record], products: Sequence[Record] = ()) -> None:
    """Give the account's cast (``vocab.*_CAST``) their places among generated records."""
    if source == "customers":
        for record, (name, country) in zip(records, vocab.CUSTOMER_CAST, strict=False):
            record.update(name=name, country=country)
            record["email"] = person_email(record["contact"], company_domain(name))
    elif source == "vendors":
        for record, (name, country, category) in zip(records, vocab.VENDOR_CAST, strict=False):
            record.update(name=name, country=country, category=category)
    elif source == "employees":
        heads = {r["department"]: r["name"] for r in records if r["title"].startswith("Head of")}
        start = len(heads) + 1
        for record, cast in zip(records[start:], vocab.EMPLOYEE_CAST, strict=False):
            name, department, title, location = cast
            record.update(name=name, department=department, title=title, location=location)
            record["manager"] = heads.get(department, record["manager"])
            record["email"] = person_email(name, vocab.COMPANY_DOMAIN)
    elif source == "candidates":
        for record, (name, role) in zip(records, vocab.CANDIDATE_CAST, strict=False):
            record.update(name=name, role=role, email=person_email(name, "mail.example"))
    elif source == "products":
        for record, (name, category, price) in zip(records, vocab.PRODUCT_CAST, strict=False):
            record.update(name=name, category=category, price=price, currency="USD")
    # The cast's companies have business with us: an order, a bill, a contract and a case
    # each, so "cancel Kestrel's order" or "our contract with Contoso" find one.
    customers = [f"CUS-{n:05d}" for n in range(1, len(vocab.CUSTOMER_CAST) + 1)]
    names = [name for name, _ in vocab.CUSTOMER_CAST] + [name for name, *_ in vocab.VENDOR_CAST]
    suppliers = {name for name, *_ in vocab.VENDOR_CAST}
    if source == "orders":
        # Open orders of office furniture, the story of the examples ("10 more desks").
        desk = next((p for p in products if "Standing Desk" in p["name"]), None)
        for record, customer in zip(records, customers, strict=False):
            record.update(customer_id=customer, status="placed")
            if desk is not None:
                record.update(
                    product=desk["name"],
                    quantity=40,
                    total=round(desk["price"] * 40, 2),
                    currency=desk["currency"],
                )
    elif source == "tickets":
        for record, customer in zip(records, customers, strict=False):
            record.update(customer_id=customer, status="open")
    elif source == "invoices":
        for record, name in zip(records, names, strict=False):
            record.update(party=name, direction="payable" if name in suppliers else "receivable")
    elif source == "contracts":
        for number, (record, name) in enumerate(zip(records, names, strict=False)):
            record.update(
                counterparty=name,
                kind=("msa", "license", "sow")[number % 3],
                party_type="supplier" if name in suppliers else "customer",
            )
    field = _ID_FIELDS.get(source)
    for offset, (wanted, fields) in enumerate(vocab.ID_CAST.get(source, ()), start=1):
        record = records[-offset]
        record[field] = wanted
        if source == "orders" and "quantity" in fields:
            unit = record["total"] / record["quantity"]
            record["total"] = round(unit * int(fields["quantity"]), 2)  # type: ignore[call-overload]
        record.update(fields)


def _matcher(where: Mapping[str, Any]) -> Callable[[Mapping[str, Any]], bool]:
    """``where`` as a test of one record. Each wanted value's text is folded once per lookup
    rather than once per record: a lookup tests every record of its source."""
    checks = [
        (field, wanted, isinstance(wanted, str), _as_text(wanted).casefold())
        for field, wanted in where.items()
        if not isinstance(wanted, list | tuple)
    ]
    # A list is any of its values ("stage": ["offer", "hired"]).
    choices = [
        (field, {_as_text(w).casefold() for w in wanted})
        for field, wanted in where.items()
        if isinstance(wanted, list | tuple)
    ]

    def matches(record: Mapping[str, Any]) -> bool:
        for field, allowed in choices:
            if _as_text(record.get(field)).casefold() not in allowed:
                return False
        for field, wanted, wanted_text, folded in checks:
            value = record.get(field)
            if wanted_text or isinstance(value, str):
                # Templates render values as text, so "3" must find quantity 3.
                text = value if type(value) is str else _as_text(value)
                if text.casefold() != folded:
                    return False
            elif value != wanted:
                return False
        return True

    return matches


def _as_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else str(value)
    return str(value)


def _rotated(items: Sequence[str], start: int) -> list[str]:
    """`items` from the one at `start` (modulo their count) round to the one before it."""
    k = start % len(items)
    return [*items[k:], *items[:k]]


def _by_flight(trip: Record) -> Record:
    """A trip of the data in record order, as one by air (added after the draws, so the rest of
    the data stays as it was)."""
    trip.update(mode="flight", train="", transport=f"flight {trip['flight']}")
    return {field: trip[field] for field in FIELDS["flights"]}
