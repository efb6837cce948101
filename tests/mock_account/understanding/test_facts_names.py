"""Organisations, people and other named things: known names of the business data (with or
without the legal form, whole words, any case) and capitalised names that match none."""

from __future__ import annotations

import pytest
from understanding_data import NAMES, TODAY

from mock_account.understanding import NameIndex, extract_facts, name_index


def _known(text: str) -> list[tuple[str, str | None, str | None, bool]]:
    facts = extract_facts(text, TODAY, names=NAMES)
    return [
        (f.text, f.name, f.kind, f.partial)
        for f in (*facts.organisations, *facts.people, *facts.mentions)
        if f.known
    ]


def _unknown(text: str, names: dict[str, list[str]] | None = NAMES) -> dict[str, list[str]]:
    facts = extract_facts(text, TODAY, names=names)
    return {
        "organisations": [f.text for f in facts.organisations if not f.known],
        "people": [f.text for f in facts.people if not f.known],
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Pull up the account for Smith Foods GmbH",
            [("Smith Foods GmbH", "Smith Foods GmbH", "customer", False)],
        ),
        (
            "Pull up the account for Smith Foods",
            [("Smith Foods", "Smith Foods GmbH", "customer", False)],
        ),
        (
            "smith foods gmbh ordered again",
            [("smith foods gmbh", "Smith Foods GmbH", "customer", False)],
        ),
        (
            "Invoice Price Robotics for the chairs",
            [("Price Robotics", "Price Robotics S.A.", "customer", False)],
        ),
        (
            "Invoice Price Robotics S.A. for the chairs",
            [("Price Robotics S.A", "Price Robotics S.A.", "customer", False)],
        ),
        (
            "the contract with Nguyen, Lopez and Clark",
            [("Nguyen, Lopez and Clark", "Nguyen, Lopez and Clark", "customer", False)],
        ),
        (
            "Book Anna Schmidt a flight to Berlin",
            [("Anna Schmidt", "Anna Schmidt", "employee", False)],
        ),
        ("Ask María López", [("María López", "María López", "employee", False)]),
        ("Ask Maria Lopez", [("Maria Lopez", "María López", "employee", False)]),
        ("Move Anna Schmidt's laptop", [("Anna Schmidt", "Anna Schmidt", "employee", False)]),
        (
            "Interview Priya Natarajan on Friday",
            [("Priya Natarajan", "Priya Natarajan", "candidate", False)],
        ),
        ("The Checkout API is down", [("Checkout API", "Checkout API", "service", False)]),
        (
            "20 Aero Office Chairs for Hoffmann Media",
            [
                ("Hoffmann Media", "Hoffmann Media", "customer", False),
                ("Aero Office Chairs", "Aero Office Chair", "product", False),
            ],
        ),
        (
            "What did the Hoffmann account order?",
            [("Hoffmann", "Hoffmann Media", "customer", True)],
        ),
        (
            "Acme Supplies sent the invoice",
            [("Acme Supplies", "Acme Supplies Ltd", "vendor", False)],
        ),
        # A possessive starting a sentence is a name, on its first word too.
        (
            "Hoffmann's parcel still hasn't arrived",
            [("Hoffmann", "Hoffmann Media", "customer", True)],
        ),
    ],
)
def test_known_names(text: str, expected: list[tuple[str, str, str, bool]]) -> None:
    assert _known(text) == expected


def test_a_known_company_without_its_legal_form_may_take_another_or_a_place() -> None:
    assert _known("Quote 10 desks for Smith Foods Ltd") == [
        ("Smith Foods", "Smith Foods GmbH", "customer", False)
    ]
    assert _known("Quote 10 desks for Smith Foods Berlin")[:1] == [
        ("Smith Foods", "Smith Foods GmbH", "customer", False)
    ]


