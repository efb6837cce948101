"""Contracts, suppliers and marketing campaigns."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date, timedelta
from typing import Any

from mock_account.business.vocab import (
    CAMPAIGN_AUDIENCES,
    CAMPAIGN_CHANNELS,
    CAMPAIGN_SEASONS,
    CAMPAIGN_THEMES,
    CONTRACT_KINDS,
    VENDOR_CATEGORIES,
)
from mock_account.understanding.lexicon import MONTH_WORDS
from mock_account.understanding.numbers import DIGITS_NUMBER, MULTIPLIER, parse_number

from ..changes import day_of_its_month, how_changed
from ..recipe import (
    Asked,
    Context,
    PartyRecipe,
    Recipe,
    Record,
    fits,
    keyword_choice,
    shown_money,
    text_date,
)
from ..stated import Stated

_KIND_WORDS: dict[str, tuple[str, ...]] = {
    "nda": ("nda", "non-disclosure", "nondisclosure", "confidentiality"),
    "msa": ("msa", "master services", "master service", "framework agreement"),
    "sow": ("sow", "statement of work"),
    "license": ("licence", "license", "subscription"),
    "lease": ("lease", "rent"),
    "employment": ("employment", "offer letter"),
    "purchase": ("purchase", "supply agreement", "buying"),
}
# Which suppliers sell a product category of the catalogue.
_SUPPLIED_BY: dict[str, str] = {
    "furniture": "office supplies",
    "software": "software licences",
    "peripherals": "hardware",
    "displays": "hardware",
    "audio": "hardware",
    "networking": "hardware",
    "storage": "hardware",
}
_CATEGORY_WORDS: dict[str, tuple[str, ...]] = {
    category: (category,) for category in VENDOR_CATEGORIES
} | {
    "cloud hosting": ("cloud", "hosting", "data centre", "data center"),
    "software licences": ("software",),
    "hardware": ("hardware", "laptops", "servers", "computers", "monitors"),
    "logistics": ("logistics", "shipping", "freight", "courier", "packaging", "pallets"),
    "catering": ("catering", "food", "coffee"),
    "office supplies": (
        "office supplies",
        "stationery",
        "paper",
        "chairs",
        "desks",
        "furniture",
    ),
    "marketing services": ("marketing services", "branded", "merchandise", "advertising"),
    "facilities": ("facilities", "cleaning", "maintenance", "forklift"),
    "recruiting": ("recruiting", "recruitment", "staffing"),
}
_CHANNEL_WORDS: dict[str, tuple[str, ...]] = {
    channel: (channel,) for channel in CAMPAIGN_CHANNELS
} | {
    "social": ("social", "linkedin", "instagram", "facebook", "tiktok"),
    "search": ("search ads", "google ads", "sem", "ppc"),
    "events": ("event", "webinar", "trade show", "booth"),
    "email": ("email", "newsletter", "mailing"),
    # Ads that follow visitors around the web are shown on web pages.
    "web": ("web", "website", "banner", "banners", "display ads", "retargeting", "remarketing"),
}
# Where a campaign runs: "on LinkedIn", "via email", "through search ads".
_RUNS_ON = re.compile(r"\b(?:on|via|through|over|in)\s+((?:\w+\s+){0,2}\w+)", re.IGNORECASE)
# "a supplier for laboratory chemicals", "an approved vendor for translation services in France".
_SUPPLY_ASKED = re.compile(
    r"\b(?:supplier|vendor|provider)s?\s+(?:for|of)\s+(?P<what>[a-z][a-z -]{2,40}?)"
    r"(?=\s+in\s+[A-Z]|[?.!,]|$)"
)
# An audience of everyone on a list: "to all customers", "all our subscribers", "to the
# customers list", "our partner mailing list".
_LISTED = r"(customers?|subscribers?|clients?|staff|employees?|partners?|members?|users?)"
_BROAD_AUDIENCE = re.compile(
    rf"\ball\s+(?:of\s+)?(?:our\s+)?{_LISTED}\b"
    # With who they are said before ("the APAC customers list", "our VIP clients list").
    rf"|\b(?:the|our|my)\s+(?P<who>(?:[\w-]+\s+){{0,2}}?){_LISTED}"
    rf"(?:\s+(?:e-?mail|mailing|newsletter))?\s+list\b",
    re.IGNORECASE,
)
# A number a request gives without a currency: "5,000", "2k", "7500" (not a percentage).
_BARE_AMOUNT = re.compile(rf"(?<![\w.,])({DIGITS_NUMBER}(?:{MULTIPLIER})?)(?![\w%])")


# Parts of a budget a request names in words ("cut it by a third", "double it" is not one).
_SHARES = {"half": 0.5, "a third": 1 / 3, "one third": 1 / 3, "a quarter": 0.25, "a fifth": 0.2}


# What a budget is multiplied by when a request says it in a word ("double the budget").
_FACTORS = {"double": 2.0, "triple": 3.0, "halve": 0.5, "half": 0.5}


def _factor(text: str) -> float | None:
    """The factor a request multiplies a budget by in a word ("double", "halve"), if any."""
    words = set(re.findall(r"[a-z]+", text.lower()))
    return next((v for k, v in _FACTORS.items() if k in words), None)


def _share(text: str, percent: float | None) -> float | None:
    """The part of a budget a request changes it by: its percentage, or a part in words."""
    if percent is not None:
        return percent / 100
    lowered = f" {text.lower()} "
    return next((v for k, v in _SHARES.items() if f" {k} " in lowered), None)


def _bare_amount(text: str) -> float | None:
    """The first amount of money a request gives as a plain number, if any (not a date's
    day: "on 3 December" is no budget)."""
    for found in _BARE_AMOUNT.finditer(text):
        after = text[found.end() :].split()
        if after and after[0].lower().strip(".,") in MONTH_WORDS:
            continue
        value = parse_number(found.group(1))
        return float(value) if value is not None else None
    return None


# A quoted title; an apostrophe inside a word ("let's") opens none.
_QUOTED = re.compile(r"[\"“]([^\"”]{3,60})[\"”]|(?<!\w)'([^']{3,60})'(?!\w)")
# "the Black Friday campaign", "the Black Friday email campaign", "the Black Friday
# retargeting ads" (what kind of campaign it is, is no part of its name).
_CAMPAIGN_NAME = re.compile(
    r"\b((?:[A-Z0-9][\w'&-]*\s){1,5})"
    r"(?:(?:email|e-mail|social|search|display|video|print|radio|ads?|paid|newsletter"
    r"|retargeting|remarketing|banner|promo|promotional|marketing)\s){0,2}"
    r"(?:campaign|ads|adverts)\b"
)
# "the October newsletter", "the spring promotion", "the Hannover fair".
_EVENT_NAME = re.compile(
    r"\b(?:the|our|a)\s+((?:[A-Za-z0-9][\w'&-]*\s){1,3}?)"
    r"(newsletter|promotion|promo|webinar|launch|fair|trade fair|summit|expo|conference|mailing)\b"
)
_NOT_NAMES = frozenset("the our a my this that next last new big".split())


# The month each season's campaigns start in ("a spring promotion" starts in March).
_SEASON_MONTHS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_SEASON = re.compile(r"\b(spring|summer|autumn|fall|winter)\b", re.IGNORECASE)


def _black_friday(year: int) -> date:
    """The day after the fourth Thursday of November."""
    first = date(year, 11, 1)
    thursday = first + timedelta(days=(3 - first.weekday()) % 7 + 21)
    return thursday + timedelta(days=1)


# The day each shopping holiday falls on in a year, and the names it goes by.
_HOLIDAYS: dict[str, Callable[[int], date]] = {
    "black friday": _black_friday,
    "cyber monday": lambda year: _black_friday(year) + timedelta(days=3),
    "christmas": lambda year: date(year, 12, 25),
    "xmas": lambda year: date(year, 12, 25),
    "valentine": lambda year: date(year, 2, 14),
    "halloween": lambda year: date(year, 10, 31),
    "new year": lambda year: date(year, 1, 1),
}
_HOLIDAY = re.compile(rf"\b({'|'.join(_HOLIDAYS)})", re.IGNORECASE)
# How long before its holiday a campaign for it starts.
_HOLIDAY_LEAD = timedelta(days=14)


def _holiday_start(text: str, today: date) -> date | None:
    """When a campaign for the holiday a request names starts: two weeks before the next
    one, or tomorrow when that is sooner ("a Black Friday campaign" started on 30 December,
    a day drawn at random)."""
    found = _HOLIDAY.search(text)
    if found is None:
        return None
    day_of = _HOLIDAYS[found.group(1).lower()]
    day = day_of(today.year)
    if day <= today + timedelta(days=1):
        day = day_of(today.year + 1)
    return max(day - _HOLIDAY_LEAD, today + timedelta(days=1))


def _season_start(text: str, today: date) -> date | None:
    """When a campaign for the season a request names starts: a week from today in that
    season ("a winter sale" on 1 December), else the season's first day ("a spring
    promotion": 1 March)."""
    found = _SEASON.search(text)
    if found is None:
        return None
    month = _SEASON_MONTHS[found.group(1).lower()]
    for year in (today.year - 1, today.year):
        start = date(year, month, 1)
        end = date(year + (month + 3 > 12), (month + 2) % 12 + 1, 1)
        if start <= today < end:
            return min(today + timedelta(days=7), end - timedelta(days=1))
    start = date(today.year, month, 1)
    return start if start > today else date(today.year + 1, month, 1)


