"""Trips (the ``flights`` source, held in ``conv.trip``), hotel stays and rental cars."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from mock_account.business.vocab import (
    AIRLINES,
    CAR_CLASSES,
    CAR_RENTAL_COMPANIES,
    HOTEL_PREFIXES,
    HOTEL_SUFFIXES,
    TRAIN_SERVICES,
    TRIP_PURPOSES,
)
from mock_account.understanding.lexicon import FUNCTION_WORDS

from ..recipe import (
    USD_PER_UNIT,
    Asked,
    Context,
    Recipe,
    Record,
    said_together,
    shown_money,
    text_date,
)
from ..stated import Place, Stated

# Words of a request that name the purpose of a trip, longest first.
_PURPOSE_WORDS: dict[str, tuple[str, ...]] = {
    **{purpose: (purpose,) for purpose in TRIP_PURPOSES},
    "client meeting": ("client meeting", "meeting with a client", "client visit", "meet a client"),
    "customer workshop": ("customer workshop", "client workshop", "workshop"),
    "customer summit": ("customer summit", "client summit"),
    "sales conference": ("sales conference", "conference", "summit", "congress"),
    "trade fair": ("trade fair", "trade show", "expo", "exhibition"),
    "site inspection": ("site visit", "site inspection", "plant visit", "factory visit"),
    "partner visit": ("partner visit", "partner meeting"),
    "team offsite": ("offsite", "off-site", "team event"),
    "training course": ("training", "course"),
    "board meeting": ("board meeting",),
    "project kickoff": ("kickoff", "kick-off"),
}
# A request to cancel that names the room ("cancel the hotel") and one that names more.
_STAY_SAID = re.compile(r"\b(?:hotel|room|stay|accommodation|lodging)\b", re.IGNORECASE)
_WHOLE_SAID = re.compile(
    r"\b(?:trip|travel|journey|flights?|trains?|everything|booking|whole|all|visit)\b",
    re.IGNORECASE,
)
_NEXT_DEPARTURE = (" next one", "next flight", "next available", "as soon as possible", " asap")
# Phrases that say the return is what changes ("come back on Friday").
_END_WORDS = (" back ", " return", " home ", " extend", " stay ", " longer", " later back")
# Words that make the one day said the whole of it ("make it the Friday only").
_ALONE_WORDS = (" only ", " only.", " just ")
_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b")


def _purpose(text: str) -> str | None:
    """The reason for a trip as the request says it ("a partner workshop", "the customer
    summit"): the words of a purpose with the word that qualifies it, else None."""
    lowered = text.lower()
    best: tuple[int, int, str] | None = None
    for purpose, words in _PURPOSE_WORDS.items():
        for word in words:
            at = lowered.find(word)
            if at >= 0:
                key = (at, -len(word), purpose)
                if best is None or key < best:
                    best = key
    if best is None:
        return None
    at, length, purpose = best[0], -best[1], best[2]
    said = lowered[at : at + length]
    before = re.search(r"([a-z][a-z-]+)\s+$", lowered[:at])
    if before and before.group(1) not in FUNCTION_WORDS and before.group(1) not in said:
        # "a partner workshop" is no customer workshop: the qualifier said is kept.
        said = f"{before.group(1)} {said}"
    return said if said != purpose.split()[-1] else purpose


def _hotel_in(city: str, ctx: Context, stars: int | None = None) -> dict[str, Any]:
    """A hotel of the data in `city` (of `stars` when asked), else a plausible new one."""
    found = [h for h in ctx.data.records("hotels") if h["city"].casefold() == city.casefold()]
    if stars is not None:
        found = [h for h in found if h["stars"] == stars] or found
    if found:
        return dict(ctx.pick(found))
    stars = stars or ctx.pick((3, 4, 4, 4, 5))
    currency = ctx.places.currency_of(city)
    return {
        "name": f"{ctx.pick(HOTEL_PREFIXES)} {ctx.pick(HOTEL_SUFFIXES)} {city}",
        "city": city,
        "stars": stars,
        "currency": currency,
        "nightly_rate": ctx.price(60 + 40 * stars, 120 + 80 * stars, currency),
    }


# A range that says when, not how long ("in September", "next quarter"): the trip is a
# few days inside it.
_LOOSE_SPANS = ("month", "quarter", "year")


def _travelling_instead(ctx: Context) -> str | None:
    """The person a request books travel for when it is not the user: "a flight to Tokyo for
    Anna Schmidt", "Book Anna Schmidt a flight" (not "a meeting with Anna Schmidt")."""
    stated = ctx.stated
    if stated.speaks_of_self:
        return None
    for person in stated.people:
        said = re.escape(person.text)
        if re.search(rf"\b(?:for|book)\s+{said}\b", stated.text, re.IGNORECASE):
            return person.shown
    return None


def _stated_dates(ctx: Context) -> tuple[Any, Any]:
    stated = ctx.stated
    start, end = stated.start, stated.end
    if start is not None and end is not None and stated.span in _LOOSE_SPANS:
        room = max(0, (end - start).days - 3)
        start = start + timedelta(days=ctx.rng.randint(0, room))
        end = start + timedelta(days=stated.nights or ctx.rng.randint(1, 3))
    if start is None and stated.dates:
        start = stated.dates[0]
        if len(stated.dates) > 1 and stated.dates[1] > start:
            end = stated.dates[1]
    if start is not None and stated.nights:
        # "2 nights in Paris next week": two nights from the week's start, not the week.
        counted = start + timedelta(days=stated.nights)
        if end is None or counted < end:
            end = counted
    if start is not None and end is not None and end < start:
        end = None
    return start, end


# Cabins a request may ask for (best first), and what they cost next to economy.
_CABINS: dict[str, tuple[str, ...]] = {
    "first class": ("first class",),
    "business class": ("business class", "fly business", "in business"),
    "premium economy": ("premium economy",),
}
_CABIN_FARES = {"premium economy": 1.7, "business class": 3.2, "first class": 5.0}
# The travel policy (CheckTravelPolicy): business class on flights over 8 hours, premium
# economy from 5, never first; a flight's hours are its kilometres at 800 km/h, plus half an
# hour.
_CABIN_FROM_HOURS = {"business class": 8.0, "premium economy": 5.0}


def _cabin(asked: str, km: float) -> tuple[str, str]:
    """The cabin booked for the one asked (it, or the best the policy allows for a flight
    that long) and what the answer says of it: " in business class", or " in economy
    (business class is for flights over 8 hours; this one takes about 3)"."""
    hours = km / 800 + 0.5
    allowed = next(
        (
            c
            for c in list(_CABINS)[list(_CABINS).index(asked) :]
            if hours > _CABIN_FROM_HOURS.get(c, 99)
        ),
        "economy",
    )
    if allowed == asked:
        return allowed, f" in {allowed}"
    rule = (
        "first class is not in our travel policy"
        if asked == "first class"
        else f"{asked} is for flights over {_CABIN_FROM_HOURS[asked]:g} hours; this one takes "
        f"about {hours:.0f}"
    )
    return allowed, f" in {allowed} ({rule})"


# How far a train goes for a business trip (Madrid-Paris is some 1,050 km).
_TRAIN_KM = 1500


def _booked_on(record: Record, ctx: Context) -> Record:
    """A new flight, or train for a trip by train, and how answers name it ("flight KL 7911",
    "train IC 578"): a trip by train has no flight to show, track or lose luggage on."""
    if record.get("mode") == "train":
        booked: Record = {
            "train": f"{ctx.pick(TRAIN_SERVICES)} {ctx.rng.randint(100, 999)}",
            "flight": "",
        }
    else:
        booked = {"flight": f"{ctx.pick(AIRLINES)} {ctx.rng.randint(100, 9899)}", "train": ""}
    return {**booked, "transport": _transport({**record, **booked})}


# A seat or an upgrade asked for on a flight.
_SEAT_SAID = re.compile(
    r"\b(?P<seat>aisle|window|middle|exit[- ]row|bulkhead)\b|\bextra\s+leg\s?room\b|"
    r"\bupgrade\s+to\s+(?P<cabin>premium\s+economy|business(?:\s+class)?)\b",
    re.IGNORECASE,
)


def _seat(said: re.Match[str]) -> str:
    """The seat a request asks for, as an answer says it ("an aisle seat")."""
    if said.group("cabin"):
        return f"an upgrade to {' '.join(said.group('cabin').lower().split())}"
    seat = said.group("seat")
    if seat is None:
        return "a seat with extra legroom"
    kind = seat.lower().replace("-", " ")
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} seat"


