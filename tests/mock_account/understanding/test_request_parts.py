"""The splitter of multi-part requests: which messages are several requests, and how cut."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from mock_account.understanding.request_parts import MAX_PARTS, MIN_PART_CHARS, split_request

ROOT = Path(__file__).resolve().parents[3]

# (message, the parts it must give). One row per phrasing; a single-element list means
# the message must stay one request.
CASES: list[tuple[str, list[str]]] = [
    # --- two or more requests, each with its own verb --------------------------------
    (
        "Book me a flight to Oslo on Monday and file last week's taxi receipt",
        ["Book me a flight to Oslo on Monday", "File last week's taxi receipt"],
    ),
    (
        "Book a flight to Berlin next Tuesday and then file the expenses for it",
        ["Book a flight to Berlin next Tuesday", "File the expenses for it"],
    ),
    # "Fly" was no verb of a request: the hotel was booked and the flight dropped.
    (
        "Fly me to Madrid from the 4th to the 6th of January and book a hotel near the office",
        ["Fly me to Madrid from the 4th to the 6th of January", "Book a hotel near the office"],
    ),
    (
        "Pull up the account for Hoffmann Logistics and show its open orders",
        ["Pull up the account for Hoffmann Logistics", "Show its open orders"],
    ),
    (
        "Book a flight to Oslo, file my taxi receipt and open an incident for the VPN",
        ["Book a flight to Oslo", "File my taxi receipt", "Open an incident for the VPN"],
    ),
    (
        "Cancel order ORD-000123 and refund the customer",
        ["Cancel order ORD-000123", "Refund the customer"],
    ),
    (
        "Open an incident for the checkout outage; notify the on-call engineer",
        ["Open an incident for the checkout outage", "Notify the on-call engineer"],
    ),
    (
        "Book a flight to Madrid. Also file my hotel receipt from Lisbon.",
        ["Book a flight to Madrid.", "File my hotel receipt from Lisbon."],
    ),
    (
        "Where is my order ORD-000456? Also book a meeting room for Friday",
        ["Where is my order ORD-000456?", "Book a meeting room for Friday"],
    ),
    (
        "I need a hotel in Oslo and can you file my taxi receipt",
        ["I need a hotel in Oslo", "Can you file my taxi receipt"],
    ),
    (
        "Book a flight to Oslo and I also need a rental car at the airport",
        ["Book a flight to Oslo", "I also need a rental car at the airport"],
    ),
    (
        "Reset my VPN password and then order a new laptop charger",
        ["Reset my VPN password", "Order a new laptop charger"],
    ),
    (
        "Check the status of invoice INV-0042, then chase Initech for payment",
        ["Check the status of invoice INV-0042", "Chase Initech for payment"],
    ),
    (
        "Schedule a review with Anna and book a room for it",
        ["Schedule a review with Anna", "Book a room for it"],
    ),
    (
        "Look up Kestrel Energy and create an opportunity for 20 office chairs",
        ["Look up Kestrel Energy", "Create an opportunity for 20 office chairs"],
    ),
    (
        "Submit my timesheet for last week and request Friday off",
        ["Submit my timesheet for last week", "Request Friday off"],
    ),
    (
        "Place an order for 20 office chairs for Globex and send them an invoice",
        ["Place an order for 20 office chairs for Globex", "Send them an invoice"],
    ),
    (
        "Draft a press release for the tablet launch. Book a venue for the event too.",
        ["Draft a press release for the tablet launch.", "Book a venue for the event too."],
    ),
    (
        "Raise a purchase request for 5 monitors and after that approve the supplier invoice",
        ["Raise a purchase request for 5 monitors", "Approve the supplier invoice"],
    ),
    (
        "hi, book me a flight to Paris and file my expenses from Rome",
        ["hi, book me a flight to Paris", "File my expenses from Rome"],
    ),
    (
        "Please book a train to Hamburg and please reserve a hotel near the station",
        ["Please book a train to Hamburg", "Please reserve a hotel near the station"],
    ),
    (
        "Transfer 500 euros to the marketing budget and update the Q3 forecast",
        ["Transfer 500 euros to the marketing budget", "Update the Q3 forecast"],
    ),
    (
        "Declare a sev2 incident for payments and page the payments team",
        ["Declare a sev2 incident for payments", "Page the payments team"],
    ),
    (
        "Find the contract with Vandelay and renew it for two years",
        ["Find the contract with Vandelay", "Renew it for two years"],
    ),
    (
        "Add Anna to the project and remove Tom",
        ["Add Anna to the project", "Remove Tom"],
    ),
    (
        "Book me a flight to Oslo on Monday\nFile last week's taxi receipt",
        ["Book me a flight to Oslo on Monday", "File last week's taxi receipt"],
    ),
    (
        "Book a flight to Oslo on Monday, and file my taxi receipt",
        ["Book a flight to Oslo on Monday", "File my taxi receipt"],
    ),
    (
        "Get me a quote for 50 ergonomic chairs and approve the cheapest one",
        ["Get me a quote for 50 ergonomic chairs", "Approve the cheapest one"],
    ),
    (
        "Issue a credit note to Globex and close the dispute",
        ["Issue a credit note to Globex", "Close the dispute"],
    ),
    (
        "What's my leave balance? Book two days off next week as well.",
        ["What's my leave balance?", "Book two days off next week as well."],
    ),
    (
        "Rent a car at Oslo airport and book a hotel in Oslo for two nights",
        ["Rent a car at Oslo airport", "Book a hotel in Oslo for two nights"],
    ),
    (
        "Pull up the account for Hoffmann Logistics and place an order for 20 office chairs",
        ["Pull up the account for Hoffmann Logistics", "Place an order for 20 office chairs"],
    ),
    (
        "Book a hotel in Lisbon, and after that, rent a car at Lisbon airport",
        ["Book a hotel in Lisbon", "Rent a car at Lisbon airport"],
    ),
    (
        "Book a hotel in Oslo; could you also order me a new laptop charger?",
        ["Book a hotel in Oslo", "Could you also order me a new laptop charger?"],
    ),
    (
        "Look up order ORD-000042 and expedite it",
        ["Look up order ORD-000042", "Expedite it"],
    ),
    # --- one request: "and" inside it joins names, things or verbs of one action -------
    ("a report for Q3 in euros", ["a report for Q3 in euros"]),
    ("Book a hotel in Rome and Milan", ["Book a hotel in Rome and Milan"]),
    # Another booking for the place of the first borrows its verb (the car was dropped: the
    # whole went to the car agent, which booked no flight).
    (
        "Book me a flight to Paris on Friday and a rental car there for the weekend",
        ["Book me a flight to Paris on Friday", "Book me a rental car there for the weekend"],
    ),
    (
        "Reserve a flight to Oslo and a hotel for the trip",
        ["Reserve a flight to Oslo", "Reserve a hotel for the trip"],
    ),
    # A booking that names no place after one that goes to a place is for that place, and
    # its length is the trip's (the hotel was booked alone, the flight dropped).
    (
        "Book me a flight to Lisbon on 14 December and a hotel for 3 nights",
        ["Book me a flight to Lisbon on 14 December for 3 nights", "Book me a hotel for 3 nights"],
    ),
    (
        "Book me a flight to Lisbon on 14 December, back on the 18th, and a hotel for 3 nights",
        [
            "Book me a flight to Lisbon on 14 December, back on the 18th",
            "Book me a hotel for 3 nights",
        ],
    ),
    # Without a pointer back, the second thing would take the first's place: one request.
    ("Book a flight and a hotel in Oslo", ["Book a flight and a hotel in Oslo"]),
    (
        "Book me a flight to Oslo and a hotel in Bergen",
        ["Book me a flight to Oslo and a hotel in Bergen"],
    ),
    (
        "Book a hotel in Rome and Milan for next week",
        ["Book a hotel in Rome and Milan for next week"],
    ),
    ("Find flights between London and Paris", ["Find flights between London and Paris"]),
    ("Compare the Q3 and Q4 sales reports", ["Compare the Q3 and Q4 sales reports"]),
    (
        "Order 20 chairs and 5 desks for the Leeds office",
        ["Order 20 chairs and 5 desks for the Leeds office"],
    ),
    ("Look up orders for Acme and Globex", ["Look up orders for Acme and Globex"]),
    ("Send the invoice and report to finance", ["Send the invoice and report to finance"]),
    ("Check and approve the invoice from Initech", ["Check and approve the invoice from Initech"]),
    ("Book and pay for the hotel in Oslo", ["Book and pay for the hotel in Oslo"]),
    ("Find and book the cheapest flight to Oslo", ["Find and book the cheapest flight to Oslo"]),
    (
        "Order ORD-000456 for Initech has shipped, please send them the bill",
        ["Order ORD-000456 for Initech has shipped, please send them the bill"],
    ),
    (
        "The checkout service is returning 500s for everyone, open an incident",
        ["The checkout service is returning 500s for everyone, open an incident"],
    ),
    (
        "I need to fly to Berlin next Tuesday for a client meeting",
        ["I need to fly to Berlin next Tuesday for a client meeting"],
    ),
    ("Pull up the account for Hoffmann Logistics", ["Pull up the account for Hoffmann Logistics"]),
    ("file my travel expenses for that trip", ["file my travel expenses for that trip"]),
    ("Book a flight to Oslo and back", ["Book a flight to Oslo and back"]),
    ("Research and development budget for 2027", ["Research and development budget for 2027"]),
    (
        "Marks and Spencer wants a quote for 200 uniforms",
        ["Marks and Spencer wants a quote for 200 uniforms"],
    ),
    ("Book a table for two and a taxi afterwards", ["Book a table for two and a taxi afterwards"]),
    (
        "Book accommodation in Paris. Check in on the 12th. Check out on the 14th",
        ["Book accommodation in Paris. Check in on the 12th. Check out on the 14th"],
    ),
    (
        "We want to hire Ahmed. Please draft his offer",
        ["We want to hire Ahmed. Please draft his offer"],
    ),
    (
        "How did the spring promotion do? How many leads did we get?",
        ["How did the spring promotion do? How many leads did we get?"],
    ),
    (
        "I have to drive to suppliers around Tuscany, get me a car from Florence airport",
        ["I have to drive to suppliers around Tuscany, get me a car from Florence airport"],
    ),
    (
        "Check in and check out dates for my hotel in Oslo",
        ["Check in and check out dates for my hotel in Oslo"],
    ),
    ("Book flights for Anna and Tom to Madrid", ["Book flights for Anna and Tom to Madrid"]),
    ("Show me flights and hotels in Lisbon", ["Show me flights and hotels in Lisbon"]),
    (
        "Look up the invoice and order history for Acme",
        ["Look up the invoice and order history for Acme"],
    ),
    ("Check the stock and reorder if low", ["Check the stock and reorder if low"]),
    (
        "Create a report of sales by region and product",
        ["Create a report of sales by region and product"],
    ),
    ("Book a flight to Oslo, Norway on Monday", ["Book a flight to Oslo, Norway on Monday"]),
    ("I need a laptop and a docking station", ["I need a laptop and a docking station"]),
    (
        "Email the customer and let them know the order shipped",
        ["Email the customer and let them know the order shipped"],
    ),
    ("Book a flight to Oslo then a hotel", ["Book a flight to Oslo then a hotel"]),
    (
        "Write a blog post about our new tablet and its features",
        ["Write a blog post about our new tablet and its features"],
    ),
    ("Book a flight. Thanks!", ["Book a flight. Thanks!"]),
    ("Approve it and send it", ["Approve it and send it"]),  # "Send it" is too short alone
    (
        "Check whether Initech paid and send a reminder if not",
        ["Check whether Initech paid and send a reminder if not"],
    ),
    (
        "how should we position and announce the new tablet model when it comes out?",
        ["how should we position and announce the new tablet model when it comes out?"],
    ),
    (
        "I want to start recruiting a junior marketer. Can we advertise the role?",
        ["I want to start recruiting a junior marketer. Can we advertise the role?"],
    ),
    (
        "pull up Kestrel Energy in the CRM, I need their id for the opportunity",
        ["pull up Kestrel Energy in the CRM, I need their id for the opportunity"],
    ),
    (
        "Book me a flight to Oslo on Monday and",
        ["Book me a flight to Oslo on Monday and"],
    ),
    ("  Book a hotel in Oslo  ", ["Book a hotel in Oslo"]),
]


@pytest.mark.parametrize(("message", "parts"), CASES, ids=[c[0][:60] for c in CASES])
def test_split_table(message: str, parts: list[str]) -> None:
    assert split_request(message) == parts


def test_the_table_is_large_and_covers_both_outcomes() -> None:
    splits = [c for c in CASES if len(c[1]) > 1]
    singles = [c for c in CASES if len(c[1]) == 1]
    assert len(CASES) >= 60 and len(splits) >= 25 and len(singles) >= 25


def _labelled_requests() -> list[str]:
    found = []
    for folder in ("evaluation", "evaluation_heldout"):
        for path in sorted((ROOT / "agents_catalog" / folder).glob("*.yaml")):
            found.extend(case["query"] for case in yaml.safe_load(path.read_text()))
    for path in sorted((ROOT / "agents_catalog" / "account").glob("*.yaml")):
        found.extend(yaml.safe_load(path.read_text()).get("examples") or ())
    return found


def test_every_labelled_single_request_stays_one() -> None:
    """The account's labelled requests each name one agent: none may be cut in two."""
    requests = _labelled_requests()
    assert len(requests) > 500
    cut = {r: split_request(r) for r in requests if len(split_request(r)) != 1}
    assert cut == {}


