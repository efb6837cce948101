"""Mock business records: determinism, schema validity, lookups."""

from __future__ import annotations

import re

import pytest

from agents_catalog.generator import CARRIED_FIELDS
from agents_catalog.graph import CONTEXT_VARIABLES
from agents_catalog.scheme import load_scheme
from mock_account.business.data import (
    FIELDS,
    KEY_FIELDS,
    SOURCES,
    VARIABLE_SOURCES,
    BusinessData,
)
from mock_account.business.vocab import CAR_CLASSES, PRODUCT_CAST, PRODUCT_CATEGORIES

ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@pytest.fixture(scope="module")
def data() -> BusinessData:
    return BusinessData(seed=7, size=200)


def test_same_seed_gives_identical_records_whatever_the_request_order() -> None:
    forward = BusinessData(seed=11, size=30)
    backward = BusinessData(seed=11, size=30)
    first = {source: forward.records(source) for source in SOURCES}
    second = {source: backward.records(source) for source in reversed(SOURCES)}
    assert first == second


def test_a_source_does_not_depend_on_sources_built_before_it() -> None:
    fresh = BusinessData(seed=3, size=25)
    warmed = BusinessData(seed=3, size=25)
    for source in ("customers", "employees", "hotels", "products", "vendors"):
        warmed.records(source)
    assert fresh.records("orders") == warmed.records("orders")
    assert fresh.records("flights") == warmed.records("flights")


def test_another_seed_gives_other_records() -> None:
    assert BusinessData(seed=1, size=20).records("customers") != BusinessData(
        seed=2, size=20
    ).records("customers")


def test_every_source_has_size_records_with_exactly_its_fields(data: BusinessData) -> None:
    for source in SOURCES:
        records = data.records(source)
        assert len(records) == 200, source
        for record in records:
            assert tuple(record) == FIELDS[source], source


def test_every_variable_backed_record_matches_its_schema(data: BusinessData) -> None:
    scheme = load_scheme()
    # The request's details carry the conversation's context; no data source backs them.
    assert set(VARIABLE_SOURCES) == set(scheme.variables) - CONTEXT_VARIABLES
    for variable, source in VARIABLE_SOURCES.items():
        agreed = scheme.variables[variable]
        # Apart from what another booking saves on it (a trip's room, from a hotel booking).
        carried = CARRIED_FIELDS.get(variable, frozenset())
        assert set(FIELDS[source]) == set(agreed.schema["properties"]) - carried, variable
        for record in data.records(source):
            assert agreed.errors(record) == [], (variable, record)


def test_dates_are_iso_strings_and_amounts_have_two_decimals(data: BusinessData) -> None:
    for trip in data.records("flights"):
        assert ISO_DATE.match(trip["start_date"]) and ISO_DATE.match(trip["end_date"])
        assert trip["start_date"] <= trip["end_date"]
    for invoice in data.records("invoices"):
        assert isinstance(invoice["amount"], float)
        assert round(invoice["amount"], 2) == invoice["amount"]


def test_ids_are_unique_and_references_point_at_existing_records(data: BusinessData) -> None:
    customer_ids = {c["id"] for c in data.records("customers")}
    assert len(customer_ids) == 200
    assert {o["customer_id"] for o in data.records("orders")} <= customer_ids
    assert {t["customer_id"] for t in data.records("tickets")} <= customer_ids
    products = {p["name"] for p in data.records("products")}
    assert {o["product"] for o in data.records("orders")} <= products


@pytest.mark.parametrize("source", [s for s in SOURCES if "name" in FIELDS[s]])
def test_names_are_unique_and_none_is_numbered(data: BusinessData, source: str) -> None:
    # "Spring 2027 Holiday Promotion 62" reads as a placeholder, not a campaign.
    names = [r["name"] for r in data.records(source)]
    assert len(set(names)) == len(names)
    assert not [n for n in names if n.split()[-1].isdigit()]


def test_flight_destinations_are_many_real_cities(data: BusinessData) -> None:
    destinations = {f["destination"] for f in data.records("flights")}
    assert {"Berlin", "London", "Paris", "New York", "Tokyo"} & destinations
    assert len(destinations) >= 25


def test_a_product_is_priced_for_its_kind(data: BusinessData) -> None:
    # An office chair is not priced like a meeting table (it was 1317.81 GBP).
    kinds = {noun: bounds for per in PRODUCT_CATEGORIES.values() for noun, bounds in per.items()}
    seen = set()
    cast = {name for name, _, _ in PRODUCT_CAST}  # the scanners the examples ask for
    for product in data.records("products"):
        if product["name"] in cast:
            continue
        noun = max((n for n in kinds if product["name"].endswith(n)), key=len)
        low, high = kinds[noun]
        assert low <= product["price"] <= high, product
        seen.add(noun)
    assert {"Office Chair", "Meeting Table", "USB Flash Drive"} <= seen


