"""Expense claims and invoices."""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from dateutil.relativedelta import relativedelta

from mock_account.business.vocab import EXPENSE_CATEGORIES

from ..recipe import (
    CHANGES,
    Context,
    PartyRecipe,
    Recipe,
    Record,
    first_sentence,
    fits,
    keyword_choice,
    shown_money,
    text_date,
)
from ..stated import Stated
from .people import Employees
from .sales import best_product

# The user as an employee (whose manager approves their claims).
_PEOPLE = Employees()

_CATEGORY_WORDS: dict[str, tuple[str, ...]] = {
    "travel": (
        "taxi",
        "cab",
        "uber",
        "train",
        "flight",
        "airfare",
        "mileage",
        "drove",
        " km",
        "miles",
        "parking",
        "rental car",
        "fuel",
        "petrol",
        "bus ",
        "travel",
        "trip",
    ),
    "meals": ("dinner", "lunch", "breakfast", "meal", "restaurant", "coffee", "food"),
    "lodging": ("hotel", "room", "accommodation", "lodging", "airbnb", "night"),
    "equipment": (
        "keyboard",
        "mouse",
        "laptop",
        "monitor",
        "headset",
        "charger",
        "chair",
        "desk",
        "cable",
        "adapter",
        "webcam",
        "equipment",
    ),
    "software": ("licence", "license", "subscription", "software", "app "),
    "training": ("course", "training", "certification", "exam", "conference ticket", "book"),
}
# What a kilometre driven in one's own car is paid, in US dollars.
MILEAGE_USD_PER_KM = 0.32
# The user's own claim, as a request says it ("my expense claim EXP-00012").
_MY_CLAIM = re.compile(
    r"\bmy\s+(?:\w+\s+)?(?:expense\s+)?(?:claims?|expenses|reimbursements?)\b", re.IGNORECASE
)
# A request that names its party by a pronoun only, right after its verb ("Record their
# invoice", "Bill them for it").
_THEIRS = re.compile(r"^\s*(?:please\s+)?[a-z]+\s+(?:their|them)\b", re.IGNORECASE)
# A price said per unit of time or per item ("150 EUR per hour"), and the count it is
# billed for ("5 hours of consulting"): the invoice is for both, not for one hour.
_RATE = re.compile(
    r"\b(?:per|an?|each|/)\s*(hour|hr|h|day|month|unit|seat|licen[cs]e|user)s?\b", re.IGNORECASE
)
_BILLED = re.compile(
    r"\b(\d+(?:\.\d+)?)\s+(hour|hr|day|month|unit|seat|licen[cs]e|user)s?\b", re.IGNORECASE
)
_UNIT_NAMES = {"hr": "hour", "h": "hour", "licence": "license"}


def _billed_at_a_rate(text: str, rate: float, currency: str) -> tuple[float, str] | None:
    """The amount and what it bills for, when the request gives a rate and a count of the
    same unit ("5 hours of consulting at 150 EUR per hour": 750, "5 hours at 150 EUR")."""
    per, count = _RATE.search(text), _BILLED.search(text)
    if per is None or count is None:
        return None
    unit = _UNIT_NAMES.get(per.group(1).lower(), per.group(1).lower())
    if _UNIT_NAMES.get(count.group(2).lower(), count.group(2).lower()) != unit:
        return None
    number = float(count.group(1))
    return round(rate * number, 2), f"{number:g} {unit}s at {rate:g} {currency} per {unit}"


# A price said for one of the things counted: "SGD 85 each", "at 40 EUR apiece", "per sensor".
_EACH = re.compile(r"\b(?:each|apiece|a\s+piece|per\s+(?:unit|piece|item))\b", re.IGNORECASE)


def _billed_each(stated: Stated) -> tuple[float, str] | None:
    """The amount and what it bills for, when the request prices one of a count of things
    ("120 cold-chain sensors, SGD 85 each": 10200 SGD for 120 x cold-chain sensor)."""
    money = stated.amount
    counted = next((q for q in stated.quantities if not q.unit), None)
    if money is None or counted is None:
        return None
    per_item = re.search(rf"\bper\s+{re.escape(counted.item.split()[-1])}", stated.text, re.I)
    if not (_EACH.search(stated.text) or per_item):
        return None
    count = counted.count
    total = round(money.amount * count, 2)
    return total, f"{count:g} x {counted.item} at {money.amount:g} {money.currency} each"


