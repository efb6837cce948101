"""Follow-up routing: which agent runs for each follow-up behaviour."""

from __future__ import annotations

import pytest

from mock_account.search.routing import FOLLOWUP_BEHAVIORS, choose_agent

TWO = ["BookBusinessFlight", "BookHotelStay"]
ONE = TWO[:1]


def test_behaviours_are_the_four_of_the_spec() -> None:
    assert set(FOLLOWUP_BEHAVIORS) == {
        "executeTopMatch",
        "executeOnlyMatch",
        "showResults",
        "executePrevious",
    }


def test_top_match_is_the_default_and_runs_the_best_match() -> None:
    decision = choose_agent(TWO, previous_agent="TrackFlightStatus")
    assert decision.agent_name == "BookBusinessFlight"
    assert decision.show_results is False


def test_top_match_falls_back_to_the_previous_agent() -> None:
    decision = choose_agent([], behavior="executeTopMatch", previous_agent="BookHotelStay")
    assert decision.agent_name == "BookHotelStay"
    assert decision.show_results is False


def test_top_match_without_match_or_previous_runs_nothing() -> None:
    decision = choose_agent([], behavior="executeTopMatch", previous_agent=None)
    assert decision.agent_name is None
    assert decision.show_results is True
    assert decision.reason


def test_only_match_runs_a_single_hit() -> None:
    decision = choose_agent(ONE, behavior="executeOnlyMatch", previous_agent="X")
    assert (decision.agent_name, decision.show_results) == ("BookBusinessFlight", False)


@pytest.mark.parametrize("hits", [TWO, []])
def test_only_match_shows_results_otherwise(hits: list[str]) -> None:
    decision = choose_agent(hits, behavior="executeOnlyMatch", previous_agent="BookHotelStay")
    assert (decision.agent_name, decision.show_results) == (None, True)


@pytest.mark.parametrize("hits", [TWO, ONE, []])
def test_show_results_never_runs(hits: list[str]) -> None:
    decision = choose_agent(hits, behavior="showResults", previous_agent="BookHotelStay")
    assert (decision.agent_name, decision.show_results) == (None, True)


def test_previous_runs_the_previous_agent_even_when_another_matches() -> None:
    decision = choose_agent(TWO, behavior="executePrevious", previous_agent="TrackFlightStatus")
    assert (decision.agent_name, decision.show_results) == ("TrackFlightStatus", False)


def test_previous_without_previous_agent_runs_the_top_match() -> None:
    decision = choose_agent(TWO, behavior="executePrevious", previous_agent=None)
    assert decision.agent_name == "BookBusinessFlight"


def test_previous_with_nothing_at_all_runs_nothing() -> None:
    decision = choose_agent([], behavior="executePrevious", previous_agent=None)
    assert (decision.agent_name, decision.show_results) == (None, True)


def test_unknown_behaviour_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown follow-up behaviour 'runAll'"):
        choose_agent(TWO, behavior="runAll", previous_agent=None)  # type: ignore[arg-type]