def _transport(trip: Record) -> str:
    """How an answer names what a trip goes by: "train IC 578", "flight KL 7911" ("" for a
    trip with neither, saved from a hotel stay). Saved trips of before the train had no mode:
    a flight."""
    if trip.get("mode") == "train" and trip.get("train"):
        return f"train {trip['train']}"
    return f"flight {trip['flight']}" if trip.get("flight") else ""


def _car(trip: Record) -> str:
    """The rental car a car reservation saved on a trip, as an answer names it ("the compact
    car from Europcar (CAR-48128)"), or ""."""
    if not trip.get("car"):
        return ""
    kind = " ".join(filter(None, (str(trip.get("car_class") or ""), "car")))
    company = f" from {trip['car_company']}" if trip.get("car_company") else ""
    return f"the {kind}{company} ({trip['car']})"


def _car_cost(trip: Record) -> str:
    """What the rental car on a trip costs in all ("225.96 EUR"), or ""."""
    total, currency = trip.get("car_total"), trip.get("car_currency")
    return shown_money(total, currency) if isinstance(total, int | float) and currency else ""


def _parts(trip: Record) -> str:
    """What a trip has, as "its flight, stay and rental car" says it."""
    transport = _transport(trip).split(" ")[0]  # "flight", "train" or ""
    stay = "stay" if trip.get("hotel") else ""
    car = "rental car" if trip.get("car") else ""
    parts = [part for part in (transport, stay, car) if part]
    return f"its {said_together(parts)}" if parts else "its bookings"


