"""The request runner and the two-best rule, against a scripted client (no account needed).

The same runner against the real account, in-process and over HTTP, is in
``test_demo_client.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from demo_app.request_runner import (
    NO_MATCH,
    RequestRun,
    answer_pending,
    choose,
    proceed,
    start_request,
)
from demo_app.search_choice import CLOSE_RATIO, is_close, two_best_choice
from demo_app.views import AnswerView, AskForm, ClientError, Match, Part, SearchOutcome

FLIGHT = "Book me a flight to Oslo on Monday"
TAXI = "File last week's taxi receipt"
BOTH = f"{FLIGHT} and file last week's taxi receipt"
FORM = AskForm.from_wire({"message": "Tell me about it.", "inputs": [{"name": "reason"}]})


def _match(name: str, score: float | None) -> Match:
    return Match(name, f"{name} title", "dept", score)


class ScriptedClient:
    """Search results and answers from tables; records every call in order."""

    def __init__(
        self,
        matches: dict[str, list[Match]],
        *,
        asks: frozenset[str] = frozenset(),
        fails: dict[str, str] | None = None,
        behavior: str = "executeTopMatch",
        previous: str | None = None,
    ) -> None:
        self.matches = matches
        self.asks = asks
        self.fails = fails or {}
        self.behavior = behavior
        self.previous = previous
        self.calls: list[tuple[str, ...]] = []

    def find(self, user: str, query: str, convid: str | None = None) -> SearchOutcome:
        self.calls.append(("find", query, str(convid)))
        found = tuple(self.matches.get(query, ()))
        return SearchOutcome(query, found, self.behavior, None if found else self.previous)

    def run(
        self,
        user: str,
        agent: str,
        query: str,
        convid: str | None = None,
        matches: tuple[Match, ...] = (),
    ) -> AnswerView:
        self.calls.append(("run", agent, query, str(convid)))
        if agent in self.fails:
            return AnswerView(query, False, self.fails[agent], agent, "dept", None, matches)
        new_convid = convid or "C" * 22
        ask = FORM if agent in self.asks else None
        parts = (Part("text", f"{agent} did it"),)
        return AnswerView(
            query, True, "ask" if ask else "success", agent, "d", new_convid, matches, parts, ask
        )

    def answer_ask(self, user: str, pending: AnswerView, answers: dict[str, Any]) -> AnswerView:
        self.calls.append(("answer", pending.agent, str(pending.convid), repr(answers)))
        if answers.get("reason") == "refuse":
            return AnswerView(pending.query, False, "errorInAgent", pending.agent, "d", None)
        parts = (Part("text", f"{pending.agent} finished with {answers['reason']}"),)
        return AnswerView(
            pending.query,
            True,
            "success",
            pending.agent,
            "d",
            pending.convid,
            pending.matches,
            parts,
        )


TABLE = {
    FLIGHT: [_match("BookFlight", 0.6), _match("CancelTrip", 0.3)],
    TAXI: [_match("SubmitExpense", 0.5), _match("CheckClaim", 0.2)],
}


def test_each_part_is_searched_and_run_on_the_same_conversation() -> None:
    client = ScriptedClient(TABLE)
    run = start_request(client, "u", BOTH)
    assert run.parts == (FLIGHT, TAXI) and run.done
    assert client.calls == [
        ("find", FLIGHT, "None"),
        ("run", "BookFlight", FLIGHT, "None"),
        ("find", TAXI, "C" * 22),
        ("run", "SubmitExpense", TAXI, "C" * 22),
    ]
    assert [r.answer.agent for r in run.results if r.answer] == ["BookFlight", "SubmitExpense"]
    assert run.composed() == (
        f"1/2 {FLIGHT}\n  BookFlight: BookFlight did it\n"
        f"2/2 {TAXI}\n  SubmitExpense: SubmitExpense did it"
    )


def test_an_ask_stops_the_run_and_the_rest_follows_the_answers() -> None:
    client = ScriptedClient(TABLE, asks=frozenset({"BookFlight"}))
    run = start_request(client, "u", BOTH, convid="X" * 22)
    assert run.pending_ask is not None and run.pending_ask.agent == "BookFlight"
    assert run.remaining == (TAXI,) and not run.done
    assert "Still to do: " + TAXI in run.composed()
    assert [c[0] for c in client.calls] == ["find", "run"]  # the taxi part waits

    refused = answer_pending(client, "u", run, {"reason": "refuse"})
    assert refused.pending_ask is run.pending_ask  # a refused answer leaves the form open
    assert refused.remaining == (TAXI,)

    done = answer_pending(client, "u", refused, {"reason": "client visit"})
    assert done.done and done.pending_ask is None
    assert [c[0] for c in client.calls] == ["find", "run", "answer", "answer", "find", "run"]
    assert [(r.index, r.answer.result_code) for r in done.results if r.answer] == [
        (0, "ask"),
        (0, "errorInAgent"),
        (0, "success"),
        (1, "success"),
    ]
    assert client.calls[-1] == ("run", "SubmitExpense", TAXI, "X" * 22)


def test_close_matches_wait_for_a_choice_when_the_account_offers_the_two_best() -> None:
    close = {
        FLIGHT: [_match("BookFlight", 0.50), _match("CancelTrip", 0.45)],
        TAXI: TABLE[TAXI],
    }
    client = ScriptedClient(close, behavior="showResults")
    run = start_request(client, "u", BOTH)
    assert run.choice is not None and run.choice.index == 0
    assert [m.agent_name for m in run.choice.options] == ["BookFlight", "CancelTrip"]
    assert run.results == () and run.remaining == (FLIGHT, TAXI)
    assert "(choose the agent: BookFlight or CancelTrip)" in run.composed()
    with pytest.raises(ClientError, match="was not offered"):
        choose(client, "u", run, "SomethingElse")

    picked = choose(client, "u", run, "CancelTrip")
    assert picked.done
    assert [r.answer.agent for r in picked.results if r.answer] == ["CancelTrip", "SubmitExpense"]


def test_the_sidebar_setting_overrides_what_the_search_reports() -> None:
    close = {FLIGHT: [_match("BookFlight", 0.50), _match("CancelTrip", 0.45)]}
    assert start_request(ScriptedClient(close), "u", FLIGHT, behavior="showResults").choice
    offered = ScriptedClient(close, behavior="showResults")
    assert start_request(offered, "u", FLIGHT, behavior="executeTopMatch").done


def test_a_part_without_a_match_is_reported_and_the_next_still_runs() -> None:
    client = ScriptedClient({TAXI: TABLE[TAXI]})
    run = start_request(client, "u", BOTH)
    assert run.done
    assert run.results[0].answer is None and run.results[0].problem == NO_MATCH
    assert run.results[1].answer is not None and run.results[1].answer.agent == "SubmitExpense"


def test_without_a_match_in_a_conversation_the_previous_agent_answers() -> None:
    client = ScriptedClient({}, previous="BookFlight")
    run = start_request(client, "u", TAXI, convid="X" * 22)
    assert run.results[0].answer is not None and run.results[0].answer.agent == "BookFlight"


def test_a_failed_part_does_not_stop_the_next_but_a_refusing_conversation_does() -> None:
    failing = ScriptedClient(TABLE, fails={"BookFlight": "errorInAgent"})
    run = start_request(failing, "u", BOTH)
    assert run.done and [r.answer.success for r in run.results if r.answer] == [False, True]

    refusing = ScriptedClient(TABLE, fails={"BookFlight": "unknownConversation"})
    stopped = start_request(refusing, "u", BOTH, convid="X" * 22)
    assert stopped.done and stopped.stopped == "unknownConversation"
    assert len(stopped.results) == 1 and stopped.remaining == (TAXI,)
    assert f"Not sent (unknownConversation): {TAXI}" in stopped.composed()


def test_an_unreachable_account_mid_request_keeps_what_ran() -> None:
    class Dies(ScriptedClient):
        def find(self, user: str, query: str, convid: str | None = None) -> SearchOutcome:
            if query == TAXI:
                raise ClientError("Cannot reach the server at http://x: ConnectError.")
            return super().find(user, query, convid)

    run = start_request(Dies(TABLE), "u", BOTH)
    assert run.results[0].answer is not None and run.results[0].answer.success
    assert run.results[1].problem == "Cannot reach the server at http://x: ConnectError."
    assert run.done and run.stopped


@pytest.mark.parametrize("bad", ["", "   ", "short", "x" * 10_001, ",,,,,,,,,,"])
def test_invalid_text_runs_nothing(bad: str) -> None:
    client = ScriptedClient(TABLE)
    with pytest.raises(ClientError):
        start_request(client, "u", bad)
    assert client.calls == []


def test_waiting_on_a_reopened_ask_and_errors_without_one() -> None:
    client = ScriptedClient(TABLE)
    paused = AnswerView(TAXI, True, "ask", "SubmitExpense", "d", "X" * 22, ask=FORM)
    run = RequestRun.waiting_on(paused)
    assert run.pending_ask is paused and run.remaining == ()
    done = answer_pending(client, "u", run, {"reason": "taxi"})
    assert done.done and done.results[-1].answer.parts[0].text.endswith("with taxi")
    with pytest.raises(ClientError, match="no question waiting"):
        answer_pending(client, "u", done, {"reason": "again"})
    with pytest.raises(ClientError, match="no choice"):
        choose(client, "u", done, "BookFlight")
    assert proceed(client, "u", done) == done


@pytest.mark.parametrize(
    ("best", "second", "close"),
    [
        (0.50, 0.50, True),
        (0.50, 0.425, True),  # exactly CLOSE_RATIO of the best
        (0.50, 0.42, False),
        (0.30, 0.29, True),
        (0.90, 0.30, False),
        (0.0, 0.0, True),
        (0.5, None, False),
    ],
)
def test_close_means_the_runner_up_scores_at_least_the_ratio_of_the_best(
    best: float, second: float | None, close: bool
) -> None:
    assert CLOSE_RATIO == 0.85
    assert is_close(_match("A", best), _match("B", second)) is close


@pytest.mark.parametrize(
    ("behavior", "scores", "offered"),
    [
        ("executeTopMatch", (0.5, 0.49), False),
        ("showResults", (0.5, 0.49), True),
        ("showResults", (0.5, 0.2), False),  # a clear winner runs even when offering two
        ("showResults", (0.5,), False),
        ("executeOnlyMatch", (0.5, 0.2), True),  # several matches: the user chooses
        ("executeOnlyMatch", (0.5,), False),  # a sole match runs
    ],
)
def test_when_the_two_best_are_offered(
    behavior: str, scores: tuple[float, ...], offered: bool
) -> None:
    matches = tuple(_match(f"A{i}", s) for i, s in enumerate(scores))
    choice = two_best_choice(SearchOutcome("q" * 8, matches, behavior))
    assert (choice is not None) is offered
    if choice is not None:
        assert choice == (matches[0], matches[1])