# What an invoice bills, as ``items`` says it: "120 x cold-chain sensor at 85 SGD each",
# "40 hours at 180 USD per hour".
_PRICED = re.compile(
    r"^(?P<n>\d+(?:\.\d+)?)\s+(?:x\s+)?(?P<what>.+?) at (?P<p>\d+(?:\.\d+)?) "
    r"(?P<cur>[A-Z]{3}) (?P<per>each|per \w+)$"
)
_PRICE_WORDS = re.compile(r"\b(?:rate|price|per|each|hourly|daily|apiece|unit)\b", re.I)
_BARE_COUNT = re.compile(r"\b(?:it\s+was|make\s+it|should\s+be|actually)\s+(\d+)\b", re.I)


def _repriced(items: str, stated: Stated) -> tuple[float, str] | None:
    """An invoice's amount for its items counted anew or at a new price, or None when the
    request changes neither."""
    billed = _PRICED.match(items)
    if billed is None:
        return None
    count, price = float(billed.group("n")), float(billed.group("p"))
    currency, per, what = billed.group("cur"), billed.group("per"), billed.group("what")
    money = stated.amount
    if money is not None and money.currency == currency and _PRICE_WORDS.search(stated.text):
        price = money.amount
    else:
        counted = next((q.count for q in stated.quantities if not q.unit), None)
        bare = _BARE_COUNT.search(stated.text)
        if counted is None and bare is None:
            return None
        count = float(counted if counted is not None else bare.group(1))  # type: ignore[union-attr]
    return round(
        count * price, 2
    ), f"{count:g} {'x ' if per == 'each' else ''}{what} at {price:g} {currency} {per}"


# A customer charged too much: what the request says is the excess, to credit back.
_OVERCHARGED = re.compile(
    r"\b(?:double[- ]charged|charged\s+twice|overcharged|over-charged|billed\s+twice|"
    r"duplicate\s+charge)\b",
    re.IGNORECASE,
)

_STATUS_WORDS: dict[str, tuple[str, ...]] = {
    "overdue": ("overdue", "late payment", "not paid", "unpaid", "chase"),
    "paid": (" paid ", "payment received", "settled"),
    "disputed": ("dispute", "disputed", "wrong amount", "incorrect"),
}


def _spent_on(day: date, text: str, today: date) -> date:
    """The day an expense was paid: a claim is made after the spending, so a day the request
    gives without its year or week ("a client dinner on the 22nd", "the taxi on Friday") that
    reads as still to come is the last such day up to today; a year said stays as said."""
    if day <= today or re.search(r"\b20\d\d\b", text):
        return day
    words = set(re.findall(r"[a-z]+", text.lower()))
    if calendar.day_name[day.weekday()].lower() in words:
        step = relativedelta(weeks=1)  # "on Friday": the last Friday
    elif {calendar.month_name[day.month].lower(), calendar.month_abbr[day.month].lower()} & words:
        step = relativedelta(years=1)  # "on 22 December": last December's
    else:
        step = relativedelta(months=1)  # "on the 22nd": last month's
    for count in range(1, 13 * 8):
        earlier = day - step * count
        # "the 31st": the last month that has one, not the 30th of another.
        if earlier <= today and (step.weeks or earlier.day == day.day):
            return earlier
    return day


# The trip a claim names: "the Berlin trip", "my trip to Oslo".
_TRIP_NAMED = re.compile(
    r"\b(?P<place>[A-Z][\w-]+(?:\s+[A-Z][\w-]+)?)\s+trip\b|\btrip\s+to\s+(?P<to>[A-Z][\w-]+)"
)


_PAID_FROM_FORM = re.compile(r"\s*\(paid [^()]*\)\s*$")


