"""Record ids in canonical form, e-mail addresses, severities and priorities with negation."""

from __future__ import annotations

import pytest
from understanding_data import TODAY

from mock_account.understanding import (
    ID_KINDS,
    PRIORITY_LEVELS,
    SEVERITY_LEVELS,
    canonical_id,
    extract_facts,
)


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("Pull up CUS-00098", [("CUS-00098", "customer")]),
        ("cus-98 please", [("CUS-00098", "customer")]),
        ("Where is ORD-000042?", [("ORD-000042", "order")]),
        ("ORD42 is late", [("ORD-000042", "order")]),
        ("ord_42", [("ORD-000042", "order")]),
        ("ORD 42", [("ORD-000042", "order")]),
        ("order #42 was damaged", [("ORD-000042", "order")]),
        ("order number 42", [("ORD-000042", "order")]),
        ("INV-000123 is overdue", [("INV-000123", "invoice")]),
        ("invoice #123", [("INV-000123", "invoice")]),
        ("INC-00013", [("INC-00013", "incident")]),
        ("incident no. 13", [("INC-00013", "incident")]),
        ("TCK-000001", [("TCK-000001", "ticket")]),
        ("ticket no. 7", [("TCK-000007", "ticket")]),
        ("EMP-00001", [("EMP-00001", "employee")]),
        ("CTR-00001", [("CTR-00001", "contract")]),
        ("VEN-0001", [("VEN-0001", "vendor")]),
        ("VEN-12", [("VEN-0012", "vendor")]),
        ("EXP-00001", [("EXP-00001", "expense")]),
        ("CAN-00001", [("CAN-00001", "candidate")]),
        ("SKU-00001", [("SKU-00001", "product")]),
        ("AST-00001", [("AST-00001", "asset")]),
        ("CAR-00042", [("CAR-00042", "rental car")]),
        ("ORD-1234567", [("ORD-1234567", "order")]),
        ("INC-00013 and ORD-000042", [("INC-00013", "incident"), ("ORD-000042", "order")]),
        # Prefixes of other systems for the same kinds: a support case, a sales order
        ("about CS-48812, where is it", [("TCK-048812", "ticket")]),
        ("CASE-7731", [("TCK-007731", "ticket")]),
        ("SO-1188 shipped", [("ORD-001188", "order")]),
    ],
)
def test_ids(text: str, ids: list[tuple[str, str]]) -> None:
    facts = extract_facts(text, TODAY)
    assert [(f.id, f.kind) for f in facts.ids] == ids


@pytest.mark.parametrize(
    "text",
    [
        "ord 42",  # lower case with a space: too close to ordinary words
        "Order 20 office chairs",
        "Acme Inc 5 stars",
        "INCOME-5",
        "cancel 3 orders",
        "incident 13",  # a bare noun and number is not an id
        "PREORD-42",
    ],
)
def test_not_ids(text: str) -> None:
    assert extract_facts(text, TODAY).ids == ()


def test_canonical_id_and_kinds() -> None:
    assert canonical_id("ord", 42) == "ORD-000042"
    assert canonical_id("VEN", 7) == "VEN-0007"
    assert set(ID_KINDS) == {
        "CUS",
        "ORD",
        "INV",
        "INC",
        "TCK",
        "EMP",
        "CTR",
        "VEN",
        "EXP",
        "CAN",
        "CAR",
        "SKU",
        "AST",
    }
    facts = extract_facts("ORD-000042 and ORD-7", TODAY)
    assert facts.ids_of("order") == ("ORD-000042", "ORD-000007")


def test_emails() -> None:
    facts = extract_facts("Mail Anna.Schmidt@Example.com and ops@corp.example.co.uk", TODAY)
    assert [e.address for e in facts.emails] == [
        "anna.schmidt@example.com",
        "ops@corp.example.co.uk",
    ]
    assert facts.people == () and facts.places == ()


