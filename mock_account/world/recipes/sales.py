"""Customers, orders and the product catalogue."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from datetime import date
from functools import lru_cache
from typing import Any

from mock_account.business.data import company_domain, person_email
from mock_account.business.vocab import (
    CUSTOMER_TIERS,
    PRODUCT_CATEGORIES,
    REGION_COUNTRIES,
    UNLISTED_PRODUCT_PRICES,
)

from ..changes import count_more
from ..recipe import Asked, Context, Recipe, Record, starts_name
from ..stated import Quantity, Stated

_WORD = re.compile(r"[a-z0-9]+")


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    # Cached: every product's name is matched against each item a request names.
    return frozenset(_stem(w) for w in _WORD.findall(text.lower()) if len(w) > 1)


# A model number in a product's name: letters and digits in one word ("VX-900", "U2724D").
_MODEL_CODE = re.compile(r"\b(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\b")


def best_product(item: str, ctx: Context) -> Record | None:
    """The catalogue product an item of a request means ("office chairs" -> an Office
    Chair): first one of the kind the item names (its last word: an "ergonomic chair" is a
    chair, not an ergonomic mouse), then the one sharing the most words with it; None when
    none shares a word."""
    wanted = _words(item)
    kind = _words(item.split()[-1]) if item.split() else set()
    # The names in it ("Herman Miller Aeron chairs"): a brand or a model the product must
    # carry, or it is another product (the catalogue's office chair is no Aeron).
    named = _words(" ".join(w for w in item.split()[:-1] if w[:1].isupper()))
    best: tuple[tuple[bool, int, int], Record] | None = None
    for number, product in enumerate(ctx.data.records("products")):
        words = _words(product["name"])
        if not named <= words:
            continue
        shared = len(wanted & words)
        rank = (bool(kind & words), shared, -number)
        if shared and (best is None or rank > best[0]):
            best = (rank, product)
    return dict(best[1]) if best else None


def _product_named(stated: Stated) -> str | None:
    """The product a request names by its brand or model ("the Aurora X2"), if any."""
    return next((t.value for t in stated.things if t.kind == "product"), None)


def _listed_as(named: str, ctx: Context) -> str | None:
    """The catalogue's name for a product named in full ("ProLink 9000"), or None: a product
    that only shares a word with it (the brand) is another one."""
    wanted = named.casefold()
    return next(
        (p["name"] for p in ctx.data.records("products") if wanted in p["name"].casefold()), None
    )


def _new_product(item: str, ctx: Context) -> Record:
    """A product the catalogue does not list, priced like its kind of goods, else like the
    closest kind of product; the same SKU and price for its name every time, so the quote
    and the order of "20 laptops" price the same laptop (each drew its own before)."""
    wanted = _words(item)
    low, high = 20.0, 500.0
    unlisted = [UNLISTED_PRODUCT_PRICES[w] for w in sorted(wanted) if w in UNLISTED_PRODUCT_PRICES]
    # The kind of product that shares most words with it ("a gaming chair": an office chair).
    kinds = [
        (noun, bounds) for kinds in PRODUCT_CATEGORIES.values() for noun, bounds in kinds.items()
    ]
    shared, bounds = max(((len(wanted & _words(noun)), b) for noun, b in kinds), key=lambda x: x[0])
    if unlisted:
        low, high = unlisted[0]
    elif shared:
        low, high = bounds
    currency = ctx.home_currency()
    name = " ".join(w.capitalize() for w in item.split())
    drawn = random.Random(f"product:{name.casefold()}")
    price = ctx.price(low, high, currency, drawn)
    size = ctx.data.size
    sku = f"SKU-{size + 1 + drawn.randrange(99_999 - size - 1):05d}"
    return {"name": name, "sku": sku, "price": price, "currency": currency}


# A person named as the customer ("a customer, Farida Hassan", "our client Ines Barahona").
_A_PERSON_AS_CUSTOMER = re.compile(
    r"\b(?:customer|client|subscriber|user|consumer|patient|member)s?\b[,:]?\s+(?:named\s+)?[A-Z]",
)


class Customers(Recipe):
    source = "customers"
    noun = "customer"
    id_field = "id"
    id_prefix = "CUS"
    name_field = "name"
    name_kinds = ("customer",)
    unknown_names = "organisations"
    unique_name = True

    def preferred(self, given: Record, ctx: Context) -> Record:
        # "A customer briefing for my visit to Paris": a customer in France, if there is one.
        country = ctx.places.country_of(given.get("visit_city"))
        return {"country": country} if country else {}

    def differs(self, record: Record, ctx: Context) -> str | None:
        # "Jane Doe at Wayne Enterprises asked us to stop sending her promotions": the
        # preferences of Rebecca Nguyen, the contact on file, were updated instead.
        company = str(record.get("name") or "")
        for person in ctx.stated.unknown_people():
            said = rf"{re.escape(person.shown)}\s+(?:at|from|of)\s+{re.escape(company)}"
            if company and re.search(said, ctx.stated.text, re.IGNORECASE):
                if starts_name(person.shown, record.get("contact")):
                    return None
                return (
                    f"{person.shown} is not a contact of {company} on file (its contact is "
                    f"{record.get('contact')}), so I changed nothing. Add them first, such as "
                    f'"The new contact at {company} is {person.shown}", then ask again.'
                )
        return None

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out = self.named(stated)
        if "name" not in out and stated.people and _A_PERSON_AS_CUSTOMER.search(stated.text):
            # "A customer, Farida Hassan, asked for her data": a person is the customer.
            out["name"] = stated.people[0].shown
        if stated.people:
            out["contact"] = stated.people[0].shown
        if stated.emails:
            out["email"] = stated.emails[0]
        place = next((p for p in stated.places if p.country), None)
        if place is not None:
            out["country"] = place.country
        for tier in CUSTOMER_TIERS:
            if stated.mentions(f" {tier} "):
                out["tier"] = tier
        return out

    def unchanged(self, record: Record) -> str | None:
        return (
            f"{self.describe(record)} is as it was: the request does not say what to change. "
            "Tell me the new contact, email or tier."
        )

    def made_already(self, made: Record) -> str:
        # Who the account is ("Who is their contact?" after opening it), not only that it
        # exists.
        contact = made.get("contact")
        email = f" ({made['email']})" if made.get("email") else ""
        who = f", with {contact}{email} as its contact" if contact else ""
        country = str(made.get("country") or "")
        the = "the " if country.startswith("United ") else ""
        where = f", in {the}{country}" if country else ""
        return (
            f"The customer account {made.get('id', '')} for {made.get('name', '')} is the one in "
            f"this conversation{who}{where}, so I opened no new one; say what should be "
            "different to open another."
        )

    def change(self, base: Record, ctx: Context) -> Record:
        changes = super().change(base, ctx)
        if "contact" in changes and "email" not in changes:
            # A new contact is reached at their own address, at the company's domain, not at
            # the one of the person they replace.
            domain = str(base.get("email") or "").rpartition("@")[2]
            domain = domain or company_domain(str(base.get("name") or "example"))
            changes["email"] = person_email(changes["contact"], domain)
        return changes

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("id", self.new_id(ctx))
        if not record.get("name"):
            record["name"] = ctx.company_name()
        if not record.get("contact"):
            # The person whose address was given, not someone else at it: the new account
            # was "with Ashley Padilla as the first contact" at anna@lindqvist.se.
            record["contact"] = _named_by_email(str(record.get("email") or "")) or (
                ctx.person_name()
            )
        if not record.get("email"):
            record["email"] = person_email(record["contact"], company_domain(record["name"]))
        record.setdefault("tier", "bronze")
        if not record.get("country"):
            record["country"] = _country_of_new(record, ctx)


# Country codes used as generic web addresses ("nova.io" is no company of the Indian Ocean).
_VANITY_DOMAINS = frozenset("io ai co me tv ly fm gg to cc ws sh tk nu am ac vc app".split())


def _country_of_new(record: Record, ctx: Context) -> str:
    """Where a new customer is: the country of its contact's address ("lena@nova.de"), else
    of the sales region the form gave (the user's own office's country when it is in it),
    else the user's office's. A customer opened "for EMEA" at a .de address was in
    Singapore, the user's office, and quoted in its dollars."""
    domain = str(record.get("email") or "").rpartition("@")[2]
    suffix = domain.rpartition(".")[2].lower() if "." in domain else ""
    coded = ctx.places.country_coded(suffix) if suffix not in _VANITY_DOMAINS else None
    if coded:
        return coded
    home = ctx.places.country_of(ctx.home_office()[0]) or "United States"
    region = REGION_COUNTRIES.get(str(record.get("region") or ""))
    if region:
        return home if home in region else region[0]
    return home


