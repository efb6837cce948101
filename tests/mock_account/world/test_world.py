"""The world's three actions over recipes, with the request's facts stated directly."""

from __future__ import annotations

from datetime import date

import pytest

from mock_account.business.data import BusinessData
from mock_account.world import Held, Money, Name, Place, Quantity, Stated, World

TODAY = date(2026, 11, 30)
USER = "dana.reyes@acme.example"


@pytest.fixture(scope="module")
def data() -> BusinessData:
    return BusinessData(seed=7)


def world_saying(data: BusinessData, stated: Stated) -> World:
    return World(data, lambda text, today: stated)


def act(data: BusinessData, stated: Stated, action: str, source: str, **kw):
    return world_saying(data, stated).act(
        action, source, request=stated.text, today=TODAY, user=USER, **kw
    )


def test_a_new_trip_keeps_every_stated_fact(data: BusinessData) -> None:
    stated = Stated(
        text="Book me a business trip to Lisbon from December 7 to December 9",
        start=date(2026, 12, 7),
        end=date(2026, 12, 9),
        places=(Place("Lisbon", "Portugal", "EUR", role="destination"),),
    )
    trip = act(data, stated, "create", "flights").record
    assert trip is not None
    assert (trip["destination"], trip["start_date"], trip["end_date"]) == (
        "Lisbon",
        "2026-12-07",
        "2026-12-09",
    )
    offices = {"New York", "Chicago", "London", "Berlin", "Amsterdam", "Toronto", "Singapore"}
    assert trip["origin"] in offices
    assert trip["hotel"].endswith("Lisbon") or "Lisbon" in trip["hotel"]
    assert trip["cost"] > 0 and len(trip["currency"]) == 3


def test_faker_fills_only_what_was_left_open_and_plausibly(data: BusinessData) -> None:
    stated = Stated(
        text="I need to fly to Berlin next Tuesday",
        dates=(date(2026, 12, 8),),
        places=(Place("Berlin", "Germany", "EUR", role="destination"),),
    )
    trip = act(data, stated, "create", "flights").record
    assert trip["start_date"] == "2026-12-08"
    assert trip["end_date"] > trip["start_date"]
    assert trip["origin"] != "Berlin"


def test_the_same_request_gives_the_same_record(data: BusinessData) -> None:
    stated = Stated(text="Fly me to Oslo", places=(Place("Oslo", "Norway", "NOK"),))
    first = act(data, stated, "create", "flights").record
    again = act(data, stated, "create", "flights").record
    assert first == again


def test_a_lookup_of_a_name_that_does_not_exist_says_so(data: BusinessData) -> None:
    stated = Stated(
        text="Pull up the account for Zephyr Logistics",
        organisations=(Name("Zephyr Logistics"),),
    )
    outcome = act(data, stated, "find", "customers")
    assert outcome.record is None
    assert "no customer named Zephyr Logistics" in outcome.message
    for name in outcome.closest:
        assert name != "Zephyr Logistics"


def test_a_lookup_of_a_known_name_returns_that_record(data: BusinessData) -> None:
    customer = data.records("customers")[41]
    stated = Stated(
        text=f"Pull up {customer['name']}",
        organisations=(Name(customer["name"], "customer", customer["name"]),),
    )
    assert act(data, stated, "find", "customers").record["id"] == customer["id"]


def test_a_lookup_by_id_that_does_not_exist_never_answers_with_another(
    data: BusinessData,
) -> None:
    stated = Stated(text="Status of INC-99999?", ids={"INC": ("INC-99999",)})
    outcome = act(data, stated, "find", "incidents")
    assert outcome.record is None and "INC-99999" in outcome.message


def test_an_update_changes_only_what_the_request_states(data: BusinessData) -> None:
    saved = {
        "destination": "Lisbon",
        "origin": "London",
        "start_date": "2026-12-14",
        "end_date": "2026-12-16",
        "purpose": "client meeting",
        "flight": "TP 1350",
        "hotel": "Grand Hotel Lisbon",
        "cost": 310.0,
        "currency": "GBP",
    }
    stated = Stated(text="Push it back by two days", shift_days=2, shift_target="both")
    outcome = act(data, stated, "update", "flights", base=saved)
    trip = outcome.record
    assert (trip["start_date"], trip["end_date"]) == ("2026-12-16", "2026-12-18")
    assert {k: trip[k] for k in ("destination", "origin", "hotel", "currency")} == {
        k: saved[k] for k in ("destination", "origin", "hotel", "currency")
    }
    assert set(outcome.changed) >= {"start_date", "end_date"}


