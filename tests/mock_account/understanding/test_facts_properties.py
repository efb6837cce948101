"""Properties: what is rendered into a sentence comes back exactly; any text is handled."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from understanding_data import NAMES, TODAY

from mock_account.understanding import ID_KINDS, extract_facts

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TEMPLATES = [
    "{x}",
    "Please look at {x} again.",
    "Can you check {x} for me?",
    "The customer asked about {x}, twice.",
    "{x} — that is what they said",
    "Re: {x}",
    "I need {x} asap",
]
templates = st.sampled_from(TEMPLATES)

amounts = st.decimals(
    min_value=Decimal("0.01"), max_value=Decimal("999999.99"), places=2, allow_nan=False
)
CURRENCY_FORMS = [
    ("EUR", "{a} EUR"),
    ("EUR", "€{a}"),
    ("EUR", "{a} euros"),
    ("USD", "${a}"),
    ("USD", "USD {a}"),
    ("GBP", "£{a}"),
    ("GBP", "{a} GBP"),
    ("CHF", "CHF {a}"),
    ("CHF", "{a} Swiss francs"),
    ("JPY", "¥{a}"),
]


def _render_amount(value: Decimal, grouped: bool) -> str:
    return f"{value:,.2f}" if grouped else f"{value:.2f}"


@SETTINGS
@given(amounts, st.sampled_from(CURRENCY_FORMS), st.booleans(), templates)
def test_an_amount_comes_back(
    value: Decimal, form: tuple[str, str], grouped: bool, template: str
) -> None:
    currency, pattern = form
    money = pattern.format(a=_render_amount(value, grouped))
    text = template.format(x=money)
    facts = extract_facts(text, TODAY)
    assert [(m.amount, m.currency) for m in facts.amounts] == [(value, currency)]
    assert facts.amounts[0].text == money


@SETTINGS
@given(
    st.sampled_from(sorted(ID_KINDS)),
    st.integers(min_value=1, max_value=9999),
    st.sampled_from(["-", "_", ""]),
    st.sampled_from([str.upper, str.lower, str.title]),
    st.booleans(),
    templates,
)
def test_an_id_comes_back(
    prefix: str, number: int, separator: str, case, padded: bool, template: str
) -> None:
    width = ID_KINDS[prefix][1]
    digits = f"{number:0{width}d}" if padded else str(number)
    said = f"{case(prefix)}{separator}{digits}"
    facts = extract_facts(template.format(x=said), TODAY)
    assert [f.id for f in facts.ids] == [f"{prefix}-{number:0{width}d}"]
    assert facts.ids[0].kind == ID_KINDS[prefix][0]


RANGE_FORMS = [
    lambda a, b: f"from {a.day} {a:%B} to {b.day} {b:%B}",
    lambda a, b: f"{a:%B} {a.day} to {b:%B} {b.day}",
    lambda a, b: f"between {a.day} {a:%b} and {b.day} {b:%b}",
    lambda a, b: f"from the {_ordinal(a.day)} of {a:%B} until the {_ordinal(b.day)} of {b:%B}",
    lambda a, b: f"{a.isoformat()} - {b.isoformat()}",
]


def _ordinal(n: int) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


todays = st.dates(min_value=dt.date(2020, 1, 1), max_value=dt.date(2035, 12, 31))


@SETTINGS
@given(
    todays,
    st.integers(min_value=0, max_value=330),
    st.integers(min_value=1, max_value=30),
    st.sampled_from(RANGE_FORMS),
    templates,
)
def test_a_date_range_comes_back(
    today: dt.date, offset: int, length: int, form, template: str
) -> None:
    start = today + dt.timedelta(days=offset)
    end = start + dt.timedelta(days=length)
    facts = extract_facts(template.format(x=form(start, end)), today)
    assert [(r.start, r.end) for r in facts.date_ranges] == [(start, end)]
    assert facts.dates == ()


@SETTINGS
@given(
    todays,
    st.integers(min_value=0, max_value=364),
    st.sampled_from(["{d.day} {d:%B}", "{d:%B} {d.day}", "the {o} of {d:%B}", "{d:%b} {o}"]),
    templates,
)
def test_a_day_without_a_year_is_the_next_one(
    today: dt.date, offset: int, form: str, template: str
) -> None:
    day = today + dt.timedelta(days=offset)
    said = form.format(d=day, o=_ordinal(day.day))
    facts = extract_facts(template.format(x=said), today)
    assert [d.date for d in facts.dates] == [day]


@SETTINGS
@given(todays, st.integers(min_value=1, max_value=364))
def test_a_past_day_without_a_year_is_the_last_one(today: dt.date, back: int) -> None:
    day = today - dt.timedelta(days=back)
    facts = extract_facts(f"I paid for the taxi on {day.day} {day:%B}", today)
    assert [d.date for d in facts.dates] == [day]


@SETTINGS
@given(todays, st.integers(min_value=0, max_value=6), st.sampled_from(["next", "last", ""]))
def test_weekdays_fall_where_the_rules_say(today: dt.date, weekday: int, qualifier: str) -> None:
    name = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][weekday]
    facts = extract_facts(f"{qualifier} {name}".strip(), today)
    found = facts.dates[0].date
    assert found.weekday() == weekday
    monday = today - dt.timedelta(days=today.weekday())
    if qualifier == "next":
        assert monday + dt.timedelta(days=7) <= found < monday + dt.timedelta(days=14)
    elif qualifier == "last":
        assert today - dt.timedelta(days=7) <= found < today
    else:
        assert today < found <= today + dt.timedelta(days=7)


@SETTINGS
@given(st.integers(min_value=1, max_value=400), st.sampled_from(["nights", "days"]))
def test_a_stay_counts_its_nights(count: int, unit: str) -> None:
    facts = extract_facts(f"a room for {count} {unit} from 9 December", TODAY)
    stay = facts.date_range
    assert stay is not None and stay.start == dt.date(2026, 12, 9)
    assert stay.nights == (count if unit == "nights" else count - 1)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_valid_facts(text: str) -> None:
    facts = extract_facts(text, TODAY, names=NAMES)
    for _, fact in facts.facts():
        start, end = fact.span
        assert 0 <= start < end <= len(text)
        assert text[start:end] == fact.text
    facts.to_dict()


WORDS = st.sampled_from(
    "Book a flight to Berlin next Tuesday for €300 3 laptops sev2 ORD-42 urgent not from the "
    "14-16 December Hoffmann Logistics Anna Schmidt in March , . and 10% push back by a week "
    "Nice Reading May tomorrow morning at 3pm Smith Foods".split()
)


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=25))
def test_word_salad_gives_valid_facts(words: list[str]) -> None:
    text = " ".join(words)
    facts = extract_facts(text, TODAY, names=NAMES)
    spans = sorted(fact.span for _, fact in facts.facts())
    for start, end in spans:
        assert text[start:end]
    # Names of one span may repeat (one name of two kinds); others never overlap.
    distinct = sorted(set(spans))
    for (_, end), (start, _) in zip(distinct, distinct[1:], strict=False):
        assert end <= start