class Trips(Recipe):
    source = "flights"
    noun = "trip"
    name_field = "destination"
    about_fields = ("destination",)
    # A trip nobody said the destination of, with none here, is asked for: "Move it to
    # Tuesday" after a refused booking booked a flight to London.
    named_only = True

    def name_question(self) -> str | None:
        return "where you are going"

    def not_the_users(self, ctx: Context) -> str | None:
        # The user's own trip is not booked for a colleague the request says it is for.
        other = _travelling_instead(ctx)
        if other is None:
            return None
        return (
            f"{other} is the one travelling, and I book your own trips; ask to book travel "
            f'for a colleague instead ("Book travel for {other} …").'
        )

    def not_for(self, ctx: Context, given: Record) -> str | None:
        # A colleague based where the trip goes needs no flight there: "Book her a flight to
        # our Singapore office" for a new hire in Singapore booked Singapore to Singapore.
        destination = ctx.stated.destination
        home, who = str(given.get("origin") or ""), given.get("traveller")
        if who and destination is not None and home.casefold() == destination.name.casefold():
            return (
                f"{who} is based in {home}, where the trip goes, so there is no flight to book. "
                f"Tell me where {who} travels from, or where else to go."
            )
        # A flight to the user's own office from nowhere said was booked from another office
        # named as "your home office" ("Book me a flight back to Singapore" after a trip).
        office = ctx.home_office()[0]
        if (
            not who
            and destination is not None
            and ctx.stated.origin is None
            and destination.name.casefold() == office.casefold()
        ):
            away = str(given.get("destination") or "")
            if away and away.casefold() != office.casefold():
                return (
                    f"{office} is your home office, and your trip to {away} already brings you "
                    'back, so I booked nothing: to come back on another day, say "Move the '
                    'trip return to …".'
                )
            return (
                f"{office} is your home office, so I booked nothing: tell me where you fly "
                f'from ("… from Berlin to {office}").'
            )
        # A train goes between nearby cities: none is booked from Singapore to Paris, nor to
        # a city picked at random that might be as far.
        if given.get("mode") != "train":
            return None
        if destination is None:
            if given.get("destination"):
                return None
            return (
                "Where are you going? Tell me the city and the day, and I'll book the train; I "
                "won't pick a destination for you."
            )
        origin = ctx.stated.origin
        leaving = origin.name if origin is not None else ctx.home_office()[0]
        km = ctx.places.distance_km(leaving, destination.name)
        if km is None or km <= _TRAIN_KM:
            return None
        said = leaving if origin is not None else f"{leaving}, your home office,"
        return (
            f"{said} is {km:,.0f} km from {destination.name}: too far for a train. Tell me the "
            f"station you leave from, or book a flight to {destination.name} instead."
        )

    def asked(self, ctx: Context) -> Asked | None:
        place = ctx.stated.destination
        if place is not None:
            return Asked("destination", place.name, f"to {place.name}")
        return None

    def describe(self, record: Record) -> str:
        return f"{record['destination']} ({record['start_date']} to {record['end_date']})"

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        transport = _transport(record)
        stay = f"the stay at {record['hotel']}" if record.get("hotel") else ""
        room = _room(record)
        car, car_cost = _car(record), _car_cost(record)
        seat = _SEAT_SAID.search(stated.text)
        return {
            "transport": transport,
            "bookings": said_together([b for b in (transport, stay, car) if b]),
            # Saved before cabins were asked for, or none asked: nothing is said of it.
            "in_cabin": "",
            # What the room costs, when a hotel booking saved it ("What's the total cost?").
            "room_cost": f"; the room is {room}" if room else "",
            # And the rental car ("What will the whole trip cost?" left it out).
            "car_cost": f"; {car} is {car_cost} in all" if car and car_cost else "",
            "room_days": _room_days(record),
            # "Change my seat to an aisle": the seat request sent said nothing of the aisle.
            "seat_asked": f"your request for {_seat(seat)}" if seat else "your seat request",
        }

    def partial(self, record: Record, ctx: Context) -> str | None:
        # "Cancel the hotel" names the room alone; the flight that goes with it is kept, and
        # a trip is cancelled whole here, so nothing is.
        text = ctx.stated.text
        transport = _transport(record)
        if not (transport and record.get("hotel")) or not _STAY_SAID.search(text):
            return None
        if _WHOLE_SAID.search(text):
            return None
        return (
            f"Your room at {record['hotel']} goes with {transport} on your trip to "
            f"{self.describe(record)}, and I cancel a trip whole, so I cancelled nothing: say "
            '"cancel the whole trip" to cancel the flight and the room together.'
        )

    def made_already(self, made: Record) -> str:
        transport = made.get("transport") or _transport(made)
        flight = f" on {transport}" if transport else ""
        return (
            f"Your trip to {self.describe(made)} is already booked{flight} in this "
            "conversation, so I did not book it twice; say what should change (the dates, the "
            "destination) to book another."
        )

    def closed(self, saved: Record, source: str) -> str | None:
        # Nothing is claimed for, reserved for or prepared for a trip that will not happen;
        # a new flight or stay there is a new trip (its agents write the trip back).
        if saved.get("status") != "cancelled" or not saved.get("destination"):
            return None
        return (
            f"Your trip to {self.describe(saved)} is cancelled, with {_parts(saved)}; "
            "there is nothing of it to claim or arrange any more. Ask for a new flight to go "
            "after all."
        )

    def outside(self, record: Record, kind: Mapping[str, Any]) -> str:
        # A trip by train has no flight to track, choose a seat on or rebook.
        if kind.get("mode") == "flight" and record.get("mode") == "train":
            return (
                f"Your trip to {self.describe(record)} is by {_transport(record) or 'train'}:"
                " there is no flight on it. Ask for a flight to go by air instead."
            )
        return super().outside(record, kind)

    def lacking(self, saved: Record, action: str) -> str | None:
        # A cancelled trip has nothing left to show, move or cancel; showing its flight as
        # "your next trip" would contradict the cancellation.
        if saved.get("status") == "cancelled" and saved.get("destination"):
            return (
                f"Your trip to {self.describe(saved)} is cancelled, with {_parts(saved)}; "
                "nothing of it is booked any more. Ask for a new flight to go after all."
            )
        # A trip saved from a hotel stay: nothing was flown or booked to show, track or move,
        # and inventing a flight would contradict the booking; the stay itself is cancelled.
        if _transport(saved) or not saved.get("destination"):
            return None
        if action == "cancel" and saved.get("hotel"):
            return None
        room = f" ({_room(saved)})" if _room(saved) else ""
        stay = f"; you have a room at {saved['hotel']}{room}" if saved.get("hotel") else ""
        cost = f", {_car_cost(saved)} in all" if _car_cost(saved) else ""
        car = f"; you have {_car(saved)}{cost}" if _car(saved) else ""
        return f"No flight is booked yet for your trip to {self.describe(saved)}{stay}{car}."

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        destination, origin = stated.destination, stated.origin
        if destination is not None:
            out["destination"] = destination.name
        if origin is not None and (destination is None or origin.name != destination.name):
            out["origin"] = origin.name
        start, end = _stated_dates(ctx)
        if start is not None:
            out["start_date"] = start.isoformat()
        if end is not None:
            out["end_date"] = end.isoformat()
        _price_said(out, stated, "cost")
        purpose = _purpose(stated.text)
        if purpose:
            out["purpose"] = purpose
        cabin = next((c for c, words in _CABINS.items() if stated.mentions(*words)), None)
        if cabin:
            out["cabin_asked"] = cabin
        return out

    def fill(self, record: Record, ctx: Context) -> None:
        office, office_currency = ctx.home_office()
        # An origin nobody stated is the user's office, and the answer says so.
        record.setdefault("leaving_from", record["origin"] if record.get("origin") else "")
        if not record.get("origin"):
            if record.get("destination", "").casefold() == office.casefold():
                office, office_currency = next(
                    o for o in ctx.places.offices if o[0].casefold() != office.casefold()
                )
            record["origin"] = office
            record["leaving_from"] = f"{office} (your home office)"
        if not record.get("destination"):
            record["destination"] = ctx.pick(
                c[0] for c in ctx.places.offices if c[0] != record["origin"]
            )
        start, end = text_date(record.get("start_date")), text_date(record.get("end_date"))
        if start is None:
            start = end - timedelta(days=2) if end else ctx.day_after_today(7, 21)
        if end is None or end < start:
            end = start + timedelta(days=ctx.stated.nights or ctx.rng.randint(1, 3))
            if not ctx.stated.nights and end.weekday() >= 5:
                # A return nobody said comes back on a working day: a Friday flight "and a car
                # for the weekend" came back on the Saturday, before the car was returned.
                end += timedelta(days=7 - end.weekday())
        record["start_date"], record["end_date"] = start.isoformat(), end.isoformat()
        if not record.get("currency"):
            offices = dict(ctx.places.offices)
            record["currency"] = offices.get(record["origin"]) or ctx.places.currency_of(
                record["origin"], office_currency
            )
        km = ctx.places.distance_km(record["origin"], record["destination"]) or 1500.0
        if record.get("cabin_asked") and not record.get("cabin"):
            record["cabin"], record["in_cabin"] = _cabin(record["cabin_asked"], km)
        if record.get("cost") is None:
            fare = (140 + 0.12 * km) * _CABIN_FARES.get(record.get("cabin", ""), 1.0)
            price = ctx.price(fare * 0.85, fare * 1.2, record["currency"])
            record["cost"] = _within(price, record["currency"], ctx)
        if record.get("status") != "cancelled":
            # Nothing is booked for a trip being cancelled (a stay alone has no flight).
            record["mode"] = record.get("mode") or "flight"
            if not record.get(record["mode"]):
                record.update(_booked_on(record, ctx))
        record["transport"] = _transport(record)
        if not record.get("hotel"):
            record["hotel"] = _hotel_in(record["destination"], ctx)["name"]
        record.setdefault("purpose", ctx.pick(TRIP_PURPOSES))
        record.setdefault("status", "booked")

    def changes_made(self, made: Record, ctx: Context) -> bool:
        return ctx.stated.moves

    def change(self, base: Record, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        destination = stated.destination
        if (
            destination is not None
            and destination.name.casefold() != str(base.get("destination", "")).casefold()
            and destination.role == "destination"
        ):
            out["destination"] = destination.name
            out["hotel"] = _hotel_in(destination.name, ctx)["name"]
        out.update(moved_days(base, ctx, "start_date", "end_date"))
        out.update(_room_moved(base, out))
        if ("start_date" in out or "end_date" in out) and not stated.amount:
            # New dates mean a new flight (or train); the fare stays, a difference is reported
            # apart.
            out.update(_booked_on(base, ctx))
        if stated.amount is not None:
            out["cost"], out["currency"] = stated.amount.amount, stated.amount.currency
        return {k: v for k, v in out.items() if base.get(k) != v}


def moved_days(
    base: Record,
    ctx: Context,
    first: str,
    last: str,
    unknown_length: timedelta = timedelta(days=2),
    one_day: timedelta | None = None,
) -> Record:
    """The new first and last day of a booking (a trip, a stay, a car) that a request moves:
    a new first day keeps its length ("move it to Friday"), unless the request says the end
    is what changes ("come back on Friday"); a shift moves what it says ("two days later");
    nights added go on the end ("stay two nights longer"); "the next one" leaves tomorrow.
    ``unknown_length``: how long a booking without a last day is taken to be; ``one_day``: how
    long one of a single day is, for bookings that can be ("make it the Friday only" after two
    days off is that Friday, not two days from it)."""
    stated = ctx.stated
    old_start, old_end = text_date(base.get(first)), text_date(base.get(last))
    length = (old_end - old_start) if old_start and old_end else unknown_length
    start, end = _stated_dates(ctx)
    lowered = f" {stated.text.lower()} "
    out: Record = {}
    if (
        start is not None
        and end is not None
        and len(stated.dates) == 1
        and old_start is not None
        and start >= old_start
        and any(w in lowered for w in _END_WORDS)
    ):
        # One day said of the return ("the meeting slipped a day, push my return to the
        # 19th"): the way back moves to it; the day it slipped by is no length of stay.
        out[last] = start.isoformat()
    elif start is not None and end is not None:
        out[first], out[last] = start.isoformat(), end.isoformat()
    elif start is None and end is not None and old_start is not None and end >= old_start:
        # "Fly back on the 19th", "until Wednesday": the last day only.
        out[last] = end.isoformat()
    elif start is not None:
        if one_day is not None and any(w in lowered for w in _ALONE_WORDS):
            day = _one_of_its_days(start, old_start, old_end, lowered)
            out[first], out[last] = day.isoformat(), (day + one_day).isoformat()
        elif old_start and any(w in lowered for w in _END_WORDS) and start >= old_start:
            out[last] = start.isoformat()
        else:
            out[first], out[last] = start.isoformat(), (start + length).isoformat()
    elif stated.shift_days and old_start and old_end:
        shift = timedelta(days=stated.shift_days)
        target = stated.shift_target or "both"
        if target in ("start", "both"):
            out[first] = (old_start + shift).isoformat()
        if target in ("end", "both"):
            out[last] = (old_end + shift).isoformat()
    elif stated.nights and old_start and old_end:
        # "Stay two nights longer" adds them; "make it three nights" is the new length.
        longer = any(w in lowered for w in _END_WORDS)
        out[last] = ((old_end if longer else old_start) + timedelta(days=stated.nights)).isoformat()
    elif any(w in lowered for w in _NEXT_DEPARTURE):
        # "Get me on the next one": tomorrow's flight, the stay as long as it was.
        leave = ctx.today + timedelta(days=1)
        out[first], out[last] = leave.isoformat(), (leave + length).isoformat()
    return out


def _room_moved(base: Record, moved: Record) -> Record:
    """The room's nights when the trip's days change: a room for the whole trip stays for the
    whole of it ("make it five nights"); one for some of its nights keeps them."""
    old_start, old_end = text_date(base.get("start_date")), text_date(base.get("end_date"))
    start = text_date(moved.get("start_date")) or old_start
    end = text_date(moved.get("end_date")) or old_end
    nights = base.get("room_nights")
    if old_start is None or old_end is None or start is None or end is None:
        return {}
    if not isinstance(nights, int) or nights != (old_end - old_start).days or end <= start:
        return {}
    return {"room_nights": (end - start).days}


def _room(trip: Record) -> str:
    """The room a hotel booking saved on a trip, as an answer says it: "3 nights at 368.31
    EUR, 1104.93 EUR in all", or "" when none did."""
    rate, nights, currency = (
        trip.get("room_rate"),
        trip.get("room_nights"),
        trip.get("room_currency"),
    )
    if not isinstance(rate, int | float) or not isinstance(nights, int) or not currency:
        return ""
    total = shown_money(round(rate * nights, 2), currency)
    return f"{_counted(nights, 'night')} at {shown_money(rate, currency)}, {total} in all"


def _room_days(trip: Record) -> str:
    """The nights of a trip's room, as a moved trip's answer says them (" Your room at Hotel
    Adlon is from 2026-12-09 to 2026-12-12."): a move that left the room unsaid read
    as a room still on the old days. "" for a trip with no room, or with nothing booked to
    go by (a stay alone says its own days)."""
    start = text_date(trip.get("start_date"))
    if not trip.get("hotel") or not _transport(trip) or start is None:
        return ""
    if trip.get("status") == "cancelled":
        return ""
    nights = trip.get("room_nights")
    end = start + timedelta(days=nights) if isinstance(nights, int) else None
    last = end.isoformat() if end is not None else trip.get("end_date")
    if not last:
        return ""
    return f" Your room at {trip['hotel']} is from {start.isoformat()} to {last}."


def _one_of_its_days(day: date, first: date | None, last: date | None, lowered: str) -> date:
    """The day a request keeps alone: "the Friday only" is the Friday among the days it had,
    not the next Friday from today."""
    if first is None or last is None or first <= day <= last or not _WEEKDAY.search(lowered):
        return day
    days = (first + timedelta(days=n) for n in range((last - first).days + 1))
    return next((d for d in days if d.weekday() == day.weekday()), day)


def _changed_days(recipe: Recipe, base: Record, ctx: Context, first: str, last: str) -> Record:
    """What a request changes in a stay or a car: what it states, with its days moved as
    ``moved_days`` moves them (a stay moved to the 16th keeps its nights)."""
    stated = {k: v for k, v in recipe.stated(ctx).items() if k not in (first, last)}
    changes = {**stated, **moved_days(base, ctx, first, last)}
    return {k: v for k, v in changes.items() if base.get(k) != v}


def _fill_days(
    record: Record, ctx: Context, first: str, last: str, soonest: tuple[int, int]
) -> int:
    """Fill the first and last day of a booking (a check-in and check-out, a pick-up and
    drop-off) that the request and the conversation left open: two days, or as many nights as
    the request says, from a day ``soonest`` days ahead; the days between them."""
    start, end = text_date(record.get(first)), text_date(record.get(last))
    if start is None:
        start = end - timedelta(days=2) if end else ctx.day_after_today(*soonest)
    if end is None or end <= start:
        end = start + timedelta(days=ctx.stated.nights or 2)
    record[first], record[last] = start.isoformat(), end.isoformat()
    return (end - start).days


def _counted(count: int, noun: str) -> str:
    """A count as the answer says it: "1 night", "3 days"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _city_said(ctx: Context) -> Record:
    """The city a stay or a car is in, as the request says it (a country: its first city)."""
    place = ctx.stated.destination
    return {"city": _stay_city(place, ctx)} if place is not None else {}


def _price_said(out: Record, stated: Any, field: str) -> None:
    """The price a request says into ``out[field]``, with its currency; one said as a ceiling
    ("under 900 USD", "up to 150 EUR a night") gives only the currency, and ``_within``
    keeps the price found under it."""
    amount = stated.amount
    if amount is None:
        return
    out["currency"] = amount.currency
    if not amount.limit:
        out[field] = amount.amount


def _within(value: float, currency: str, ctx: Context) -> float:
    """``value`` (in ``currency``), or a price a little under the ceiling the request says."""
    said = ctx.stated.amount
    if said is None or not said.limit:
        return value
    ceiling = ctx.convert(said.amount, said.currency, currency)
    if value < ceiling:
        return value
    under = ceiling * ctx.rng.uniform(0.85, 0.97)
    return float(round(under, -1)) if under >= 1000 else round(under, 2)


def _stay_city(place: Place, ctx: Context) -> str:
    """Where a stay in ``place`` is: the city, or for a country the first city of it that
    the data has hotels in ("the per diem for Japan": Tokyo), else its name."""
    if place.kind != "country":
        return place.name
    cities = dict.fromkeys(h["city"] for h in ctx.data.records("hotels"))
    return next((c for c in cities if ctx.places.country_of(c) == place.country), place.name)


# A ride, not a room: "a taxi from the airport to the hotel" names the hotel as a place.
_RIDE_SAID = re.compile(
    r"\b(?:taxi|cab|uber|transfer|shuttle|chauffeur|limo(?:usine)?|ride)\b", re.IGNORECASE
)
_ROOM_ASKED = re.compile(r"\b(?:room|stay|nights?|accommodation|check[\s-]?in)\b", re.IGNORECASE)
# A place to work in an office, not a room to sleep in.
_DESK_SAID = re.compile(
    r"\b(?:desk|hot[\s-]?desk|workspace|work\s+space|workstation|parking\s+(?:space|spot))\b",
    re.IGNORECASE,
)
# A table, not a room: "book a table for 6 at a restaurant in Madrid" booked two nights.
_TABLE_SAID = re.compile(r"\b(?:restaurant|table\s+for|dinner\s+reservation|lunch\s+for)\b", re.I)
# What the hotel agent is asked for that is not a room (unless a room is asked for too), and
# what it answers instead of reserving one: a table booked two nights, a taxi to the hotel
# reserved a room there, a desk in the Berlin office a hotel room in Berlin.
_NOT_A_ROOM: tuple[tuple[re.Pattern[str], re.Pattern[str], str], ...] = (
    (
        _TABLE_SAID,
        _STAY_SAID,
        "I book hotel rooms for work trips, not restaurant tables, so I booked nothing. Book "
        "the table with the restaurant, and claim the meal afterwards as an expense.",
    ),
    (
        _RIDE_SAID,
        _ROOM_ASKED,
        "I book hotel rooms, not taxis or transfers, so I booked nothing. Take a taxi and "
        "claim it afterwards as a travel expense, or rent a car for the trip.",
    ),
    (
        _DESK_SAID,
        _STAY_SAID,
        "I book hotel rooms for work trips, not desks or parking in our offices, so I booked "
        "nothing. Reserve a desk in the office's desk booking, or ask the office's front desk.",
    ),
)


class HotelStays(Recipe):
    source = "hotels"
    noun = "hotel"
    name_field = "city"
    about_fields = ("city",)
    at_trip = True

    def preferred(self, given: Record, ctx: Context) -> Record:
        # A hotel rate nobody said the city of, with no trip here, is the user's own city's
        # (the policy limit "for hotels in Warsaw" answered "What is the daily per diem?").
        return {} if given.get("city") else {"city": ctx.home_office()[0]}

    def asked(self, ctx: Context) -> Asked | None:
        place = ctx.stated.destination
        if place is not None and place is not ctx.stated.vicinity:
            city = _stay_city(place, ctx)
            return Asked("city", city, f"in {city}")
        return None

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out, (start, end) = _city_said(ctx), _stated_dates(ctx)
        if stated.destination is not None and stated.destination is stated.vicinity:
            # "A hotel near Shinagawa for those nights": in the trip's city, when the
            # conversation holds one (``fill`` takes the place itself otherwise).
            out = {"near": _stay_city(stated.destination, ctx)}
        if start is not None:
            out["check_in"] = start.isoformat()
        if end is not None:
            out["check_out"] = end.isoformat()
        elif stated.nights:
            out["nights"] = stated.nights  # "a hotel for 2 nights": two, whatever the trip's
        _price_said(out, stated, "nightly_rate")
        for stars in range(5, 0, -1):
            if stated.mentions(f"{stars}-star", f"{stars} star", f"{stars}*"):
                out["stars"] = stars
                break
        return out

    def made_already(self, made: Record) -> str:
        # What the room is, not "this conversation already has hotel London", and how to
        # change it (a follow-up that moves it changes this booking: ``Making.create``).
        stay = f"{made.get('stay')} at {made.get('nightly_rate')} {made.get('currency')} a night"
        return (
            f"A room at {made.get('name')} in {made.get('city')} from {made.get('check_in')} to "
            f"{made.get('check_out')} ({stay}) is already booked in this conversation, so I did "
            'not book a second one. To change it, say how: "move it to the 18th", "make it '
            'three nights", "stay two nights longer".'
        )

    def changes_made(self, made: Record, ctx: Context) -> bool:
        return ctx.stated.moves

    def as_it_stands(self, made: Record, rewritten: Mapping[str, Record]) -> Record:
        # A room booked on a trip that another agent then moved moves with it: the trip
        # holds the room from its first day, for its nights ("Which hotel am I in?" after
        # "move the trip to Wednesday" gave the old days).
        trip = rewritten.get("trip")
        if trip is None or trip.get("hotel") != made.get("name") or not _transport(trip):
            return made
        start, nights = text_date(trip.get("start_date")), trip.get("room_nights")
        if start is None or not isinstance(nights, int) or nights < 1:
            return made
        return {
            **made,
            "check_in": start.isoformat(),
            "check_out": (start + timedelta(days=nights)).isoformat(),
            "nights": nights,
            "stay": _counted(nights, "night"),
            "trip_end": trip.get("end_date"),
        }

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        # A room past the trip's way back: "Make it five nights" on a flight back after three
        # gave a room the traveller is not there for, without a word.
        transport, back, out = (
            record.get("transport"),
            record.get("trip_end"),
            record.get("check_out"),
        )
        past = bool(transport and back and out and str(out) > str(back))
        note = (
            f' Your {transport} still comes back on {back}: to stay, say "Move the trip return '
            f'to {out}".'
        )
        return {"trip_note": note if past else ""}

    def held_answer(self, given: Record) -> str | None:
        if not given.get("name"):
            return None
        days = ""
        if given.get("check_in") and given.get("check_out"):
            days = f" from {given['check_in']} to {given['check_out']}"
        where = f" in {given['city']}" if given.get("city") else ""
        return (
            f"Your trip holds a room at {given['name']}{where}{days}; I booked nothing new. To "
            'book another, ask for it, such as "Book me a 4-star hotel there".'
        )

    def change(self, base: Record, ctx: Context) -> Record:
        return _changed_days(self, base, ctx, "check_in", "check_out")

    def not_for(self, ctx: Context, given: Record) -> str | None:
        text = ctx.stated.text
        for asked, unless, answer in _NOT_A_ROOM:
            if asked.search(text) and not unless.search(text):
                return answer
        if not given.get("city") and ctx.stated.destination is None:
            # "Book me a hotel for next week" was booked in Chicago.
            return (
                "Which city do you need the hotel in? Tell me and I will book it; I won't "
                "pick one for you."
            )
        return None

    def applicable(self, given: Record, stated: Record, held: Mapping[str, str]) -> Record:
        given = super().applicable(given, stated, held)
        # The trip's hotel is the room to book, unless the request asks for another kind of
        # room ("a 5-star hotel there", "under 150 EUR a night").
        if "name" in given and stated.keys() & {"stars", "nightly_rate"}:
            given = {k: v for k, v in given.items() if k != "name"}
        if "nights" in stated:
            # The nights said count from the trip's first day, not up to its last (a hotel
            # "for 3 nights" on a trip back the next day was 1 night).
            given = {k: v for k, v in given.items() if k != "check_out"}
        return given

    def fill(self, record: Record, ctx: Context) -> None:
        if not record.get("city"):
            record["city"] = record.get("near") or ctx.pick(c[0] for c in ctx.places.offices)
        # The hotel the trip already names, else one of the city's.
        named = (
            ctx.data.lookup("hotels", where={"name": record["name"]}) if record.get("name") else []
        )
        hotel = named[0] if named else _hotel_in(record["city"], ctx, record.get("stars"))
        for key in ("name", "stars"):
            record.setdefault(key, hotel[key])
        if not record.get("currency"):
            # A room is priced in its city's money (a room in Oslo in NOK, beside a fare in
            # SGD), when its rate can be told in it; else as the hotel lists it.
            local = ctx.places.currency_of(record["city"])
            record["currency"] = local if local in USD_PER_UNIT else hotel["currency"]
        if record.get("nightly_rate") is None:
            if record["currency"] == hotel["currency"]:
                rate = hotel["nightly_rate"]
            else:
                rate = ctx.convert(hotel["nightly_rate"], hotel["currency"], record["currency"])
            record["nightly_rate"] = _within(rate, record["currency"], ctx)
        record["nights"] = _fill_days(record, ctx, "check_in", "check_out", soonest=(7, 21))
        record["stay"] = _counted(record["nights"], "night")


def _car_class(ctx: Context) -> str | None:
    """The class of car a request asks for ("a compact car", "an SUV"), if it names one."""
    return next(
        (name for name, (words, _, _) in CAR_CLASSES.items() if ctx.stated.mentions(*words)),
        None,
    )


def _car_phrase(car_class: str) -> str:
    """How an answer names the car: "an economy car", "an SUV", "a van"."""
    said = car_class if car_class in ("SUV", "van") else f"{car_class} car"
    return f"{'an' if said[0].lower() in 'aeiou' or said == 'SUV' else 'a'} {said}"


class CarRentals(Recipe):
    """A car hired where the trip goes: picked up on its first day, dropped off on its last,
    priced by the day in the local currency."""

    source = "car_rentals"
    noun = "rental car"
    id_field = "id"
    id_prefix = "CAR"
    name_field = "city"
    about_fields = ("city",)
    at_trip = True

    def describe(self, record: Record) -> str:
        return f"{record.get('car_class', '')} car in {record.get('city', '')}".strip()

    def as_it_stands(self, made: Record, rewritten: Mapping[str, Record]) -> Record:
        # A car reserved on a trip that was then cancelled is cancelled with it ("Is my rental
        # car still booked?" after "Cancel the trip" heard that it was).
        trip = rewritten.get("trip")
        if trip is None or trip.get("car") != made.get("id") or trip.get("status") != "cancelled":
            return made
        return {
            **made,
            "status": "cancelled",
            "trip": f"{trip['destination']} ({trip['start_date']} to {trip['end_date']})",
        }

    def made_already(self, made: Record) -> str:
        if made.get("status") == "cancelled":
            trip = f" with your trip to {made['trip']}" if made.get("trip") else ""
            return (
                f"Your {self.describe(made)} ({made.get('id', '')}) was cancelled{trip}, so "
                "nothing is reserved any more; ask for a car again to reserve a new one."
            )
        return (
            f"{str(made.get('car') or 'A car').capitalize()} from {made.get('company')} is already "
            "reserved for "
            f"you in {made.get('city')}, {made.get('pick_up')} to {made.get('drop_off')} "
            f"({made.get('rental')} at {made.get('daily_rate')} {made.get('currency')}, "
            f"{made.get('total')} {made.get('currency')} in all), so I did not reserve a second "
            "one; say what should change (the dates, the place, the car) to get another."
        )

    def changes_made(self, made: Record, ctx: Context) -> bool:
        return ctx.stated.moves

    def change(self, base: Record, ctx: Context) -> Record:
        changes = _changed_days(self, base, ctx, "pick_up", "drop_off")
        if "car_class" in changes and "daily_rate" not in changes:
            # Another class of car has its own rate ("Make it an SUV" kept the compact's).
            changes["daily_rate"] = None
        return changes

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out, (start, end) = _city_said(ctx), _stated_dates(ctx)
        if start is not None and stated.span in ("days", "weekend") and end is not None:
            # "for two days from the 15th" counts the 15th and the 16th: two days of hire,
            # dropped off on the 17th; "for the weekend" is Saturday and Sunday, back Monday.
            end = end + timedelta(days=1)
        elif start is not None and stated.in_days and stated.nights:
            end = start + timedelta(days=stated.nights)
        if start is not None:
            out["pick_up"] = start.isoformat()
        if end is not None:
            out["drop_off"] = end.isoformat()
        car_class = _car_class(ctx)
        if car_class:
            out["car_class"] = car_class
        for company in CAR_RENTAL_COMPANIES:
            if stated.mentions(f" {company.lower()}"):
                out["company"] = company
                break
        _price_said(out, stated, "daily_rate")  # "60 EUR a day", "under 60 EUR a day"
        return out

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("id", self.new_id(ctx))
        if not record.get("city"):
            record["city"] = ctx.home_office()[0]
        if not record.get("car_class"):
            record["car_class"] = ctx.pick(("economy", "compact", "compact", "mid-size"))
        if not record.get("company"):
            record["company"] = ctx.pick(CAR_RENTAL_COMPANIES)
        # Paid where it is picked up: in the city's currency, unless the request said one.
        if not record.get("currency"):
            record["currency"] = ctx.places.currency_of(record["city"]) or "USD"
        if record.get("daily_rate") is None:
            _, low, high = CAR_CLASSES.get(record["car_class"], ((), 35, 60))
            rate = ctx.price(low, high, record["currency"])
            record["daily_rate"] = _within(rate, record["currency"], ctx)
        record["days"] = _fill_days(record, ctx, "pick_up", "drop_off", soonest=(3, 14))
        record["rental"] = _counted(record["days"], "day")
        record["total"] = round(float(record["daily_rate"]) * record["days"], 2)
        record["car"] = _car_phrase(record["car_class"])
        record.setdefault("status", "reserved")