def test_a_split_is_deterministic_and_keeps_every_word() -> None:
    message = "Book a flight to Oslo, file my taxi receipt and then open an incident for the VPN"
    first = split_request(message)
    assert all(split_request(message) == first for _ in range(5))
    joiners = {"and", "then"}
    kept = [w for part in first for w in part.lower().split()]
    original = [w.strip(",") for w in message.lower().split() if w not in joiners]
    assert kept == original


def test_parts_are_long_enough_to_search_and_capped() -> None:
    message = " and ".join(
        f"book a hotel in {city} for two nights"
        for city in ("Oslo", "Rome", "Lisbon", "Berlin", "Madrid", "Paris", "Vienna")
    )
    parts = split_request(message)
    assert len(parts) == MAX_PARTS
    assert parts[-1] == (
        "Book a hotel in Madrid for two nights and book a hotel in Paris for two nights "
        "and book a hotel in Vienna for two nights"
    )
    assert all(len(p) >= MIN_PART_CHARS for p in parts)


@pytest.mark.parametrize("blank", ["", "   ", "\n\t"])
def test_blank_text_has_no_parts(blank: str) -> None:
    assert split_request(blank) == []


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "book",
                "a",
                "hotel",
                "and",
                "then",
                "file",
                "the",
                "receipt",
                ",",
                ".",
                "?",
                "Oslo",
                "it",
                "I",
                "need",
                "can",
                "you",
                "also",
                "\n",
                ";",
                "ORD-1",
                "last",
                "week's",
                "é",
            ]
        )
        | st.text(max_size=6),
        max_size=30,
    )
)
def test_any_text_splits_without_error_and_loses_no_word(words: list[str]) -> None:
    text = " ".join(words)
    parts = split_request(text)
    assert parts == split_request(text)
    assert all(p.strip() for p in parts)
    if not text.strip():
        assert parts == []
        return
    kept = " ".join(parts).lower().split()
    for word in (w.strip(",;") for w in kept):
        assert word in text.lower() or word.capitalize() in text