# Addresses of a role, not of a person.
_ROLE_ADDRESSES = frozenset(
    "info sales contact hello orders order purchasing procurement admin office support "
    "accounts billing finance team mail enquiries inquiries buyer buying".split()
)


def _named_by_email(email: str) -> str | None:
    """The person an address names ("anna.berg@…" is Anna Berg), or None for a role's
    address ("sales@…") or one that names nobody."""
    local = email.partition("@")[0]
    parts = [p for p in re.split(r"[._-]+", local) if p]
    if not 1 <= len(parts) <= 3 or local.casefold() in _ROLE_ADDRESSES:
        return None
    if not all(p.isalpha() and len(p) > 1 for p in parts):
        return None
    return " ".join(p.capitalize() for p in parts)


# What a closed order can no longer be, by its status.
_CLOSED_ORDERS = {
    "cancelled": "is cancelled, so it can no longer be shipped, changed, billed or returned.",
    "returned": "was returned, so it can no longer be shipped, changed or returned again.",
}


# Where an order is on its way to the customer, as an answer says it, by its status.
_ORDER_STAGES = {
    "placed": "is placed and has not shipped yet",
    "paid": "is paid and has not shipped yet",
    "shipped": "has shipped and is on its way",
    "delivered": "was delivered",
}
_NOT_SHIPPED = ("placed", "paid")
# The stages an order must be at for a record of another source to be made from it: a
# damage report needs a delivery, a supplier is chased only for what has not shipped.
_STAGES_FOR = {"tickets": ("delivered",), "vendors": _NOT_SHIPPED}