@pytest.mark.parametrize(
    ("text", "levels"),
    [
        ("a sev 2 outage", [("sev2", False)]),
        ("SEV-1: checkout down", [("sev1", False)]),
        ("declare a sev1", [("sev1", False)]),
        ("Sev3", [("sev3", False)]),
        ("severity 3", [("sev3", False)]),
        ("severity: two", [("sev2", False)]),
        ("severity level 4", [("sev4", False)]),
        ("a critical severity incident", [("sev1", False)]),
        ("low severity", [("sev4", False)]),
        ("P1 incident on the payments gateway", [("sev1", False)]),
        ("P2 outage", [("sev2", False)]),
        ("it's not a sev1", [("sev1", True)]),
        ("not sev1, more like sev3", [("sev1", True), ("sev3", False)]),
        # Without a number, an incident that hits everyone is a sev1; a stated level wins.
        (
            "The checkout service is returning 500s for everyone, open an incident",
            [("sev1", False)],
        ),
        ("Checkout is down for all customers, sev2", [("sev2", False)]),
        ("Lunch for everyone on Friday", []),
    ],
)
def test_severities(text: str, levels: list[tuple[str, bool]]) -> None:
    facts = extract_facts(text, TODAY)
    assert [(f.level, f.negated) for f in facts.severities] == levels
    assert {f.level for f in facts.severities} <= set(SEVERITY_LEVELS)


def test_severity_property_skips_denied_levels() -> None:
    assert extract_facts("not sev1, more like sev3", TODAY).severity == "sev3"
    assert extract_facts("it's not a sev1", TODAY).severity is None


@pytest.mark.parametrize(
    ("text", "levels", "effective"),
    [
        ("urgent: the printer is on fire", [("urgent", False)], "urgent"),
        ("URGENT", [("urgent", False)], "urgent"),
        ("please fix it urgently", [("urgent", False)], "urgent"),
        ("I need it ASAP", [("urgent", False)], "urgent"),
        ("as soon as possible", [("urgent", False)], "urgent"),
        ("high priority", [("high", False)], "high"),
        ("a high-priority ticket", [("high", False)], "high"),
        ("priority: low", [("low", False)], "low"),
        ("low priority", [("low", False)], "low"),
        ("normal priority", [("normal", False)], "normal"),
        ("medium priority", [("normal", False)], "normal"),
        ("top priority", [("urgent", False)], "urgent"),
        ("no rush", [("low", False)], "low"),
        ("whenever you get a chance", [("low", False)], "low"),
        ("a P2 ticket for the printer", [("high", False)], "high"),
        ("it's not urgent", [("urgent", True)], "normal"),
        ("It is not urgent", [("urgent", True)], "normal"),
        ("this isn't urgent", [("urgent", True)], "normal"),
        ("a non-urgent request", [("urgent", True)], "normal"),
        ("not high priority", [("high", True)], "normal"),
        ("This is urgent, not low priority", [("urgent", False), ("low", True)], "urgent"),
    ],
)
def test_priorities(text: str, levels: list[tuple[str, bool]], effective: str) -> None:
    facts = extract_facts(text, TODAY)
    assert [(f.level, f.negated) for f in facts.priorities] == levels
    assert facts.priority == effective
    assert {f.level for f in facts.priorities} <= set(PRIORITY_LEVELS)


@pytest.mark.parametrize("text", ["an insurgent group", "Prioritise the backlog", "P5", "SEV-9"])
def test_no_levels(text: str) -> None:
    facts = extract_facts(text, TODAY)
    assert facts.priorities == () and facts.severities == ()
    assert facts.priority is None