def test_a_rental_car_costs_its_day_rate_for_its_days(data: BusinessData) -> None:
    for car in data.records("car_rentals"):
        _, low, high = CAR_CLASSES[car["car_class"]]
        assert low <= car["daily_rate"] <= high, car
        assert car["total"] == round(car["daily_rate"] * car["days"], 2), car
        assert car["drop_off"] > car["pick_up"], car


def test_match_finds_flights_to_the_named_city(data: BusinessData) -> None:
    hits = data.lookup("flights", match="I need to fly to Berlin for a client meeting", limit=3)
    assert hits and all(hit["destination"] == "Berlin" for hit in hits)


def test_match_finds_a_record_by_its_id(data: BusinessData) -> None:
    assert data.lookup("orders", match="where is my order ORD-000042?")[0]["id"] == "ORD-000042"
    assert data.lookup("tickets", match="status of ticket 17")[0]["id"] == "TCK-000017"


def test_match_without_shared_words_is_a_stable_pick() -> None:
    one = BusinessData(seed=5, size=50).lookup("customers", match="qwerty zzzz blorp")
    two = BusinessData(seed=5, size=50).lookup("customers", match="qwerty zzzz blorp")
    assert one == two and len(one) == 1
    others = {
        BusinessData(seed=5, size=50).lookup("customers", match=f"gibberish {n}")[0]["id"]
        for n in range(200, 220)
    }
    assert len(others) > 1  # the pick depends on the text, not always the first record


def test_where_is_exact_and_case_insensitive_for_strings(data: BusinessData) -> None:
    gold = data.lookup("customers", where={"tier": "GOLD"}, limit=50)
    assert gold and all(c["tier"] == "gold" for c in gold)
    assert data.lookup("customers", where={"tier": "gol"}) == []
    order = data.records("orders")[9]
    found = data.lookup("orders", where={"id": order["id"].lower()})
    assert found == [order]


def test_where_compares_numbers_with_their_text(data: BusinessData) -> None:
    stars = data.lookup("hotels", where={"stars": "5"}, limit=100)
    assert stars and all(h["stars"] == 5 for h in stars)
    assert data.lookup("hotels", where={"stars": 5}, limit=100) == stars


def test_where_and_match_combine(data: BusinessData) -> None:
    hits = data.lookup("flights", match="trip to London", where={"origin": "new york"}, limit=5)
    assert hits and all(h["origin"] == "New York" for h in hits)
    assert hits[0]["destination"] == "London"


def test_limit_caps_the_number_of_records(data: BusinessData) -> None:
    assert len(data.lookup("vendors", limit=7)) == 7
    with pytest.raises(ValueError, match="limit"):
        data.lookup("vendors", limit=0)


def test_results_are_copies(data: BusinessData) -> None:
    record = data.lookup("customers", where={"id": "CUS-00001"})[0]
    record["name"] = "changed"
    data.records("customers")[0]["name"] = "changed too"
    assert data.lookup("customers", where={"id": "CUS-00001"})[0]["name"] not in (
        "changed",
        "changed too",
    )


def test_unknown_source_and_field_are_clear_errors(data: BusinessData) -> None:
    with pytest.raises(ValueError, match="unknown data source 'planets'.*customers"):
        data.records("planets")
    with pytest.raises(ValueError, match="unknown field 'colour' for source 'orders'"):
        data.lookup("orders", where={"colour": "red"})


def test_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="size"):
        BusinessData(size=0)


def test_small_accounts_still_build_every_source() -> None:
    tiny = BusinessData(seed=1, size=1)
    assert all(len(tiny.records(source)) == 1 for source in SOURCES)


def test_key_fields_name_real_fields_of_every_source() -> None:
    assert set(KEY_FIELDS) == set(SOURCES)
    for source, fields in KEY_FIELDS.items():
        assert fields and fields <= set(FIELDS[source]), source


def test_concurrent_first_lookups_build_each_source_once() -> None:
    import threading

    data = BusinessData(seed=11)
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def look() -> None:
        try:
            barrier.wait()
            data.lookup("orders", match="chairs", where=None, limit=1)
            data.lookup("flights", match="Berlin", where=None, limit=1)
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=look) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert data.records("orders") == BusinessData(seed=11).records("orders")