class Orders(Recipe):
    source = "orders"
    noun = "order"
    id_field = "id"
    id_prefix = "ORD"
    id_digits = 6
    about_fields = ("customer_id",)

    @staticmethod
    def _new_buyer(name: str, ctx: Context) -> Record:
        """A company that is no customer of ours yet, as the buyer of its first order: its
        account is opened with it (a new id), rather than the order refused or booked to
        another customer."""
        return {"customer": name, "customer_id": Customers().new_id(ctx), "new_customer": name}

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        opened = (
            f" {record['new_customer']} is new to us, so I opened their customer account "
            f"{record.get('customer_id', '')} with this order."
            if record.get("new_customer")
            else ""
        )
        return {"account_opened": opened, **self._discount_phrased(record, stated)}

    @staticmethod
    def _discount_phrased(record: Record, stated: Stated) -> Record:
        # "Give a 10% discount" answered "The discount on order … is approved; the new total
        # is …": how much off, and off what, unsaid.
        percent, total = record.get("discount_percent"), record.get("total")
        if not isinstance(percent, int | float) or not isinstance(total, int | float):
            return {}
        if percent != stated.percent or not 0 < percent < 100:
            return {}
        before = round(total / (1 - percent / 100), 2)
        return {"discount_said": f" ({percent:g}% off {before:g} {record.get('currency', '')})"}

    def asked(self, ctx: Context) -> Asked | None:
        """An order by its id, else the latest order of the customer the request names
        ("Kestrel Energy called off their order")."""
        found = super().asked(ctx)
        if found is not None:
            return found
        return customer_asked(ctx)

    def not_for(self, ctx: Context, given: Record) -> str | None:
        # An order for a company that is not our customer would be booked to another one;
        # one the conversation just opened is the conversation's customer.
        stated = ctx.stated
        if given.get("customer_id") or customer_asked(ctx) is not None:
            return None
        if not stated.unknown_organisations() and not given.get("quoted_customer"):
            # Nobody said who buys: not a customer picked at random.
            return f"Which customer is the order for? {Customers.none_held()}"
        # A company new to us (or the prospect a quote was made for) gets its account opened
        # with its first order (``_new_buyer``), and the answer says so.
        return None

    def closed(self, saved: Record, source: str) -> str | None:
        # A cancelled or returned order is over: expediting, changing, billing or returning
        # it again would contradict what was done to it.
        status = saved.get("status")
        if not saved.get("id"):
            return None
        what = f" ({saved['quantity']} x {saved['product']})" if saved.get("product") else ""
        if status in _CLOSED_ORDERS:
            return f"Order {saved['id']}{what} {_CLOSED_ORDERS[status]}"

        needed = _STAGES_FOR.get(source)
        if needed and saved.get("status") in _ORDER_STAGES and saved["status"] not in needed:
            return self._stage(saved, needed)
        return None

    def made_already(self, made: Record) -> str:
        # What the order is ("What orders do they have?" after placing one), not only its id.
        what = f": {made['quantity']} x {made['product']}" if made.get("product") else ""
        total = f" for {made['total']} {made['currency']}" if made.get("total") else ""
        return (
            f"Order {made.get('id', '')} was placed in this conversation{what}{total}, "
            f"status {made.get('status', 'placed')}, so I did not place a second one; say what "
            "should be different to place another."
        )

    def unchanged(self, record: Record) -> str | None:
        what = f" ({record['quantity']} x {record['product']})" if record.get("product") else ""
        return (
            f"Order {record.get('id', '')}{what} is as it was: the request does not say what "
            "to change. Tell me the new quantity or product."
        )

    def lacking(self, saved: Record, action: str) -> str | None:
        # Tracking it too: "the latest tracking details" of a cancelled order contradict it.
        return self.closed(saved, self.source)

    def outside(self, record: Record, kind: Mapping[str, Any]) -> str:
        wanted = kind.get("status")
        if record.get("status") not in _ORDER_STAGES or not wanted:
            return super().outside(record, kind)
        return self._stage(record, wanted if isinstance(wanted, list | tuple) else (wanted,))

    def _stage(self, record: Record, wanted: Sequence[str]) -> str:
        """Why an order at its stage is not one to work on where ``wanted`` stages are."""
        status = record["status"]
        what = f" ({record['quantity']} x {record['product']})" if record.get("product") else ""
        if "shipped" in wanted and status in _NOT_SHIPPED:
            why = "there is no shipment to track yet"
        elif "shipped" in wanted:
            why = "nothing of it is still on its way"
        elif "delivered" in wanted:
            why = "nothing of it has reached the customer to report, return or repair yet"
        elif status == "shipped":
            why = "it is too late to rush, change or cancel it"
        else:
            why = "it is too late to rush, change or cancel it; a return can be started instead"
        return f"Order {record.get('id', '')}{what} {_ORDER_STAGES[status]}, so {why}."

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        customer = customer_asked(ctx)
        if customer is not None:
            out["customer_id"] = customer.value
        elif stated.unknown_organisations():
            out.update(self._new_buyer(stated.unknown_organisations()[0].shown, ctx))
        quantity = next((q for q in stated.quantities if not q.unit), None)
        if quantity is not None:
            out["quantity"] = max(1, int(quantity.count))
            modelled = _MODEL_CODE.search(quantity.item)
            product = None if modelled else best_product(quantity.item, ctx)
            out["product"] = product["name"] if product else _title(quantity.item)
        else:
            for product in ctx.data.records("products"):
                if stated.mentions(product["name"].lower()):
                    out["product"] = product["name"]
                    break
        if stated.amount is not None:
            out["total"] = stated.amount.amount
            out["currency"] = stated.amount.currency
        return out

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("id", self.new_id(ctx))
        prospect = record.get("quoted_customer")
        if not record.get("customer_id") and prospect and not _customer_named(prospect, ctx):
            # "Turn it into an order" after a quote for a prospect: their first order.
            record.update(self._new_buyer(str(prospect), ctx))
        if not record.get("customer_id"):
            record["customer_id"] = ctx.pick(c["id"] for c in ctx.data.records("customers"))
        # Whose order it is: its name for the answer, its country for the currency.
        buyer = (
            ctx.data.lookup("customers", where={"id": record["customer_id"]})
            if not (record.get("customer") and record.get("currency"))
            else []
        )
        if not record.get("customer"):
            # A customer opened in this conversation is not in the data yet: as named.
            named = ctx.stated.unknown_organisations()
            record["customer"] = (
                buyer[0]["name"] if buyer else named[0].shown if named else record["customer_id"]
            )
        if not record.get("product"):
            record["product"] = ctx.pick(ctx.data.records("products"))["name"]
        else:
            # A product typed in a form ("standing desk") is the catalogue's, when it has one;
            # one typed with its model ("VX-900 patient monitor") is that model, as typed.
            listed = best_product(str(record["product"]), ctx)
            if (
                listed is not None
                and not _MODEL_CODE.search(str(record["product"]))
                and not ctx.data.lookup("products", where={"name": record["product"]})
            ):
                record["product"] = listed["name"]
        self._priced_as_quoted(record, ctx)
        if not record.get("quantity"):
            record["quantity"] = ctx.pick((1, 2, 3, 5, 10))
        product = _catalogue(record["product"], ctx)
        if not record.get("currency"):
            # In the customer's currency, as a quote for them is (a British buyer pays in GBP).
            country = buyer[0].get("country") if buyer else None
            record["currency"] = ctx.places.currency_of(country, product["currency"])
        if record.get("unit_price") is None:
            total = record.get("total")
            record["unit_price"] = (
                round(total / record["quantity"], 2)
                if total
                else ctx.convert(product["price"], product["currency"], record["currency"])
            )
        if record.get("total") is None:
            record["total"] = round(record["unit_price"] * record["quantity"], 2)
        record.setdefault("status", "placed")

    @staticmethod
    def _priced_as_quoted(record: Record, ctx: Context) -> None:
        """An order of the product a quote saved here is at the quoted unit price, in the
        quoted currency (it was priced anew from the catalogue); an order of another product,
        or one whose amount the request states, takes nothing of the quote. A list price
        asked (no quantity, no customer) quoted nobody: the order is priced in the customer's
        currency, as any."""
        price, currency = record.get("quoted_price"), record.get("quoted_currency")
        if (
            record.get("product") != record.get("quoted_product")
            or not isinstance(price, int | float)
            or not isinstance(record.get("quoted_quantity"), int)
        ):
            for key in [k for k in record if k.startswith("quoted_")]:
                record.pop(key)
            return
        if record.get("total") is None and record.get("unit_price") is None:
            record.setdefault("currency", currency)
            record["unit_price"] = ctx.convert(price, str(currency), record["currency"])

    def change(self, base: Record, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        unit = base.get("unit_price") or (
            base["total"] / base["quantity"] if base.get("quantity") else base.get("total", 0)
        )
        total = base.get("total", 0)
        quantity = next((q for q in stated.quantities if not q.unit), None)
        named = quantity is not None and quantity.item.lower() not in _COUNT_NOUNS
        if named and not _words(quantity.item) & _words(base.get("product", "")):
            # "5 webcams" on an order of desks: the order now holds what the request names.
            product = best_product(quantity.item, ctx) or _new_product(quantity.item, ctx)
            currency = base.get("currency") or product["currency"]
            unit = ctx.convert(product["price"], product["currency"], currency)
            out["product"] = product["name"]
        if quantity is not None and (
            int(quantity.count) != base.get("quantity") or "product" in out
        ):
            count = max(1, int(quantity.count))
            if "product" not in out and stated.mentions(" more ", " extra ", " another ", " add "):
                count += int(base.get("quantity") or 0)
            out["quantity"] = count
            total = round(unit * count, 2)
            out["total"] = total
        elif quantity is None and (more := count_more(stated.text)) is not None:
            # "They want 15 more on that": more of what it holds.
            out["quantity"] = max(1, int(base.get("quantity") or 0) + more)
            total = out["total"] = round(unit * out["quantity"], 2)
        if stated.percent is not None and stated.mentions("off", "discount", "reduction"):
            out["discount_percent"] = stated.percent
            out["total"] = round(total * (1 - stated.percent / 100), 2)
        if stated.amount is not None:
            out["total"], out["currency"] = stated.amount.amount, stated.amount.currency
        return out


# "30 units" of an order counts what it holds: the product stays.
_COUNT_NOUNS = frozenset({"unit", "units", "piece", "pieces", "item", "items", "pc", "pcs"})


def _customer_named(name: object, ctx: Context) -> bool:
    return bool(ctx.data.lookup("customers", where={"name": str(name)}))


def customer_asked(ctx: Context) -> Asked | None:
    """The customer the request names, as a filter on the records of that customer."""
    ids = ctx.stated.ids_of("CUS")
    if ids:
        return Asked("customer_id", ids[0], f"for {ids[0]}")
    known = ctx.stated.names_of("customer")
    if known:
        found = ctx.data.lookup("customers", where={"name": known[0].shown})
        if found:
            return Asked("customer_id", found[0]["id"], f"for {known[0].shown}")
    return None


# An amount said of the whole ("for about 18,000 EUR", "12k in total") or of each one ("at
# 1,200 EUR", "1,200 EUR each").
_AMOUNT = (
    r"(?:[€$£]\s?\d"
    r"|\d[\d,.]*\s*(?:k\b|m\b)?\s*(?:(?-i:[A-Z]{3})\b|euros?\b|dollars?\b|pounds?\b))"
)
_TOTAL_SAID = re.compile(
    rf"\b(?:for|total(?:ling)?|budget(?:\s+of)?|worth)\s+(?:of\s+)?"
    rf"(?:about\s+|around\s+|roughly\s+|approximately\s+|some\s+)?{_AMOUNT}"
    rf"|{_AMOUNT}\s+(?:in\s+all|in\s+total|all\s+in|altogether)\b",
    re.IGNORECASE,
)
_EACH_SAID = re.compile(
    r"\b(?:each|apiece|a\s+piece|per\s+(?:unit|piece|item|one|seat|licen[cs]e))\b"
    rf"|\bat\s+(?:about\s+|around\s+)?{_AMOUNT}",
    re.IGNORECASE,
)
# A product named by a model number ("the X200 scanner", "releasing the X300").
_MODEL = re.compile(r"\b([A-Z]{1,3}-?\d{2,4}[A-Za-z]?)(\s+[a-z]{3,})?\b")
# What a request buys or runs out of, when it gives no count ("we're out of printer paper").
_ITEM = re.compile(
    r"\b(?:out of|buy|order|need|get|purchase)\s+(?:a |an |some |more |new |the )?"
    r"([a-z][a-z -]{2,30}?)(?=\s+(?:for|on|in|from|to|at|by|before)\b|[,.?!]|$)"
)


def model_named(text: str) -> str | None:
    found = _MODEL.search(text)
    if not found:
        return None
    noun = (found.group(2) or "").strip()
    return f"{found.group(1)} {noun.capitalize()}".strip() if noun else found.group(1)


# The product a price or stock question is about ("the list price of the A4 label printer",
# "is the ergonomic chair available", "how much do we charge for the X").
_PRICED = re.compile(
    r"\b(?:price|cost|stock)\s+(?:of|for)\s+(?:the |a |an |our )?([a-z0-9][a-z0-9 -]{2,40}?)"
    r"(?=\s+(?:and|in|at|for|is|do|does)\b|[,.?!]|$)"
    r"|\bis\s+(?:the |a |an |our )([a-z0-9][a-z0-9 -]{2,40}?)\s+(?:available|in stock)\b"
    r"|\bhow much (?:do we charge for|is|are|does) (?:the |a |an |our )?"
    r"([a-z0-9][a-z0-9 -]{2,40}?)(?=\s+(?:cost|and)\b|[,.?!]|$)"
)


def _title(item: str) -> str:
    # A word typed with capitals ("VX-900", "iPhone") is kept as typed.
    return " ".join(w if any(c.isupper() for c in w) else w.capitalize() for w in item.split())


# What a count may be of that is no product ("a 5,000 unit order", "3 projects").
_NOT_GOODS = frozenset({"order", "orders", "deal", "deals", "contract", "project", "projects"})


def _is_goods(item: str) -> bool:
    """Whether what a request counts or prices is a product: not "a 5,000 unit order" (the
    size of an order) nor "stock for the big order" (what an order needs)."""
    words = item.split()
    return bool(words) and words[-1] not in _NOT_GOODS


def _counted_item(ctx: Context, quantity: Quantity) -> str:
    """What a count is of: its item, or what a measure of it holds ("200 reams of paper":
    paper, not reams)."""
    of = re.search(
        rf"\b{quantity.count:g}\s+{re.escape(quantity.item)}\w*\s+of\s+"
        r"([a-z][a-z -]{1,30}?)(?=\s+(?:for|on|in|from|to|at|by|before)\b|[,.?!]|$)",
        ctx.stated.text.lower(),
    )
    return of.group(1) if of else quantity.item


def _buyer(record: Record, ctx: Context) -> Record | None:
    """The customer of the data a quote is for: the one the request names, else the one the
    conversation gave it (a contract's counterparty); None for anyone else."""
    named = [n.known for n in ctx.stated.organisations if n.kind == "customer" and n.known]
    for name in (*named, record.get("customer")):
        found = ctx.data.lookup("customers", where={"name": name}) if name else []
        if found:
            return found[0]
    return None


def _catalogue(name: str, ctx: Context) -> Record:
    """The catalogue product of that name, else one priced like its category."""
    found = ctx.data.lookup("products", where={"name": name})
    return found[0] if found else _new_product(name, ctx)


class Products(Recipe):
    source = "products"
    noun = "product"
    id_field = "sku"
    id_prefix = "SKU"
    name_field = "name"
    name_kinds = ("product",)
    named_only = True

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        # "I ordered 20 x Summit Standing Desk": as many as asked ("I ordered Summit Standing
        # Desk" for twenty).
        count = record.get("quantity")
        many = isinstance(count, int) and count > 1
        return {"items": f"{count} x {record.get('name')}" if many else str(record.get("name"))}

    def name_question(self) -> str | None:
        return "its name or SKU"

    def made_already(self, made: Record) -> str:
        # A quote, a requisition or a supplies order of products: what it holds, not "this
        # conversation already has product Core Office Chair".
        what = str(made.get("name") or "it")
        if made.get("quantity") and made.get("total") is not None:
            what = f"{made['quantity']} x {what}, {made['total']} {made.get('currency', '')} in all"
        return (
            f"That is already done in this conversation: {what}. I did not do it twice; say what "
            "should be different (the product, the quantity) to get another."
        )

    def asked(self, ctx: Context) -> Asked | None:
        found = super().asked(ctx)
        if found is not None:
            return found
        named = _product_named(ctx.stated)
        if named and not any(q.item.startswith(named) for q in ctx.stated.quantities):
            # "We're launching the Aurora X2": that product, the catalogue's or a new one of
            # that name; never another. (A count of it is read below, with its item.)
            listed = _listed_as(named, ctx)
            return (
                Asked("name", listed, listed) if listed else Asked("name", named, f"named {named}")
            )
        model = model_named(ctx.stated.text)
        if model:
            code = model.split()[0].casefold()
            for product in ctx.data.records("products"):
                if code in product["name"].casefold().split():
                    return Asked("name", product["name"], product["name"])
            return Asked("name", model, f"named {model}")
        quantity = next((q for q in ctx.stated.quantities if not q.unit), None)
        item = _counted_item(ctx, quantity) if quantity is not None else ""
        if quantity is not None and _is_goods(item):
            product = best_product(item, ctx)
            if product is not None:
                return Asked("name", product["name"], product["name"])
            # "200 reams of paper" where the catalogue has no paper: none, not a product
            # matched on the number.
            return Asked("name", _title(item), f"named {_title(item)}")
        priced = _PRICED.search(ctx.stated.text.lower())
        # As typed, so that a brand keeps its capitals ("the ProLink 9000 router").
        span = (
            next((priced.span(i) for i, g in enumerate(priced.groups(), 1) if g), None)
            if priced
            else None
        )
        item = ctx.stated.text[span[0] : span[1]] if span else ""
        if priced and _is_goods(item):
            # "the price of the A4 label printer": that product, or none of that name.
            product = best_product(item, ctx)
            if product is not None:
                return Asked("name", product["name"], product["name"])
            return Asked("name", _title(item), f"named {_title(item)}")
        return None

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        quantity = next((q for q in stated.quantities if not q.unit), None)
        model = model_named(stated.text)
        item = _ITEM.search(stated.text.lower())
        counted = _counted_item(ctx, quantity) if quantity is not None else ""
        if quantity is not None:
            out["quantity"] = max(1, int(quantity.count))
        if counted and counted.lower() not in _COUNT_NOUNS:
            # "250 units of the RX-500": the units count it, the model names it.
            product = best_product(counted, ctx)
            out["name"] = product["name"] if product else _title(counted)
        elif model:
            out["name"] = model
        elif named := _product_named(stated):
            # "We're launching the Aurora X2 smart thermostat": that product, as typed.
            out["name"] = _listed_as(named, ctx) or named
        elif item:
            product = best_product(item.group(1), ctx)
            out["name"] = product["name"] if product else _title(item.group(1))
        if stated.amount is not None:
            price = stated.amount.amount
            count = out.get("quantity", 1)
            if count > 1 and _TOTAL_SAID.search(stated.text) and not _EACH_SAID.search(stated.text):
                # "15 laptops for about 18,000 EUR" is the whole of it (it was 270,000 EUR).
                price = round(price / count, 2)
            out["price"], out["currency"] = price, stated.amount.currency
        elif stated.currency_named:
            out["currency"] = stated.currency_named  # "a quote ... in SEK"
        return out

    def fill(self, record: Record, ctx: Context) -> None:
        if not record.get("name"):
            record["name"] = ctx.pick(ctx.data.records("products"))["name"]
        product = _catalogue(record["name"], ctx)
        for key in ("sku", "category", "stock"):
            record.setdefault(key, product.get(key))
        if not record.get("sku"):
            record["sku"] = self.new_id(ctx)
        record["category"] = record.get("category") or "other"
        record["stock"] = record.get("stock") or 0
        buyer = _buyer(record, ctx)
        if not record.get("currency"):
            # A customer is quoted in their own currency, as their orders are (a German
            # customer opened here was quoted in the user's Singapore dollars).
            country = buyer.get("country") if buyer is not None else record.get("customer_country")
            record["currency"] = ctx.places.currency_of(country, product["currency"])
        if record.get("price") is None:
            record["price"] = ctx.convert(product["price"], product["currency"], record["currency"])
        record.setdefault("quantity", 1)
        record["total"] = round(record["price"] * record["quantity"], 2)
        if buyer is not None:
            record["buyer"] = buyer
            record["customer"] = buyer["name"]
        elif not record.get("customer") and ctx.stated.unknown_organisations():
            # A prospect not in the data yet is who the quote is for, as named.
            record["customer"] = ctx.stated.unknown_organisations()[0].shown