class Expenses(Recipe):
    source = "expenses"
    noun = "expense claim"
    id_field = "id"
    id_prefix = "EXP"
    worded_fields = frozenset({"note"})
    # A claim for the Berlin trip takes nothing of an Oslo trip the conversation holds.
    about_fields = ("trip",)

    def applicable(self, given: Record, stated: Record, held: Mapping[str, str]) -> Record:
        given = super().applicable(given, stated, held)
        # Spent before the trip began and the trip unnamed ("my taxi receipt from yesterday"
        # beside a trip booked for next week): the claim is not for that trip.
        spent, began = text_date(stated.get("date")), text_date(given.get("date"))
        if "trip" in stated or spent is None or began is None or spent >= began:
            return given
        trip = {held[k] for k in ("date", "trip") if k in held}
        return {k: v for k, v in given.items() if held.get(k) not in trip}

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        # Whose claim it is and what for, for the manager who decides it: "Approve Sarah's
        # expense claim" answered "The meals claim EXP-00183 ..." without Sarah's name.
        who, category = record.get("employee"), record.get("category") or "expense"
        note = str(record.get("note") or "").strip().rstrip(".")
        return {
            "claim_of": f"{who}'s {category} claim" if who else f"The {category} claim",
            "note_said": f' ("{note}")' if note else "",
        }

    def outside(self, record: Record, kind: Mapping[str, Any]) -> str:
        wanted = kind.get("category")
        if not wanted or fits(record, {"category": wanted}):
            return super().outside(record, kind)
        said = " or ".join(wanted) if isinstance(wanted, list | tuple) else wanted
        number = f" {record['id']}" if record.get("id") else ""
        amount = f" of {_amount(record)}" if _amount(record) else ""
        return f"Expense claim{number}{amount} is for {record.get('category')}, not {said}."

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        category = keyword_choice(stated.text, _CATEGORY_WORDS)
        if category:
            out["category"] = category
        if stated.amount is not None:
            out["amount"] = stated.amount.amount
            out["currency"] = stated.amount.currency
        else:
            distance = next(
                (q for q in stated.quantities if q.unit in ("km", "mi", "miles", "kilometres")),
                None,
            )
            if distance is not None:
                km = distance.count * (1.609 if distance.unit in ("mi", "miles") else 1.0)
                out["category"] = "travel"
                out["distance_km"] = round(km, 1)
        when = stated.first_date
        if when is not None:
            out["date"] = when.isoformat()
        trip = _TRIP_NAMED.search(stated.text)
        if trip:
            out["trip"] = trip.group("place") or trip.group("to")
        # What was paid, added to the request from the claim's form, is the amount's, not
        # the note's.
        note = first_sentence(_PAID_FROM_FORM.sub("", stated.text))
        if note:
            out["note"] = note
        return out

    def made_already(self, made: Record) -> str:
        # "Who approves it?" after the claim: what it is and where it stands, not "this
        # conversation already has expense claim EXP-95808".
        amount = f" of {_amount(made)}" if _amount(made) else ""
        when = f" from {made['date']}" if made.get("date") else ""
        return (
            f"Your {made.get('category', '')} claim {made.get('id', '')}{amount}{when} is "
            "already submitted in this conversation and waits for your manager's approval, so "
            "I did not submit it twice; say what should be different to claim another."
        )

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("id", self.new_id(ctx))
        if not record.get("category"):
            record["category"] = ctx.pick(EXPENSE_CATEGORIES)
        if not record.get("currency"):
            record["currency"] = ctx.home_currency()
        if record.get("amount") is None:
            if record.get("distance_km"):
                usd = record["distance_km"] * MILEAGE_USD_PER_KM
                record["amount"] = ctx.convert(usd, "USD", record["currency"])
            else:
                low, high, _notes = EXPENSE_CATEGORIES[record["category"]]
                record["amount"] = ctx.price(low, high, record["currency"])
        if not record.get("date"):
            record["date"] = (ctx.today - timedelta(days=ctx.rng.randint(1, 14))).isoformat()
        elif not record.get("trip") and (day := text_date(record["date"])) is not None:
            # Spent before it is claimed; a claim for a saved trip keeps the trip's days.
            record["date"] = _spent_on(day, ctx.stated.text, ctx.today).isoformat()
        record.setdefault("note", f"{record['category'].capitalize()} expense")
        # Whoever files or completes a claim here is the one it is for.
        record.setdefault("employee", ctx.user_name)

    def differs(self, record: Record, ctx: Context) -> str | None:
        # "My expense claim EXP-00012 was rejected" of a colleague's claim: it was put up
        # for the user's approval instead.
        owner = record.get("employee")
        if not owner or owner == ctx.user_name or not _MY_CLAIM.search(ctx.stated.text):
            return None
        return (
            f"{record.get('id', 'That claim')} is {owner}'s {record.get('category', '')} claim, "
            "not one of yours, so I did nothing with it; check the number on your claim."
        )

    def own(self, record: Record, ctx: Context) -> str | None:
        if record.get("employee") != ctx.user_name:
            return None
        amount = f" of {_amount(record)}" if _amount(record) else ""
        why = (
            f"{record.get('id', 'This claim')} is your own {record.get('category', '')} claim"
            f"{amount}; your manager approves it, not you."
        )
        # Without the business data (a follow-up foreseen), the manager goes unnamed.
        if ctx.data is None:
            return why
        return f"{why} It is with {_PEOPLE.requester(ctx)['manager']} for approval."


