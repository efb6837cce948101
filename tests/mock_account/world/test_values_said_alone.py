"""A follow-up that changes a value often says only the new number: it is read in the unit of
what the request before asked ("make that 55 instead" after 40 ergonomic chairs), and an agent
that works on the user's own records makes one the data lacks (an offer for a finalist of
theirs) before changing it."""

from __future__ import annotations

import datetime as dt

from handoff_journeys import run_agent, state_of

from mock_account.business.data import BusinessData
from mock_account.world.understand import understand_request
from mock_account.world.units import with_units

TODAY = dt.date(2026, 12, 7)
understand = understand_request(BusinessData(seed=7))
ORDERED = {"quantity": "40 ergonomic chairs", "place": "Singapore"}
OFFERED = {"person": "Mei Ling Tan", "amount": "96000 SGD", "date": "2027-02-01"}


def _read(text: str, before: dict[str, str]) -> str:
    return with_units(text, understand(text, TODAY), before)


def test_a_number_said_alone_takes_the_unit_of_what_it_changes() -> None:
    assert _read("They called back - make that 55 instead", ORDERED) == (
        "They called back - make that 55 ergonomic chairs instead"
    )
    assert _read("She came back with a counter. Raise the base to 102000.", OFFERED) == (
        "She came back with a counter. Raise the base to 102000 SGD."
    )
    assert _read("Make it 100k actually.", OFFERED) == "Make it 100k SGD actually."
    # Money when the change says so, though a count was asked too.
    both = {"quantity": "120 sensors", "amount": "85 SGD"}
    assert _read("Make the price 80 each", both) == "Make the price 80 SGD each"
    assert _read("Make it 150", both) == "Make it 150 sensors"


def test_a_number_with_its_own_unit_or_no_change_is_read_as_said() -> None:
    for text in (
        "Make that 55 chairs instead",  # a count of its own
        "Raise it to 102000 EUR",  # money of its own
        "Add 5 more",  # more of the same: counted by the request before
        "Move it to 14 January",  # a day
        "What does 55 look like?",  # no change
    ):
        assert _read(text, {**ORDERED, **OFFERED}) == text
    assert _read("Make that 55 instead", {}) == "Make that 55 instead"


def test_a_count_changed_alone_is_the_new_count_of_the_same_thing(deployment, user) -> None:
    agent = "CreatePurchaseRequisition"
    first = run_agent(deployment, user, agent, "Order 40 ergonomic chairs for our office", None)
    changed = run_agent(
        deployment, user, agent, "They just called back - make that 55 instead", first.convid
    ).parts[0]["text"]
    assert "55 x " in changed and "chair" in changed.split("55 x ")[1], changed
    assert "55 ergonomic chairs (was 40 ergonomic chairs)" in changed, changed


def test_an_offer_for_a_finalist_the_data_lacks_is_made_and_then_changed(deployment, user) -> None:
    text = (
        "We've decided on Mei Ling Tan for the Product Designer opening. "
        "Prepare her offer: 96000 SGD a year, start date 1 February."
    )
    offered = run_agent(deployment, user, "PrepareJobOffer", text, None)
    said = offered.parts[0]["text"]
    assert said.startswith("An offer letter for Mei Ling Tan as Product Designer"), said
    candidate = state_of(deployment, user, offered.convid)["conv"]["candidate"]
    assert (candidate["name"], candidate["stage"]) == ("Mei Ling Tan", "offer")
    raised = run_agent(
        deployment,
        user,
        "PrepareJobOffer",
        "She came back with a counter. Raise the base to 102000.",
        offered.convid,
    ).parts[0]["text"]
    assert "Mei Ling Tan" in raised and "102000 SGD (was 96000 SGD)" in raised, raised
    assert state_of(deployment, user, offered.convid)["conv"]["candidate"]["id"] == candidate["id"]


def test_the_value_a_change_replaces_is_no_new_value() -> None:
    ordered = {"quantity": "15 Lenovo ThinkPad X1 Carbon"}
    assert _read("make it 18 not 15", ordered) == "make it 18 Lenovo ThinkPad X1 Carbon not 15"
    assert _read("change it from 15 to 18", ordered) == (
        "change it from 15 to 18 Lenovo ThinkPad X1 Carbon"
    )