def _campaign_name(text: str) -> str | None:
    quoted = list(_QUOTED.finditer(text))
    if len(quoted) == 1:
        # Two or more quoted are alternatives ("Your 2027 playbook" versus "What's new"),
        # not the name of what they are tried in.
        return (quoted[0].group(1) or quoted[0].group(2)).strip()
    named = _CAMPAIGN_NAME.search(text)
    if named:
        name = named.group(1).strip()
        if name.lower() not in _NOT_NAMES:
            return name
    event = _EVENT_NAME.search(text)
    if event:
        words = [w for w in event.group(1).split() if w.lower() not in _NOT_NAMES]
        if words:
            name = " ".join([*words, event.group(2)])
            return name[:1].upper() + name[1:]
    return None


# Where a contract stands, as an answer says it when it is not at the stage an agent needs.
_STAGES = {
    "draft": "is a draft, not signed yet: change the draft itself, or send it for signature "
    "before it is amended, billed, renewed or terminated.",
    "signed": "is already signed and in force; there is nothing left to sign.",
    "terminated": "is terminated; nothing in it can be amended, signed, billed or renewed any "
    "more.",
}


_MONTHLY = re.compile(r"\b(?:per|a|each|every) month\b|\bmonthly\b", re.IGNORECASE)


class Contracts(PartyRecipe):
    source = "contracts"
    noun = "contract"
    id_field = "id"
    id_prefix = "CTR"
    name_field = "counterparty"
    about_fields = ("counterparty",)
    by_name = "with {}"
    # A supplier's terms are with a supplier; anything else with a customer.
    side_field = "party_type"
    sides = ("supplier", "customer")

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out = self.named(stated)
        kind = keyword_choice(stated.text, _KIND_WORDS)
        if kind:
            out["kind"] = kind
        if stated.amount is not None:
            out["value"], out["currency"] = stated.amount.amount, stated.amount.currency
        when = stated.first_date
        if when is not None:
            out["renewal_date"] = when.isoformat()
        if stated.durations:
            # "a 3-year NDA", "they asked for 5 years instead": how long it binds.
            out["term"] = stated.durations[0]
        return out

    def made_already(self, made: Record) -> str:
        # "Is our NDA with Zephyr still valid?" after drafting it: what it is and where it
        # stands ("This conversation already has contract Zephyr Analytics" answered nothing).
        kind = "NDA" if made.get("kind") == "nda" else "contract"
        number, party = made.get("id", ""), made.get("counterparty", "them")
        if made.get("status", "draft") == "draft":
            stands = (
                "was drafted in this conversation and is not signed yet, so it is not in force; "
                "send it out for signature when the terms look right."
            )
        else:
            stands = _STAGES.get(str(made.get("status")), f"is {made.get('status')}.")
        return f"{kind} {number} with {party} {stands} I did not draft a second one."

    def closed(self, saved: Record, source: str) -> str | None:
        # An NDA sets no prices or supply; a customer's contract has no prices of a supplier
        # to renegotiate, and a supplier's no sale to quote for.
        number, party = saved.get("id", "This contract"), saved.get("counterparty", "them")
        if saved.get("kind") == "nda":
            return (
                f"{number} is a non-disclosure agreement with {party}; it sets no prices, "
                "supply or fees to work from."
            )
        wanted = {"vendors": "supplier", "products": "customer"}.get(source)
        if wanted and saved.get("party_type") not in (None, "", wanted):
            return (
                f"{party} is a {saved['party_type']} of ours on contract {number}, not a {wanted}."
            )
        return None

    def outside(self, record: Record, kind: Mapping[str, Any]) -> str:
        number, party = record.get("id", "This contract"), record.get("counterparty", "them")
        if record.get("kind") == "nda" and not fits(record, {"kind": kind.get("kind", "nda")}):
            return (
                f"{number} is a non-disclosure agreement with {party}; it has no value, "
                "billing or spend to work from."
            )
        wanted = kind.get("party_type")
        if wanted and not fits(record, {"party_type": wanted}):
            return (
                f"{number} is a contract with {party}, a {record.get('party_type')} of ours, "
                f"not an agreement with a {wanted}."
            )
        stage = kind.get("status")
        if stage and record.get("status") in _STAGES and not fits(record, {"status": stage}):
            return f"{number} with {party} {_STAGES[record['status']]}"
        return super().outside(record, kind)

    def differs(self, record: Record, ctx: Context) -> str | None:
        # What a customer's contract is worth is what gets billed and renewed: "set up billing
        # at 2500 EUR a month" on a contract of 404004.35 GBP is not set up at either amount
        # silently. (An amount said of a supplier's contract may be spend against it.)
        money, value = ctx.stated.amount, record.get("value")
        if money is None or record.get("party_type") != "customer":
            return None
        if not isinstance(value, int | float) or value <= 0:
            return None
        if money.currency == record.get("currency") and abs(money.amount - value) <= 0.01 * value:
            return None  # the contract's amount, as people round it
        number, party = record.get("id", "This contract"), record.get("counterparty", "them")
        period = " a month" if _MONTHLY.search(ctx.stated.text) else ""
        return (
            f"{number} with {party} is for {shown_money(value, record.get('currency', ''))}, not "
            f"{shown_money(money.amount, money.currency)}{period}: billing and renewals follow its "
            "own terms. Amend the contract first if the price has changed."
        )

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("id", self.new_id(ctx))
        self.fill_party(record, ctx)
        if record.get("kind") not in CONTRACT_KINDS:
            record["kind"] = ctx.pick(("msa", "sow", "license", "purchase"))
        if not record.get("currency"):
            record["currency"] = ctx.home_currency()
        if record.get("value") is None:
            record["value"] = (
                0.0 if record["kind"] == "nda" else ctx.price(5000, 250000, record["currency"])
            )
        if text_date(record.get("renewal_date")) is None:
            record["renewal_date"] = (ctx.today + timedelta(days=365)).isoformat()
        # A contract made here is drafted; it is in force once signed.
        record.setdefault("status", "draft")