def test_a_claim_after_a_trip_uses_the_trip_and_the_stated_amount(data: BusinessData) -> None:
    given = {"currency": "EUR", "date": "2026-12-14", "trip": "Lisbon"}
    stated = Stated(text="Claim my taxi", quantities=())
    claim = act(data, stated, "create", "expenses", given=given).record
    assert (claim["currency"], claim["date"], claim["category"]) == ("EUR", "2026-12-14", "travel")
    stated = Stated(text="Claim 45 euros for a taxi", amounts=(Money(45.0, "EUR"),))
    claim = act(data, stated, "create", "expenses", given={**given, "currency": "GBP"}).record
    assert (claim["amount"], claim["currency"]) == (45.0, "EUR")


def test_fixed_values_win_over_everything(data: BusinessData) -> None:
    stated = Stated(text="Checkout is down, sev1", severity="sev1")
    incident = act(data, stated, "create", "incidents", fixed={"severity": "sev2"}).record
    assert incident["severity"] == "sev2"
    assert incident["service"] == "Checkout API"


def test_an_order_prices_the_stated_quantity_of_a_catalogue_product(data: BusinessData) -> None:
    stated = Stated(
        text="Order 20 office chairs for CUS-00098",
        quantities=(Quantity(20, "office chair"),),
        ids={"CUS": ("CUS-00098",)},
    )
    order = act(data, stated, "create", "orders").record
    assert order["customer_id"] == "CUS-00098" and order["quantity"] == 20
    assert "Chair" in order["product"]
    assert order["total"] == pytest.approx(order["unit_price"] * 20)


def test_the_requester_is_the_user_when_they_speak_of_themself(data: BusinessData) -> None:
    stated = Stated(text="I forgot my password")
    saved_colleague = {"id": "EMP-00007", "name": "Sofia Marin"}
    me = act(data, stated, "find", "employees", base=saved_colleague, requester=True).record
    assert me["email"] == USER and me["name"] == "Dana Reyes"
    stated = Stated(text="Reset the password for the new hire")
    them = act(data, stated, "find", "employees", base=saved_colleague, requester=True).record
    assert them["name"] == "Sofia Marin"


def test_what_the_conversation_holds_for_another_place_is_set_aside(data: BusinessData) -> None:
    stated = Stated(
        text="I need a hotel in Lisbon",
        places=(Place("Lisbon", "Portugal", "EUR", role="destination"),),
    )
    berlin = {"city": "Berlin", "check_in": "2026-12-08", "check_out": "2026-12-10"}
    held = Held(
        given={"city": "trip", "check_in": "trip", "check_out": "trip", "currency": "expense"}
    )
    given = {**berlin, "currency": "CHF", "stars": 5}
    outcome = act(data, stated, "create", "hotels", given=given, held=held)
    record = outcome.record
    assert record["city"] == "Lisbon"
    assert (record["check_in"], record["check_out"]) != ("2026-12-08", "2026-12-10")
    # What other variables and the agent itself say still applies.
    assert (record["currency"], record["stars"]) == ("CHF", 5)
    assert outcome.set_aside == ["trip"]
    same = act(data, Stated(text="I need a hotel"), "create", "hotels", given=berlin, held=held)
    assert (same.record["city"], same.record["check_in"]) == ("Berlin", "2026-12-08")
    assert same.set_aside == []


@pytest.mark.parametrize(
    ("source", "place", "field", "limit"),
    [
        ("flights", Place("New York", "United States", "USD", role="destination"), "cost", 900.0),
        ("hotels", Place("Oslo", "Norway", "NOK", role="destination"), "nightly_rate", 150.0),
        ("car_rentals", Place("Lyon", "France", "EUR", role="destination"), "daily_rate", 30.0),
    ],
)
def test_a_price_said_as_a_ceiling_is_kept_under(data, source, place, field, limit) -> None:
    # "under 900 USD" is the most it may cost: the flight was booked for exactly 900 USD.
    ceiling = Money(limit, "EUR" if source != "flights" else "USD", limit=True)
    stated = Stated(text=f"… in {place.name} under {limit}", places=(place,), amounts=(ceiling,))
    record = act(data, stated, "create", source).record
    assert record[field] < limit and record["currency"] == ceiling.currency, record
    assert f"{field}_at_most" not in record
    # Said as the price, it is the price.
    exact = Stated(
        text=f"… in {place.name} for {limit}",
        places=(place,),
        amounts=(Money(limit, ceiling.currency),),
    )
    assert act(data, exact, "create", source).record[field] == limit


def test_a_flight_to_new_york_is_priced_for_its_distance(data: BusinessData) -> None:
    # The mock's "New York" had no place on the map, so a flight there from Singapore was
    # priced like a short hop (376.99 USD).
    stated = Stated(
        text="Fly me to New York",
        places=(Place("New York", "United States", "USD", role="destination"),),
        amounts=(Money(5000.0, "USD", limit=True),),
    )
    trip = act(data, stated, "create", "flights").record
    assert trip["origin"] != "New York" and trip["cost"] > 900, trip