def test_one_name_of_two_kinds() -> None:
    found = _known("Pull up the account for Riddle Logistics")
    assert found == [
        ("Riddle Logistics", "Riddle Logistics Inc.", "customer", False),
        ("Riddle Logistics", "Riddle Logistics GmbH", "vendor", False),
    ]
    # with its legal form, the exact one only
    assert _known("Pull up Riddle Logistics GmbH") == [
        ("Riddle Logistics GmbH", "Riddle Logistics GmbH", "vendor", False)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Smithfield Foods called",  # whole words only
        "a riddle for you",  # lower case single word
        "We deliver to Berlin",  # a place, not "Berlin Analytics" on its first word
        "Pricey chairs",
        "John wants a laptop",  # a given name alone is no employee
        "Smith Foods Logistics called",  # another company that starts like a known one
        # "Smith Foods GmbH" without its legal form, going on as another company's name (a
        # quote for "Acme Widgets GmbH" was made for the customer Acme Corporation).
        "Quote 10 desks for Smith Foods Trading GmbH",
        "Quote 10 desks for Smith Foods Nordic",
    ],
)
def test_no_known_names(text: str) -> None:
    assert _known(text) == []


def test_a_known_company_by_its_first_word_after_a_request_verb() -> None:
    # A capitalised word before it starts the sentence and is no given name: not a name.
    assert [(t, k, p) for t, _, k, p in _known("Call Riddle about the late invoice")] == [
        ("Riddle", "customer", True),
        ("Riddle", "vendor", True),
    ]
    assert _known("Ask Maria Riddle about the late invoice") == []


@pytest.mark.parametrize(
    ("text", "organisations", "people"),
    [
        ("Pull up the account for Hoffmann Logistics", ["Hoffmann Logistics"], []),
        ("Pull up the account for Hoffmann Logistik GmbH", ["Hoffmann Logistik GmbH"], []),
        ("Open a ticket for customer Blue Ocean", ["Blue Ocean"], []),
        ("What does the Greenfield account owe?", ["Greenfield"], []),
        ("Pull up the account for Zylker", ["Zylker"], []),
        ("Schedule a call with Maria Garcia", [], ["Maria Garcia"]),
        ("Book Tom Becker a hotel", [], ["Tom Becker"]),
        ("Dr Weber wants a meeting", [], ["Weber"]),
        ("Onboard candidate Okafor", [], ["Okafor"]),
        ("Please book a room", [], []),
        ("Book a flight for Anna", [], ["Anna"]),
        ("a call with Anna and Tom", [], ["Anna", "Tom"]),
        ("Book Lena Vogel and Tom Becker on the flight", [], ["Lena Vogel", "Tom Becker"]),
        ("Send it to Will", [], []),
        ("please install MS Project for me", [], []),
        ("Lena Vogel took over from Anna as the buyer", [], ["Lena Vogel"]),
        ("Lakeside Dental phoned twice", ["Lakeside Dental"], []),
        ("We buy from an Irish company", [], []),
        ("The Payments gateway is slow", [], []),
        # A verb of joining makes a person of a name no list knows.
        ("Kwame Varga joins us on 3 December", [], ["Kwame Varga"]),
        ("Priya Varga starts on Monday", [], ["Priya Varga"]),
        # A name opening news of itself, with no given name, is a company's.
        ("Halcyon Print has a new buyer: Mei Ling Goh", ["Halcyon Print"], ["Mei Ling Goh"]),
        # So does a verb done to people: "ring Farid Hassan back" (Hassan is also a city).
        ("can someone ring Farid Hassan back tomorrow?", [], ["Farid Hassan"]),
        # So does hiring, but not of a company ("we hired Deloitte Consulting").
        ("We hired Kwame Varga as a data analyst", [], ["Kwame Varga"]),
        ("We hired Deloitte Consulting for the audit", ["Deloitte Consulting"], []),
        # A known company's first word inside a person's name is that person's name.
        ("Maria Riddle joins us on Monday", [], ["Maria Riddle"]),
        ("Please add Northwind Traders as a new supplier", ["Northwind Traders"], []),
        ("Onboard Meridian Optics as a supplier", ["Meridian Optics"], []),
        # An agreement "with" someone is with an organisation; a meeting may be with anyone.
        ("Prepare a mutual confidentiality agreement with Northwind", ["Northwind"], []),
        ("Sign the contract with Globex", ["Globex"], []),
        ("A call with Northwind", [], []),
        # What is done to people makes a person of one given name, a city's too.
        ("Onboard Sofia in the Madrid office", [], ["Sofia"]),
        ("Please onboard Sofia", [], ["Sofia"]),
        # A list of people, by commas too: every name in it is a person's, given names known
        # or not ("Jun" is no month before a family name).
        (
            "Licences for my team: Aisha Rahman, Tom Keller and Jun Park.",
            [],
            ["Aisha Rahman", "Tom Keller", "Jun Park"],
        ),
    ],
)
def test_unknown_names(text: str, organisations: list[str], people: list[str]) -> None:
    assert _unknown(text) == {"organisations": organisations, "people": people}


