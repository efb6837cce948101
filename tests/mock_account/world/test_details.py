"""Every fact a request states is kept (``conv.request``) and said in the answer, once; a
follow-up that points back carries the request before it, and says what it changed."""

from __future__ import annotations

import datetime as dt

from handoff_journeys import run_agent, state_of

from mock_account.business.data import BusinessData
from mock_account.world.details import Details, carried_over, details_of, noted
from mock_account.world.understand import understand_request

TODAY = dt.date(2026, 12, 7)
understand = understand_request(BusinessData(seed=7))


def test_a_request_s_facts_are_read_by_kind() -> None:
    details = details_of(
        understand(
            "Roll the pricing-service back to 3.4.1 in staging for 45 minutes, "
            "and tell Priya Nair at Corvane Robotics by 16:30; ticket budget 2,500 EUR, 15%.",
            TODAY,
        )
    )
    assert details["code"] == "pricing-service"
    assert details["version"] == "3.4.1"
    assert details["environment"] == "staging"
    assert details["duration"] == "45 minutes"
    assert details["person"] == "Priya Nair"
    assert details["company"] == "Corvane Robotics"
    assert details["time"] == "16:30"
    assert details["amount"] == "2500 EUR"
    assert details["percentage"] == "15%"


def test_the_answer_adds_what_it_left_out_and_a_change_says_what_it_was() -> None:
    said = noted(Details({"company": "Corvane Robotics", "time": "16:30"}), "Booked at 16:30.")
    assert said == "Noted: Corvane Robotics."
    assert noted(Details({"time": "16:30"}), "Booked at 16:30.") == ""
    changed = Details({"percentage": "60%"}, changed={"percentage": "25%"})
    assert noted(changed, "Updated.") == "Noted: 60% (was 25%)."
    # A follow-up says whom it is for when its answer does not.
    carried = Details({"person": "Lena Vogt", "amount": "90 EUR"}, frozenset({"person", "amount"}))
    assert noted(carried, "Sent.") == "This is for Lena Vogt."


def test_a_follow_up_carries_the_request_before_only_when_it_follows_on() -> None:
    before = {"code": "search-indexer", "percentage": "25%"}
    follows = carried_over(understand("Raise that to 60%", TODAY), before, same_agent=False)
    assert follows.values == {"code": "search-indexer", "percentage": "60%"}
    assert follows.changed == {"percentage": "25%"} and follows.carried == {"code"}
    fresh = carried_over(understand("Book a flight to Oslo", TODAY), before, same_agent=False)
    assert fresh.values["to"] == "Oslo" and "code" not in fresh.values and not fresh.carried
    # What the request before said is still the conversation's, kept apart and never said anew.
    assert fresh.kept == before and fresh.as_json() == {**fresh.values, "earlier": before}
    assert "search-indexer" not in noted(fresh, "I booked a flight to Oslo.")
    # A follow-up of the flight carries the flight's details, not those kept from before it.
    saved = fresh.as_json()
    moved = carried_over(understand("move it to Friday", TODAY), saved, same_agent=True)
    assert "code" not in moved.values and "code" not in moved.carried, moved
    assert moved.kept == before


def test_a_number_said_alone_is_in_the_unit_of_what_it_changes() -> None:
    before = {"code": "new-search-ranking", "percentage": "10%"}
    said = understand("metrics look healthy after an hour, take it up to 50", TODAY)
    follows = carried_over(said, before, same_agent=True)
    assert follows.values["percentage"] == "50%", follows.values
    assert follows.changed == {"percentage": "10%"}
    budget = carried_over(understand("make it 30", TODAY), {"amount": "20 USD"}, same_agent=True)
    assert budget.values["amount"] == "30 USD", budget.values
    # A quantity keeps all of what it counts.
    counted = {"quantity": "25 x VX-900 patient monitors"}
    bumped = carried_over(understand("bump it to 30", TODAY), counted, same_agent=True)
    assert bumped.values["quantity"] == "30 x VX-900 patient monitors", bumped.values
    # A day or a time is no such number.
    moved = carried_over(understand("move it to 9am", TODAY), before, same_agent=True)
    assert moved.values["percentage"] == "10%", moved.values


def test_what_no_field_takes_is_said_and_kept_for_the_next_turn(deployment, user) -> None:
    request = "Turn on the dark_mode_v2 flag for 10% of users in production"
    first = run_agent(deployment, user, "ToggleFeatureFlag", request, None)
    text = first.parts[0]["text"]
    assert "dark_mode_v2" in text and "10%" in text, text
    kept = state_of(deployment, user, first.convid)["conv"]["request"]["details"]
    assert kept["code"] == "dark_mode_v2" and kept["percentage"] == "10%"
    again = run_agent(deployment, user, "ToggleFeatureFlag", "Raise it to 50%", first.convid)
    text = again.parts[0]["text"]
    assert "50% (was 10%)" in text, text
    kept = state_of(deployment, user, first.convid)["conv"]["request"]["details"]
    assert kept["code"] == "dark_mode_v2" and kept["percentage"] == "50%"


def test_a_question_to_an_agent_that_changes_records_answers_and_changes_nothing(
    deployment, user
) -> None:
    # "Is invoice X still unpaid?" sent a reminder and never said whether it was paid.
    asked = run_agent(deployment, user, "ChaseOverdueInvoice", "Is INV-000318 still unpaid?", None)
    text = asked.parts[0]["text"]
    assert text.startswith("Invoice INV-000318 (") and "Nothing was changed." in text, text
    assert "reminder" not in text, text
    # The conversation is about that invoice now: asked to act, the agent acts on it.
    chased = run_agent(
        deployment, user, "ChaseOverdueInvoice", "Send them a reminder", asked.convid
    )
    assert "A payment reminder for invoice INV-000318" in chased.parts[0]["text"], chased.parts


def test_a_level_typed_as_a_code_of_one_s_own_is_noted_as_typed() -> None:
    assert (
        details_of(understand("How many P1 incidents are open right now?", TODAY))["severity"]
        == "P1"
    )
    # Its own name, in any spelling, is the level.
    assert (
        details_of(understand("Declare a SEV-1 incident for payments", TODAY))["severity"] == "sev1"
    )


def test_of_several_people_only_those_the_answer_leaves_out_are_noted() -> None:
    details = Details({"person": "Jonas Weber, Clara Wong", "date": "2026-12-31"})
    assert noted(details, "Done for Jonas Weber and Clara Wong.") == "Noted: on 2026-12-31."
    assert noted(details, "Done for Jonas Weber.") == "Noted: Clara Wong; on 2026-12-31."


def test_a_quarter_keeps_its_name_beside_its_days() -> None:
    details = details_of(understand("How much commission have I made in Q3 so far?", TODAY))
    assert details["period"] == "Q3" and details["dates"] == "2026-07-01 to 2026-09-30", details
    # Beside other days too ("closed last week", within the quarter asked about).
    said = understand("Is last week's Halvorsen deal counted in my Q4 commission?", TODAY)
    assert details_of(said)["period"] == "Q4"


def test_the_days_of_an_event_come_before_the_year_of_a_story() -> None:
    said = understand(
        "Last year we had a tiny stand at the expo. This year the show runs 22 to 24 April.", TODAY
    )
    assert (said.start, said.end) == (dt.date(2027, 4, 22), dt.date(2027, 4, 24))


def test_goods_are_counted_before_whom_to_ask() -> None:
    said = understand("Go out to three vendors for pricing on 250 ergonomic chairs", TODAY)
    assert [q.item for q in said.quantities] == ["ergonomic chair", "vendor"]