class Vendors(Recipe):
    source = "vendors"
    noun = "supplier"
    id_field = "id"
    id_prefix = "VEN"
    id_digits = 4
    name_field = "name"
    name_kinds = ("vendor",)
    unknown_names = "organisations"
    unique_name = True
    # A supplier nobody names is asked for, not set up under a made-up name ("a new supplier
    # of packaging in Poland" was onboarded as "Pollard Foods").
    named_only = True

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out = self.named(stated)
        if "name" not in out and (customers := stated.names_of("customer")):
            # A company we sell to may supply us too: the one the request names is onboarded
            # ("set up Castellano Textiles as a supplier"), in its own country.
            out["name"] = customers[0].shown
            known = ctx.data.lookup("customers", where={"name": out["name"]})
            if known and known[0].get("country"):
                out["country"] = known[0]["country"]
        category = keyword_choice(stated.text, _CATEGORY_WORDS)
        if category:
            out["category"] = category
        place = next((p for p in stated.places if p.country), None)
        if place is not None:
            out["country"] = place.country
        return out

    def sampled(self, ctx: Context) -> tuple[Record, str | None]:
        stated = self.stated(ctx)
        filters = {k: v for k, v in stated.items() if k in ("category", "country")}
        asked = _SUPPLY_ASKED.search(ctx.stated.text)
        if "category" in filters or asked is None:
            return filters, None
        where = f" in {filters['country']}" if "country" in filters else ""
        return filters, (
            f"I found no approved supplier for {asked.group('what').strip()}{where}: our "
            f"approved suppliers cover {', '.join(VENDOR_CATEGORIES)}."
        )

    def unsampled(self, ctx: Context) -> str | None:
        if self.stated(ctx).get("name"):
            return None
        return (
            "Which goods or services is it for? Our approved suppliers cover "
            f"{', '.join(VENDOR_CATEGORIES)}; tell me which and I'll go ahead. I won't pick a "
            "supplier at random."
        )

    def preferred(self, given: Record, ctx: Context) -> Record:
        # The supplier of an order's product sells that kind of thing (desks: office supplies).
        product = next(
            (p for p in ctx.data.records("products") if p["name"] == given.get("product")), None
        )
        category = _SUPPLIED_BY.get(product["category"]) if product else None
        return {"category": category} if category else {}

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("id", self.new_id(ctx))
        if not record.get("name"):
            record["name"] = ctx.company_name()
        if not record.get("category"):
            record["category"] = ctx.pick(VENDOR_CATEGORIES)
        if not record.get("country"):
            record["country"] = ctx.places.country_of(ctx.home_office()[0]) or "United States"
        if record.get("rating") is None:
            record["rating"] = round(ctx.rng.uniform(3.0, 4.8), 1)