@pytest.mark.parametrize(
    ("text", "versions"),
    [
        ("Deploy version 2.14.0 of the billing service", ["2.14.0"]),
        ("Push release 3.2 live", ["3.2"]),
        ("Deploy version 3 to staging", ["3"]),
        ("Deploy v2.4 to staging", ["v2.4"]),
        ("roll out 1.4.2-rc1.", ["1.4.2-rc1"]),
        ("Deploy commit a1b2c3d to staging", ["a1b2c3d"]),
        ("Ship the latest main build of the web app", ["latest main build"]),
        # Not versions: a date, a decimal count, thousands, a plain count.
        ("Book a flight on 14.12.2026 to Lisbon", []),
        ("Order 2.5 kg of coffee", []),
        ("Pay 1.200.000 EUR", []),
        ("Release 3 invoices", []),
    ],
)
def test_versions(text: str, versions: list[str]) -> None:
    facts = extract_facts(text, TODAY)
    assert [v.version for v in facts.versions] == versions


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("His number is +65 91234567.", "+65 91234567"),
        ("Call her on +44 20 7946 0000 after lunch", "+44 20 7946 0000"),
        ("reach me at (020) 7946 0000", "(020) 7946 0000"),
        ("ring +6591234567 tomorrow", "+6591234567"),
    ],
)
def test_phone_numbers_as_typed(text: str, phone: str) -> None:
    phones = [t.value for t in extract_facts(text, today=TODAY).things if t.kind == "phone"]
    assert phones == [phone]


@pytest.mark.parametrize("text", ["Order 40 units for 12000 EUR", "Budget 2026 is 45000 SGD"])
def test_no_phone_in_counts_years_or_amounts(text: str) -> None:
    assert not [t for t in extract_facts(text, today=TODAY).things if t.kind == "phone"]


def test_an_asset_tag_of_several_parts_is_one_code() -> None:
    facts = extract_facts("It's a ThinkPad, asset tag SG-LT-20417. Lock it", today=TODAY)
    assert [t.value for t in facts.things if t.kind == "code"] == ["SG-LT-20417"]


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("New remit-to address is Hafenstrasse 12, 20457 Hamburg", "Hafenstrasse 12, 20457"),
        ("Ship it to 12 Marina Boulevard, Singapore", "12 Marina Boulevard"),
        ("Deliver to 221B Baker Street please", "221B Baker Street"),
    ],
)
def test_street_addresses(text: str, address: str) -> None:
    facts = extract_facts(text, today=TODAY)
    assert [t.value for t in facts.things if t.kind == "address"] == [address]


@pytest.mark.parametrize(
    "text", ["Order 12 standing desks for the office", "Pause Spring 2026 Referral Drive"]
)
def test_no_address_in_a_count_of_things_or_a_name_with_a_year(text: str) -> None:
    facts = extract_facts(text, today=TODAY)
    assert not [t for t in facts.things if t.kind == "address"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("here is the receipt: burnt_ends_1203.jpg", "burnt_ends_1203.jpg"),
        ("attach Invoice-Dec.PDF to that one", "Invoice-Dec.PDF"),
        ("a USD 749 charge from NXT*CLOUDSVC on my card", "NXT*CLOUDSVC"),
        ("access denied on the FinOps-APAC sharepoint site", "FinOps-APAC"),
    ],
)
def test_file_names_card_descriptors_and_dashed_names_are_kept_as_typed(
    text: str, code: str
) -> None:
    facts = extract_facts(text, today=TODAY)
    assert code in [t.value for t in facts.things if t.kind == "code"]


@pytest.mark.parametrize("text", ["the Wi-Fi is down", "a follow-up call on Friday"])
def test_ordinary_dashed_words_are_no_code(text: str) -> None:
    assert not [t for t in extract_facts(text, today=TODAY).things if t.kind == "code"]


def test_a_flight_number_and_a_bare_part_of_a_whole_are_kept_as_typed() -> None:
    codes = [t.value for t in extract_facts("is SQ322 to London on time?", today=TODAY).things]
    assert codes == ["SQ322"]
    said = "update: they turned up this morning, but only 34 of the 40"
    assert [(t.kind, t.value) for t in extract_facts(said, today=TODAY).things] == [
        ("portion", "34 of 40")
    ]
    # With its noun, the part is a quantity of that noun (what came in), said with its whole.
    counted = extract_facts("only 60 of the 100 boxes came in", today=TODAY)
    assert [(q.count, q.text) for q in counted.quantities] == [(60, "60 of the 100 boxes")]