def test_unknown_names_without_business_data() -> None:
    assert _unknown("Pull up the account for Hoffmann Logistics", names=None) == {
        "organisations": ["Hoffmann Logistics"],
        "people": [],
    }


def test_the_issue_lookup_gets_an_unknown_name_never_another_customer() -> None:
    facts = extract_facts("Pull up the account for Hoffmann Logistics", TODAY, names=NAMES)
    assert [(o.text, o.known, o.name) for o in facts.organisations] == [
        ("Hoffmann Logistics", False, None)
    ]


def test_index_is_built_once_per_mapping_and_reusable() -> None:
    assert name_index(NAMES) is name_index(NAMES)
    index = NameIndex(NAMES)
    assert name_index(index) is index
    facts = extract_facts("Smith Foods", TODAY, names=index)
    assert facts.organisations[0].name == "Smith Foods GmbH"


def test_closest_names() -> None:
    index = name_index(NAMES)
    assert index.closest("Hofman Media", "customer")[0] == "Hoffmann Media"
    assert index.closest("Riddle Logistic", "vendor") == ["Riddle Logistics GmbH"]
    assert index.closest("Zzzzz") == []


def test_a_count_of_a_known_product() -> None:
    facts = extract_facts("Order 20 Aero Office Chairs for Smith Foods", TODAY, names=NAMES)
    assert [(q.count, q.singular) for q in facts.quantities] == [(20, "Aero Office Chair")]
    assert [m.name for m in facts.mentions] == ["Aero Office Chair"]
    assert [o.name for o in facts.organisations] == ["Smith Foods GmbH"]


def test_a_person_named_by_their_role_is_a_person() -> None:
    # "Hassan" is also a town: the role says whom it names.
    facts = extract_facts("read-only scope, production, owner is Farid Hassan.", TODAY)
    assert [p.text for p in facts.people] == ["Farid Hassan"]
    assert facts.places == ()


def test_a_given_name_with_a_models_number_is_a_product() -> None:
    facts = extract_facts("we're launching the Aurora X2 smart thermostat in March", TODAY)
    assert facts.people == ()
    assert ("product", "Aurora X2") in [(t.kind, t.value) for t in facts.things]
    # A paper size alone is no model.
    assert not [t for t in extract_facts("buy A4 paper", TODAY).things if t.kind == "product"]


def test_the_whole_name_after_a_person_cue_is_the_person() -> None:
    said = "Could you book a flight for my colleague Nguyen Thi Lan to Jakarta next Friday"
    assert [p.text for p in extract_facts(said, TODAY).people] == ["Nguyen Thi Lan"]


def test_a_countrys_code_inside_a_name_is_part_of_the_name() -> None:
    said = "Raise a purchase request for 40 Logitech MX Keys keyboards for the Singapore office"
    facts = extract_facts(said, TODAY)
    assert [p.name for p in facts.places] == ["Singapore"]
    assert [(q.count, q.item) for q in facts.quantities] == [(40, "Logitech MX Keys")]
    assert [p.name for p in extract_facts("Ship to MX by Friday", TODAY).places] == ["Mexico"]


def test_a_lone_given_name_doing_something_is_a_person() -> None:
    said = "Can someone cover my pager on the 19th? Ravi mentioned he might be free."
    assert [p.text for p in extract_facts(said, TODAY).people] == ["Ravi"]
    said = "Update: Marcus can only do the Saturday. Aisha Karim will take Sunday instead."
    assert [p.text for p in extract_facts(said, TODAY).people] == ["Marcus", "Aisha Karim"]
    # A month or a question's verb is no one.
    assert extract_facts("May is a good month for it", TODAY).people == ()
