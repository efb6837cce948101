"""Places from the GeoNames gazetteer: roles, countries and currencies, and the words that are
also city names."""

from __future__ import annotations

import pytest
from understanding_data import TODAY

from mock_account.understanding import extract_facts


def _places(text: str) -> list[tuple[str, str, str | None]]:
    return [(p.name, p.country_code, p.role) for p in extract_facts(text, TODAY).places]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I need to fly to Berlin next Tuesday", [("Berlin", "DE", "destination")]),
        (
            "a flight from Chicago to Lisbon",
            [("Chicago", "US", "origin"), ("Lisbon", "PT", "destination")],
        ),
        ("Book a hotel in Lisbon for three nights", [("Lisbon", "PT", "destination")]),
        ("Who runs our office in Lisbon?", [("Lisbon", "PT", "location")]),
        ("I drove 230 km to the Leeds site", [("Leeds", "GB", "destination")]),
        ("The Leeds site needs chairs", [("Leeds", "GB", "location")]),
        ("File the expenses for my Lisbon trip", [("Lisbon", "PT", "destination")]),
        ("flying out of Chicago on Monday", [("Chicago", "US", "origin")]),
        # The place right before "to" a destination is where the trip starts.
        (
            "a flight Frankfurt to New York on 12 December",
            [("Frankfurt", "DE", "origin"), ("New York", "US", "destination")],
        ),
        (
            "a trip to Paris, Lyon and Nice",
            [
                ("Paris", "FR", "destination"),
                ("Lyon", "FR", "destination"),
                ("Nice", "FR", "destination"),
            ],
        ),
        ("Tokyo is on the list", [("Tokyo", "JP", None)]),
        ("travel to Germany in March", [("Germany", "DE", "destination")]),
        ("our team in the UK", [("United Kingdom", "GB", "location")]),
        ("the US office", [("United States", "US", "location")]),
        ("our SG entity bills them", [("Singapore", "SG", None)]),
        ("the IT team in Singapore", [("Singapore", "SG", "location")]),
        ("a visit to Sao Paulo", [("Sao Paulo", "BR", "destination")]),
        ("a visit to São Paulo", [("São Paulo", "BR", "destination")]),
        ("the New York office", [("New York", "US", "location")]),
        # A small town's name that starts a landmark's is the landmark ("Gare" is a town).
        ("a hotel near the Gare du Nord for two nights", []),
        ("a hotel near Central Station in Amsterdam", [("Amsterdam", "NL", "destination")]),
        ("a hotel near Frankfurt Airport", [("Frankfurt", "DE", "vicinity")]),
        ("send it to the Frankfurt office", [("Frankfurt", "DE", "destination")]),
        ("the Frankfurt office is closed", [("Frankfurt", "DE", "location")]),
        ("meet in Zürich", [("Zürich", "CH", "location")]),
        ("meet in Zurich", [("Zurich", "CH", "location")]),
        ("a fair in Cologne", [("Cologne", "DE", "location")]),
        ("via Amsterdam to Oslo", [("Amsterdam", "NL", "via"), ("Oslo", "NO", "destination")]),
    ],
)
def test_places_and_roles(text: str, expected: list[tuple[str, str, str | None]]) -> None:
    assert _places(text) == expected


def test_country_and_currency() -> None:
    facts = extract_facts("Fly from London to Zurich and on to Tokyo", TODAY)
    assert [(p.country, p.currency) for p in facts.places] == [
        ("United Kingdom", "GBP"),
        ("Switzerland", "CHF"),
        ("Japan", "JPY"),
    ]
    frankfurt = extract_facts("to Frankfurt", TODAY).places[0]
    assert frankfurt.gazetteer_name == "Frankfurt am Main"
    assert frankfurt.kind == "city" and frankfurt.population and frankfurt.population > 500_000
    germany = extract_facts("to Germany", TODAY).places[0]
    assert (germany.kind, germany.currency, germany.population) == ("country", "EUR", None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fly to Nice", [("Nice", "FR")]),
        ("our office in Reading", [("Reading", "GB")]),
        ("a ferry to Split", [("Split", "HR")]),
        ("the plant in Mobile", [("Mobile", "US")]),
        ("a spa weekend in Bath", [("Bath", "GB")]),
        ("fly to Florence", [("Florence", "IT")]),
        ("to Victoria in Canada", [("Victoria", "CA"), ("Canada", "CA")]),
        ("Paris is lovely", [("Paris", "FR")]),
    ],
)
def test_ambiguous_names_with_a_cue(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(p.name, p.country_code) for p in extract_facts(text, TODAY).places] == expected


@pytest.mark.parametrize(
    "text",
    [
        "Nice work on the report",
        "That is nice",
        "Reading the report now",
        "Split the bill with finance",
        "Mobile app is down",
        "Best regards",
        "in March please",
        "See you in May",
        "Most of the chairs are broken",
        "Meeting with Florence Adams",
        "Jack London wrote it",
        "Fly to berlin",  # not capitalised, where the message has capitals
        "can you order a turkey sandwich",  # all in lower case: a word, with no place cue
        "send it to us",
        "Normal priority please",
        "Orange juice for the kitchen",
        "Surprise party on Friday",
        "Guildford called",  # a small town needs a cue
        "Deal with it tomorrow",
        "Van Halen tickets",
        "Phoenix Systems is a new customer",  # an organisation, not Phoenix
        "connect to our REST API",  # capitals are an acronym, not Rest (Iran)
        "the total does not match the PO",
        "Lakeside Dental phoned twice",
        # A given name that is also a city, right after what is done to people.
        "Onboard Sofia, she starts on 4 January",
        "Email Florence the draft",
    ],
)
def test_words_that_are_not_places(text: str) -> None:
    assert extract_facts(text, TODAY).places == ()


def test_small_town_with_a_cue() -> None:
    assert _places("the report from Guildford") == [("Guildford", "GB", "origin")]


def test_organisation_named_after_a_city_is_not_a_place() -> None:
    facts = extract_facts("Send the contract to Berlin Logistics GmbH", TODAY)
    assert facts.places == ()
    assert [o.text for o in facts.organisations] == ["Berlin Logistics GmbH"]


def test_destination_property() -> None:
    facts = extract_facts("a flight from Chicago to Lisbon", TODAY)
    assert facts.origin is not None and facts.origin.name == "Chicago"
    assert facts.destination is not None and facts.destination.name == "Lisbon"
    lone = extract_facts("Lisbon next week please", TODAY)
    assert lone.destination is not None and lone.destination.name == "Lisbon"


def test_a_message_all_in_lower_case_has_its_places_read_without_capitals() -> None:
    said = "do i need a visa for india, going to bangalore mid jan on a singapore passport"
    assert [p.name for p in extract_facts(said, TODAY).places] == ["India", "Bangalore"]
    assert [p.name for p in extract_facts("fly to berlin", TODAY).places] == ["Berlin"]
    # A company's name that starts with a place is no place.
    assert extract_facts("po 4500-7731 from shenzhen hexa components is late", TODAY).places == ()
