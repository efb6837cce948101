"""Amounts with a currency, percentages, and counts of things."""

from __future__ import annotations

from decimal import Decimal

import pytest
from understanding_data import TODAY

from mock_account.understanding import extract_facts


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("The taxi was 45 euros", "45.00", "EUR"),
        ("a budget of $1,200", "1200.00", "USD"),
        ("€300 for the hotel", "300.00", "EUR"),
        ("EUR 1.5k for catering", "1500.00", "EUR"),
        ("the invoice says 1,200.50 GBP", "1200.50", "GBP"),
        ("£80 for dinner", "80.00", "GBP"),
        ("CHF 200 for the train", "200.00", "CHF"),
        ("200 Swiss francs", "200.00", "CHF"),
        ("2 million yen", "2000000.00", "JPY"),
        ("the dinner came to 1.2 million rupiah", "1200000.00", "IDR"),
        ("a 3.5 lakh INR order for test rigs", "350000.00", "INR"),
        ("US$ 50", "50.00", "USD"),
        ("C$75 for parking", "75.00", "CAD"),
        ("a 3,182 USD trip", "3182.00", "USD"),
        ("claim 654.91 GBP", "654.91", "GBP"),
        ("1.200,50 € in total", "1200.50", "EUR"),
        ("forty-five pounds", "45.00", "GBP"),
        ("100 bucks", "100.00", "USD"),
        ("usd 20 for snacks", "20.00", "USD"),
        ("a €2m contract", "2000000.00", "EUR"),
        ("¥5000 for the taxi", "5000.00", "JPY"),
        ("₹500", "500.00", "INR"),
        ("5 dollars", "5.00", "USD"),
        ("a thousand dollars", "1000.00", "USD"),
        ("300 SEK", "300.00", "SEK"),
        ("2,500 Danish kroner", "2500.00", "DKK"),
        ("$19.999", "20.00", "USD"),
        ("EUR 1,234,567.89", "1234567.89", "EUR"),
    ],
)
def test_amounts(text: str, amount: str, currency: str) -> None:
    facts = extract_facts(text, TODAY)
    assert [(m.amount, m.currency) for m in facts.amounts] == [(Decimal(amount), currency)]
    found = facts.amounts[0]
    assert text[found.span[0] : found.span[1]] == found.text


def test_several_amounts_in_order() -> None:
    facts = extract_facts("Flights $1,200, hotel €300 and dinner £80", TODAY)
    assert [(str(m.amount), m.currency) for m in facts.amounts] == [
        ("1200.00", "USD"),
        ("300.00", "EUR"),
        ("80.00", "GBP"),
    ]


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("Launch it on LinkedIn from 14 December, budget 35,000.", "35000.00"),
        ("12 Aeron chairs for the office, around 2,100 each", "2100.00"),
        ("a trip to Jakarta, estimated cost around 2,800", "2800.00"),
        ("They just wired 20,000 of that this morning", "20000.00"),
        ("bump the budget up by another 10k", "10000.00"),
        ("the total was 486", "486.00"),
        ("a room at 180 a night", "180.00"),
        ("two test rigs (about 12 grand)", "12000.00"),
    ],
)
def test_a_plain_number_is_money_where_the_words_around_say_so(text: str, amount: str) -> None:
    facts = extract_facts(text, TODAY)
    # The currency is not said: whoever knows the record or the user fills it in.
    assert [(m.amount, m.currency) for m in facts.amounts] == [(Decimal(amount), "")]
    assert facts.times == ()


@pytest.mark.parametrize(
    "text",
    [
        "the 2 of us will pay later",
        "the budget for 12 chairs",
        "paid on 3 December",
        "the cost of 3 days off",
        "budget review at 3pm",
    ],
)
def test_a_plain_number_of_something_else_is_no_money(text: str) -> None:
    assert [m for m in extract_facts(text, TODAY).amounts if not m.currency] == []


@pytest.mark.parametrize(
    "text",
    [
        "20 office chairs",
        "Room 101 on the 3rd floor",
        "20 pounds of coffee",
        "ALL 3 laptops are broken",
        "I paid in 2027",
        "Order ORD-000042",
        "a 10% discount",
    ],
)
def test_no_amounts(text: str) -> None:
    assert extract_facts(text, TODAY).amounts == ()


@pytest.mark.parametrize(
    ("text", "value", "about"),
    [
        ("a 10% discount", "10", "discount"),
        ("15 percent off", "15", "discount"),
        ("rates go up 8% next year", "8", None),
        ("a discount of 20%", "20", "discount"),
        ("ten per cent more", "10", None),
        ("a 2.5% increase", "2.5", "increase"),
    ],
)
def test_percentages(text: str, value: str, about: str | None) -> None:
    facts = extract_facts(text, TODAY)
    assert [(p.value, p.about) for p in facts.percentages] == [(Decimal(value), about)]
    assert facts.quantities == () and facts.amounts == ()


@pytest.mark.parametrize(
    ("text", "count", "item", "singular"),
    [
        ("Order 20 office chairs for the Berlin office", 20, "office chairs", "office chair"),
        ("three laptops for the new hires", 3, "laptops", "laptop"),
        ("a dozen monitors", 12, "monitors", "monitor"),
        ("two dozen pens", 24, "pens", "pen"),
        ("half a dozen webcams", 6, "webcams", "webcam"),
        ("a couple of headsets", 2, "headsets", "headset"),
        ("a pair of headphones", 2, "headphones", "headphone"),
        ("5 more monitors", 5, "monitors", "monitor"),
        ("3 x laptops", 3, "laptops", "laptop"),
        ("one laptop", 1, "laptop", "laptop"),
        ("20 Aero Office Chairs", 20, "Aero Office Chairs", "Aero Office Chair"),
        ("twenty-five USB flash drives", 25, "USB flash drives", "USB flash drive"),
        ("a table for 2 people", 2, "people", "person"),
        ("100 batteries", 100, "batteries", "battery"),
        ("10 boxes of paper", 10, "paper", "paper"),
        ("1,500 flyers", 1500, "flyers", "flyer"),
        ("Two interns join the sales team", 2, "interns", "intern"),
        ("120 miles round trip", 120, "miles", "mile"),
        ("5 glass desks", 5, "glass desks", "glass desk"),
        ("three pull-up banners for the stand", 3, "pull-up banners", "pull-up banner"),
        ("it came, but only 18 of the 20 pallets", 18, "pallets", "pallet"),
    ],
)
def test_quantities(text: str, count: int, item: str, singular: str) -> None:
    facts = extract_facts(text, TODAY)
    assert [(q.count, q.item, q.singular) for q in facts.quantities] == [(count, item, singular)]


def test_two_quantities() -> None:
    facts = extract_facts("three laptops and a dozen monitors", TODAY)
    assert [(q.count, q.singular) for q in facts.quantities] == [(3, "laptop"), (12, "monitor")]


@pytest.mark.parametrize(
    "text",
    [
        "for 3 nights",
        "45 euros",
        "on 7 December",
        "ORD-000042 is late",
        "a sev 2 incident",
        "at 3 pm",
        "the 2027 budget",
        "the one I ordered",
        "a 10% discount",
        "2 days ago",
        "I need 5",
    ],
)
def test_no_quantities(text: str) -> None:
    assert extract_facts(text, TODAY).quantities == ()