def test_how_many_of_someones_things_and_references_in_parts_are_kept_as_typed() -> None:
    said = "It finally arrived this morning, but only 1,150 of them. Log the receipt."
    assert ("portion", "1,150 of them") in [
        (t.kind, t.value) for t in extract_facts(said, today=TODAY).things
    ]
    said = "This needs to go to second line, it's hitting 14 of their sites."
    assert ("portion", "14 of their sites") in [
        (t.kind, t.value) for t in extract_facts(said, today=TODAY).things
    ]
    for text, code in (
        ("Brightwater still hasn't paid INV-2026-1184 (USD 7,300)", "INV-2026-1184"),
        ("When does our MSA renew? ref MSA-CF-2023-07", "MSA-CF-2023-07"),
    ):
        assert code in [t.value for t in extract_facts(text, today=TODAY).things], text


def test_a_quoted_title_may_hold_an_apostrophe() -> None:
    said = "Subject lines 'Your 2027 roadmap' vs 'What's new in 2027', 50/50 split."
    titles = [t.value for t in extract_facts(said, today=TODAY).things if t.kind == "title"]
    assert titles == ["Your 2027 roadmap", "What's new in 2027"]


def test_an_address_with_its_street_word_first_keeps_its_unit_and_postcode() -> None:
    said = "my home address will be 28 Jalan Kemuning #05-11, Singapore 769842 from then on."
    facts = extract_facts(said, today=TODAY)
    assert [t.value for t in facts.things if t.kind == "address"] == [
        "28 Jalan Kemuning #05-11, 769842"
    ]
    # The city is a place of its own.
    assert [p.name for p in facts.places] == ["Singapore"]


def test_a_records_number_in_the_users_own_system_is_kept_as_typed() -> None:
    for text, code in (
        ("Order 88-31207 for Pacific Crest Hotels has to be in Bali by the 19th", "88-31207"),
        ("match it against PO 4500018842", "4500018842"),
        ("PO#7741 with Meridian Components is a week late", "7741"),
        ("When is contract 2025/LGL/019 with Parallax Cloud up?", "2025/LGL/019"),
        ("I typed my password, can you reset it for j.tay?", "j.tay"),
        ("salary into my new DBS account, ending 7781", "7781"),
        ("With reference to HR ticket 88213: he leaves on Friday", "88213"),
        ("forticlient just says error 809 since the update", "809"),
    ):
        assert code in [t.value for t in extract_facts(text, today=TODAY).things], text
    # A count after "order" is no number of a record.
    assert extract_facts("order 200000 units", today=TODAY).things == ()
    # A day written with slashes is no reference, and a domain after "for" is no sign-in name.
    facts = extract_facts("due 18/12/2026 for acme.com", today=TODAY)
    assert [t.value for t in facts.things] == ["acme.com"]


def test_fault_codes_and_sizes_are_kept_as_typed() -> None:
    said = "their HX-40 autoclave is showing error E-17 and won't start a cycle."
    assert "E-17" in [t.value for t in extract_facts(said, today=TODAY).things]
    said = "banners in three sizes (728x90, 300x250, 160x600) for the roadshow"
    codes = [t.value for t in extract_facts(said, today=TODAY).things if t.kind == "code"]
    assert codes == ["728x90", "300x250", "160x600"]


def test_a_one_letter_reference_and_an_account_number_are_kept_as_typed() -> None:
    said = "Set up a 2nd-round interview for Aisha Binte Rahman (req R-2291, Senior Data Engineer)"
    assert "R-2291" in [t.value for t in extract_facts(said, today=TODAY).things]
    said = "Tan Mei Xuan, account no. 88120045."
    assert "88120045" in [t.value for t in extract_facts(said, today=TODAY).things]
