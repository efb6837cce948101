"""How search reads the facts of a request: dates, amounts, ids and names are no signal."""

from __future__ import annotations

import re

import pytest

from mock_account.business.data import SOURCES, BusinessData
from mock_account.search.facts import ID_PREFIXES, expand_facts, fact_word
from mock_account.search.text import names_inside, terms


@pytest.mark.parametrize(
    "request_text",
    [
        "45 euros",
        "$1,200",
        "2,800 EUR",
        "from the 4th to the 6th of June",
        "next Tuesday",
        "tomorrow morning",
        "on 3 March at 18:20",
        "the 22nd, tonight at 7pm",
        "about 15k USD by Friday",
        "Sat 14 Sept",
    ],
)
def test_dates_amounts_and_numbers_leave_no_term(request_text: str) -> None:
    assert terms(request_text) == []


def test_a_fact_rich_request_keeps_only_what_it_asks_for() -> None:
    rich = "I paid 184.50 EUR for a taxi on the 22nd of May, claim it back by next Friday"
    plain = "I paid for a taxi, claim it back"
    assert terms(rich) == terms(plain)


@pytest.mark.parametrize(
    "request_text, kind",
    [
        ("ORD-000042 arrived broken", "order"),
        ("any news on INC-00013?", "incid"),
        ("has INV-000512 been paid", "invoic"),
        ("pull up CUS-00098", "custom"),
        ("PO-44817 is late", "order"),
        ("TCK-004417 is still open", "ticket"),
    ],
)
def test_an_id_says_which_kind_of_record_it_is(request_text: str, kind: str) -> None:
    found = terms(request_text)
    assert kind in found
    assert not any(re.search(r"\d", term) for term in found)


def test_an_id_of_an_unknown_kind_keeps_its_prefix_only() -> None:
    assert expand_facts("JIR-4471 and QZ-00231") == "JIR-4471 and QZ-00231"
    assert expand_facts("about CS-48812") == "about support case"
    assert terms("QZ-00231") == ["qz"]


def test_every_kind_of_business_record_id_is_read_as_its_kind() -> None:
    data = BusinessData(seed=7, size=5)
    prefixes = set()
    for source in SOURCES:
        for record in data.records(source):
            for value in record.values():
                match = re.fullmatch(r"([A-Z]{2,3})-\d+", str(value))
                if match:
                    prefixes.add(match.group(1))
    assert prefixes  # the data has ids at all
    assert prefixes <= set(ID_PREFIXES), prefixes - set(ID_PREFIXES)


@pytest.mark.parametrize(
    "word, meaning",
    [("sev2", "severity"), ("p1", "priority"), ("q3", "quarter"), ("sev1", "severity")],
)
def test_a_severity_priority_or_quarter_keeps_its_kind(word: str, meaning: str) -> None:
    assert fact_word(word) == meaning


@pytest.mark.parametrize("word", ["2fa", "ec2", "5g", "vpn", "laptop", "sale"])
def test_words_are_not_facts(word: str) -> None:
    assert fact_word(word) is None


@pytest.mark.parametrize("word", ["3", "2026", "5th", "18", "x200", "t480", "15k", "7pm", "june"])
def test_numbers_and_dates_are_facts_left_out(word: str) -> None:
    assert fact_word(word) == ""


def test_names_inside_an_example_sentence_are_left_out_unless_the_account_uses_them() -> None:
    known = {"workshop", "cancel", "vpn", "photoshop", "instal"}
    example = "The Warsaw workshop with Orion Retail was called off"
    # "called off" is read as cancelled (``plain_verbs``).
    assert terms(example) == ["warsaw", "workshop", "orion", "retail", "cancel"]
    assert terms(example, known=known) == ["workshop", "cancel"]
    # Names the agents' own titles and descriptions use are what the agent is about.
    assert terms("Please install Photoshop and the VPN", known=known) == [
        "instal",
        "photoshop",
        "vpn",
    ]


def test_a_first_word_used_as_a_name_elsewhere_is_a_name() -> None:
    known = {"cancel", "order"}
    text = "Kestrel Energy called off their order. Our customer Kestrel is angry"
    assert names_inside(text, known) == {"kestrel", "energi"}
    assert terms(text, known=known, names={"kestrel"}) == ["cancel", "order", "custom", "angri"]
    # Without that, the word opening the sentence is kept.
    assert terms(text, known=known)[0] == "kestrel"


def test_the_first_word_of_a_sentence_is_no_name() -> None:
    # A capital at the start of a sentence says nothing; the word is kept.
    assert terms("Extend my stay. Reserve a car: Rebook me", known=set()) == [
        "extend",
        "stay",
        "reserv",
        "car",
        "rebook",
    ]


def test_phrasal_verbs_are_read_as_their_plain_verb() -> None:
    from mock_account.search.text import plain_verbs

    assert plain_verbs("the boards turned up this morning") == "the boards arrived this morning"
    assert plain_verbs("they called it off") == "they cancelled"
    assert terms("the pallets showed up") == terms("the pallets arrived")