class Campaigns(Recipe):
    source = "campaigns"
    noun = "campaign"
    name_field = "name"
    name_kinds = ("campaign",)

    def asked(self, ctx: Context) -> Asked | None:
        found = super().asked(ctx)
        if found is not None:
            return found
        name = _campaign_name(ctx.stated.text)
        if name:
            return Asked("name", name, f"called {name}")
        return None

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        known = stated.names_of("campaign")
        name = known[0].shown if known else _campaign_name(stated.text)
        if name:
            out["name"] = name
        # Where it runs is the channel ("a webinar campaign on LinkedIn" is social, though
        # the webinar is named first); else the first channel word.
        placed = _RUNS_ON.search(stated.text)
        channel = (placed and keyword_choice(placed.group(1), _CHANNEL_WORDS)) or keyword_choice(
            stated.text, _CHANNEL_WORDS
        )
        if channel:
            out["channel"] = channel
        if stated.amount is not None:
            out["budget"], out["currency"] = stated.amount.amount, stated.amount.currency
        when = (
            stated.first_date
            or _holiday_start(stated.text, ctx.today)
            or _season_start(stated.text, ctx.today)
        )
        if when is not None:
            out["start_date"] = when.isoformat()
        for audience in CAMPAIGN_AUDIENCES:
            if stated.mentions(audience.lower().split(" in ")[0]):
                out["audience"] = audience
        broad = _BROAD_AUDIENCE.search(stated.text)
        if broad and "audience" not in out:
            # "to all customers", "to all our subscribers": everyone on that list.
            listed = (broad.group(1) or broad.group(3)).lower()
            who = broad.group("who") or ""
            out["audience"] = f"all {listed}" if broad.group(1) else f"the {who}{listed} list"
        return out

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        # How it stands, as a results report says it: a campaign still to start has none
        # ("ran from 2027-03-01 …; I sent you its report of clicks" was said in December).
        start = text_date(record.get("start_date"))
        amount = record.get("budget")
        money = shown_money(amount, record.get("currency", "")) if amount is not None else "none"
        budget = f"with a budget of {money}"
        if start is not None and start > today:
            return {
                "standing": f"starts on {start.isoformat()} {budget}, so it has no results yet; "
                "its clicks, conversions and cost per lead come in once it runs",
                # "How much have we spent so far?" of a campaign still to start: nothing.
                "spend_standing": f"starts on {start.isoformat()}, so nothing is spent yet of "
                f"its budget of {money}; I will reconcile the costs against it once it runs",
            }
        since = f"ran from {start.isoformat()} " if start is not None else ""
        return {
            "standing": f"{since}{budget}; I sent you its report of clicks, conversions and cost "
            "per lead",
            "spend_standing": f"has a budget of {money}; I matched the booked costs and "
            "accruals against it and sent the reconciliation to finance for sign-off",
        }

    def unchanged(self, record: Record) -> str | None:
        # "The budget is now …" of a budget nobody changed would say it was changed.
        budget = record.get("budget")
        said = f" at {shown_money(budget, record.get('currency', ''))}" if budget else ""
        return (
            f'"{record.get("name", "The campaign")}" is as it was{said}: the request does not say '
            "what to change. Tell me the new budget, or how much to add or cut."
        )

    def change(self, base: Record, ctx: Context) -> Record:
        out: Record = {}
        stated = ctx.stated
        # "Raise its budget to 26,000" sets it; "bump it up by 5,000" adds to it.
        how = how_changed(stated.text)
        more, less = how == "up", how == "down"
        currency = base.get("currency") or ""
        # "Put another 5,000 behind it", "cut it by 2k": a number without a currency is in
        # the budget's own.
        bare = _bare_amount(stated.text) if stated.amount is None and currency else None
        if bare is not None and stated.percent is None:
            said: tuple[float, str] | None = (bare, currency)
        elif stated.amount is not None:
            said = (stated.amount.amount, stated.amount.currency)
        else:
            said = None
        if said is not None and (more or less) and base.get("budget") is not None:
            # The amount comes on top (or off), in the budget's currency.
            change = ctx.convert(said[0], said[1], currency or said[1])
            out["budget"] = round(float(base["budget"]) + (-change if less else change), 2)
        elif said is not None:
            out["budget"], out["currency"] = said
        elif (share := _share(stated.text, stated.percent)) is not None and base.get("budget"):
            sign = -1 if stated.mentions("cut", "reduce", "lower", "decrease", " less") else 1
            out["budget"] = round(base["budget"] * (1 + sign * share), 2)
        elif (factor := _factor(stated.text)) is not None and base.get("budget"):
            out["budget"] = round(float(base["budget"]) * factor, 2)
        when = day_of_its_month(stated.first_date, stated.text, text_date(base.get("start_date")))
        if when is not None:
            out["start_date"] = when.isoformat()
        return {k: v for k, v in out.items() if base.get(k) != v}

    def fill(self, record: Record, ctx: Context) -> None:
        start = text_date(record.get("start_date")) or ctx.day_after_today(14, 45)
        record["start_date"] = start.isoformat()
        if not record.get("name"):
            season = CAMPAIGN_SEASONS[((start.month - 3) % 12) // 3]
            record["name"] = f"{season} {start.year} {ctx.pick(CAMPAIGN_THEMES)}"
        if record.get("channel") not in CAMPAIGN_CHANNELS:
            record["channel"] = ctx.pick(CAMPAIGN_CHANNELS)
        if not record.get("currency"):
            record["currency"] = ctx.home_currency()
        if record.get("budget") is None:
            record["budget"] = ctx.price(5000, 80000, record["currency"])
        audience = record.get("audience")
        if isinstance(audience, list):
            # The segments chosen in the form: "small business and existing customers".
            named = [str(a) for a in audience if a]
            *most, last = named or [""]
            record["audience"] = f"{', '.join(most)} and {last}" if most else last
        if not record.get("audience"):
            record["audience"] = ctx.pick(CAMPAIGN_AUDIENCES)