class Invoices(PartyRecipe):
    source = "invoices"
    noun = "invoice"
    id_field = "number"
    id_prefix = "INV"
    id_digits = 6
    name_field = "party"
    about_fields = ("party",)
    by_name = "for {}"
    # A bill to us comes from a supplier; an invoice we issue goes to a customer.
    side_field = "direction"
    sides = ("payable", "receivable")

    def not_for(self, ctx: Context, given: Record) -> str | None:
        # "Record their invoice for 4,500 EUR" with nobody of that kind saved here: whose it
        # is was said by a pronoun only (it was raised to a customer picked at random).
        # Anything taken from the conversation (an order's customer) says whose it is.
        if any(given.values()) or self.stated(ctx).get("party"):
            return None
        if not _THEIRS.match(ctx.stated.text):
            return None
        return (
            "Whose invoice is it? Nobody it could be for is saved in this conversation: tell me "
            "the company's name and I will go ahead (a bill a supplier sent us is booked with "
            '"Book the supplier bill from …"). I won\'t pick one for you.'
        )

    def lacking(self, saved: Record, action: str) -> str | None:
        # A paid invoice has nothing left to chase, pay or correct; it is still looked at.
        if action not in CHANGES or saved.get("status") != "paid" or not saved.get("number"):
            return None
        amount = f" ({_amount(saved)})" if saved.get("amount") else ""
        # An invoice we issued went to its party; a bill came from it.
        towards = "to" if saved.get("direction") == "receivable" else "from"
        party = f" {towards} {saved['party']}" if saved.get("party") else ""
        return (
            f"Invoice {saved['number']}{amount}{party} is already paid; there is nothing left "
            "to chase or change."
        )

    def made_already(self, made: Record) -> str:
        amount = f" for {_amount(made)}" if _amount(made) else ""
        due = f", due on {made['due_date']}" if made.get("due_date") else ""
        return (
            f"Invoice {made.get('number', '')} to {made.get('party') or 'the customer'}{amount} "
            f"is already raised in this conversation{due}, so I did not bill it twice."
        )

    def unworkable(self, record: Record, ctx: Context, action: str) -> str | None:
        # A paid invoice charged twice is credited back; it is only not chased again.
        if _OVERCHARGED.search(ctx.stated.text):
            return None
        return self.lacking(record, action)

    def outside(self, record: Record, kind: Mapping[str, Any]) -> str:
        number, party = record.get("number", "This invoice"), record.get("party") or "the party"
        amount = _amount(record) or "it"
        if "direction" not in kind or record.get("direction") == kind["direction"]:
            if kind.get("status") == "overdue" and record.get("status") != "overdue":
                due = f", due on {record['due_date']}" if record.get("due_date") else ""
                return (
                    f"Invoice {number} to {party} ({amount}{due}) is {record.get('status')}, "
                    "not overdue: there is no overdue debt on it to act on."
                )
            return super().outside(record, kind)
        if record.get("direction") == "payable":
            return (
                f"{number} is a bill from {party} to us (we owe them {amount}), not an invoice "
                f"we issued; there is nothing to collect from {party} on it."
            )
        return (
            f"{number} is an invoice we issued to {party} (they owe us {amount}), not a bill "
            "from a supplier."
        )

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        if stated.amount is not None:
            out["amount"] = stated.amount.amount
            out["currency"] = stated.amount.currency
            billed = _billed_at_a_rate(
                stated.text, stated.amount.amount, stated.amount.currency
            ) or _billed_each(stated)
            if billed is not None:
                out["amount"], out["items"] = billed
        else:
            quantity = next((q for q in stated.quantities if not q.unit), None)
            product = best_product(quantity.item, ctx) if quantity is not None else None
            if quantity is not None and product is not None:
                # "Invoice Acme for the 40 licences": the catalogue price of what was bought.
                out["amount"] = round(product["price"] * quantity.count, 2)
                out["currency"] = product["currency"]
                out["items"] = f"{int(quantity.count)} x {product['name']}"
        out.update(self.named(stated))
        due = stated.deadline or (
            stated.first_date if stated.first_date and stated.first_date > ctx.today else None
        )
        if due is not None:
            out["due_date"] = due.isoformat()
        status = keyword_choice(f" {stated.text} ", _STATUS_WORDS)
        if status:
            out["status"] = status
        return out

    def change(self, base: Record, ctx: Context) -> Record:
        """A payment or a reminder leaves the invoice's amount alone; only a correction
        ("the amount should be 1,200") changes it."""
        stated = ctx.stated
        out: Record = {}
        status = keyword_choice(f" {stated.text} ", _STATUS_WORDS)
        if status and status != base.get("status"):
            out["status"] = status
        repriced = _repriced(str(base.get("items") or ""), stated)
        if repriced is not None:
            # "It was 150 sensors, not 120", "the hourly rate should have been 165 USD": the
            # same things at the same price, counted again, or at the new price.
            out["amount"], out["items"] = repriced
            return out
        if stated.amount is not None:
            correcting = stated.mentions("should be", "correct", "instead", "wrong amount")
            said = stated.amount
            if _OVERCHARGED.search(stated.text) and said.currency == base.get("currency"):
                # "Double charged 250 EUR": a credit note for the 250, the invoice less it
                # (it was recorded as a payment of 250 received).
                left = round(float(base.get("amount") or 0) - said.amount, 2)
                if left >= 0:
                    out["amount"] = left
                    out["credit_note"] = f" of {said.amount:g} {said.currency}"
            elif correcting:
                out["amount"], out["currency"] = stated.amount.amount, stated.amount.currency
            else:
                out["payment"] = f"{stated.amount.amount:g} {stated.amount.currency}"
        if stated.deadline is not None:
            out["due_date"] = stated.deadline.isoformat()
        return out

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("number", self.new_id(ctx))
        if not record.get("party") and record.get("customer_id"):
            # An invoice for an order goes to the order's customer.
            buyer = ctx.data.lookup("customers", where={"id": record["customer_id"]})
            record["party"] = buyer[0]["name"] if buyer else ""
        self.fill_party(record, ctx)
        if record.get("amount") is None and record["direction"] == "receivable":
            _bill_latest_order(record, ctx)
        if not record.get("currency"):
            record["currency"] = ctx.home_currency()
        if record.get("amount") is None:
            record["amount"] = ctx.price(400, 24000, record["currency"])
        if text_date(record.get("due_date")) is None:
            record["due_date"] = (ctx.today + timedelta(days=30)).isoformat()
        record.setdefault("status", "draft")
        due = text_date(record.get("due_date"))
        if record["status"] == "overdue" and due is not None and due >= ctx.today:
            # Overdue only once the due date has passed: a reminder before it is a reminder.
            record["status"] = "sent"
        # What was paid, as an answer can say it: the amount stated, else the whole invoice.
        record.setdefault("payment", f"{record['amount']:,.2f} {record['currency']}")
        # What it bills, as the answer names it.
        items = f": {record['items']}" if record.get("items") else ""
        if record.get("order"):
            record.setdefault("billing", f"order {record['order']}{items}")
        else:
            record.setdefault("billing", record.get("items") or "the goods and services delivered")


def _bill_latest_order(record: Record, ctx: Context) -> None:
    """ "Invoice Hoffmann Logistics for their latest order": the customer's latest order is
    what is billed, at its total, when the request speaks of an order and the data has one."""
    if not ctx.stated.mentions("order") or record.get("order"):
        return
    buyer = ctx.data.lookup("customers", where={"name": record["party"]})
    orders = ctx.data.lookup("orders", where={"customer_id": buyer[0]["id"]}) if buyer else []
    if not orders:
        return
    latest = orders[-1]
    record.update(
        amount=latest["total"],
        currency=latest["currency"],
        order=latest["id"],
        items=f"{latest['quantity']} x {latest['product']}",
    )


def _amount(record: Record) -> str:
    """An invoice's amount as its answers write it ("15080 SGD", "270.11 EUR"), or ""."""
    amount = record.get("amount")
    if not isinstance(amount, int | float):
        return ""
    return shown_money(amount, record.get("currency", ""))
