"""The facts of a request, as agent search sees them: mostly noise, sometimes a signal.

People type requests full of facts: "fly me to Warsaw on 3 March", "ORD-000042 arrived
broken", "45 euros for a taxi", "sev2: uploads failing". The account's agents honour
those facts, but which agent is meant does not depend on them: a date, an amount or a
count says nothing about whether to book, cancel or claim. Worse, the agents' own
examples carry facts too ("The Warsaw workshop was called off, cancel my booking"), so
a request that happens to name the same city or number would lean towards that agent.

So search reads a word that states a fact as follows (`fact_word`):

- numbers, amounts, times, ordinals and model numbers (``3``, ``18:20``, ``5th``,
  ``15k``, ``x200``, ``2,800``) are left out, words that hold a digit (``2fa``) are not;
- month and weekday names (``March``, ``Tuesday``), days relative to today
  (``tomorrow morning``, ``next``) and currency codes and names (``EUR``, ``euros``) are
  left out;
- a severity, priority or quarter (``sev2``, ``P1``, ``Q3``) keeps its meaning:
  ``severity``, ``priority``, ``quarter``;
- an id keeps the meaning of its prefix (`ID_PREFIXES`): ``ORD-000042`` is an order,
  ``INC-00013`` an incident, ``INV-000512`` an invoice (`expand_facts`).

Names of people, companies and places are harder to tell from words; see
`search_text.terms` (``known``) for how the agents' examples leave them out.
"""

from __future__ import annotations

import re

from mock_account.understanding.things import AIRLINES

# The id prefixes of the account's business records (and PO for purchase orders),
# as the words they stand for. An id says which kind of record the request is about.
ID_PREFIXES: dict[str, str] = {
    "AST": "asset",
    "CAN": "candidate",
    "CAR": "rental car",
    "CTR": "contract",
    "CUS": "customer",
    "EMP": "employee",
    "EXP": "expense",
    "INC": "incident",
    "INV": "invoice",
    "ORD": "order",
    "PO": "purchase order",
    "SKU": "product",
    "TCK": "ticket",
    "VEN": "vendor",
    # Other prefixes for the same kinds (see understanding.ids.ID_ALIASES)
    "CS": "support case",
    "CASE": "support case",
    "SR": "support case",
    "TKT": "ticket",
    "SO": "order",
}

MONTHS = frozenset(
    """
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    """.split()
)
WEEKDAYS = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday
    mon tue tues wed thu thur thurs fri sat sun
    """.split()
)
# Days said relative to today: "tomorrow morning", "next Tuesday", "tonight".
RELATIVE_DAYS = frozenset(
    "today tomorrow yesterday tonight morning afternoon evening noon midnight next".split()
)
CURRENCIES = frozenset(
    """
    eur usd gbp chf sek nok dkk pln czk huf jpy cny inr aud cad nzd sgd hkd aed brl mxn zar krw
    euro euros dollar dollars
    """.split()
)

# sev2 / p1 / q3: the kind of fact stays a signal, its value does not.
_GRADED = re.compile(r"(sev|p|q)[1-5]")
# A number, with an ordinal, time or unit suffix, or a model number (x200, t480); not a
# word that merely holds a digit, like "2fa" or "ec2".
_NUMBER = re.compile(
    r"\d+(?:st|nd|rd|th|am|pm|k|m|bn|x|h|hr|hrs|min|mins|km|kg|gb|mb|tb)?|[a-z]\d+[a-z]?"
)
_GRADES = {"sev": "severity", "p": "priority", "q": "quarter"}
_ID = re.compile(r"\b([A-Za-z]{2,4})-\d{2,}\b")


def expand_facts(text: str) -> str:
    """Each record id of a known kind replaced by what it is: ``ORD-000042`` -> ``order``;
    ids of other kinds are left for `fact_word` (their digits go, the prefix stays). A flight
    number typed apart ("SQ 638") is a flight, and a percentage off ("12% off") a discount."""

    def word(match: re.Match[str]) -> str:
        return ID_PREFIXES.get(match.group(1).upper(), match.group(0))

    text = _SPACED_FLIGHT.sub("flight", _ID.sub(word, text))
    text = _LEFT_BEHIND.sub(r"\g<0> lost", text)
    return _PERCENT_OFF.sub("discount", text)


# A flight number: an airline's code and digits ("sq322"): a flight, whichever.
_FLIGHT = re.compile(rf"(?:{AIRLINES.lower()})\d{{2,4}}")
# The same in capitals with a space ("SQ 638"); lower case, "on 12" would be a flight.
_SPACED_FLIGHT = re.compile(rf"\b(?:{AIRLINES})\s\d{{2,4}}\b")
# A thing of one's own left behind somewhere ("left my work iPhone in a Grab") is lost.
_LEFT_BEHIND = re.compile(
    r"\b(?:left|forgot|dropped)\s+(?:my|our|his|her|their)\s+(?:[\w-]+\s+){1,3}?"
    r"(?:in|on|at)\s+(?:a|an|the)\b",
    re.IGNORECASE,
)
_PERCENT_OFF = re.compile(r"\b\d+(?:\.\d+)?\s?(?:%|percent|per\s+cent)\s+off\b", re.IGNORECASE)


def fact_word(word: str) -> str | None:
    """How search reads a lower-case `word` that states a fact: ``""`` to leave it out,
    the word it stands for (``sev2`` -> ``severity``), or None when it is no fact."""
    graded = _GRADED.fullmatch(word)
    if graded:
        return _GRADES[graded.group(1)]
    if _FLIGHT.fullmatch(word):
        return "flight"
    if _NUMBER.fullmatch(word):
        return ""
    if word in MONTHS or word in WEEKDAYS or word in RELATIVE_DAYS or word in CURRENCIES:
        return ""
    return None
