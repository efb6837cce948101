"""The runtime and the state rules: what is saved, when, and what a paused run keeps."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from itertools import count

import pytest

from agents_catalog.loader import parse_agent_text
from mock_account.business.data import BusinessData
from mock_account.engine.mock_model import MockModel
from mock_account.engine.runtime import Engine, RunLimits
from mock_account.engine.templates import render_text

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def agent(name: str, main: str, functions: str = "", version: str = "1.0.0"):
    text = (
        f"name: {name}\ntitle: {name} title\ntag: test\ndescription: {name} does things.\n"
        f"version: '{version}'\nmain:\n{main}"
    )
    if functions:
        text += f"functions:\n{functions}"
    return parse_agent_text(text, f"{name}.yaml")[0]


SETTER = agent(
    "Setter",
    """  - prompt: {name: chat, user: "{sys.query}"}
  - var: {name: conv.trip, value: {destination: Berlin}}
  - var: {name: agent.seen, value: "{sys.query}"}
  - var: {name: scratch, value: 1}
  - llm: {prompt: chat, reply: "Trip to {conv.trip.destination} saved."}
  - output: "{result}"
  - end: {}
""",
)
READER = agent(
    "Reader",
    """  - prompt: {name: chat, user: "{sys.query}"}
  - llm:
      prompt: chat
      reply: "Expenses for {conv.trip.destination}; scratch={scratch}; mine={agent.seen}."
  - output: "{result}"
  - end: {}
""",
)
FAILER = agent(
    "Failer",
    """  - var: {name: conv.trip, value: {destination: Paris}}
  - fail: {message: "cannot do {sys.query}"}
""",
)
BROKEN = agent(
    "Broken",
    """  - var: {name: conv.trip, value: {destination: Rome}}
  - func: {name: nowhere}
""",
)
LOOPER = agent(
    "Looper",
    """  - var: {name: conv.trip, value: {destination: Oslo}}
  - var: {name: items, value: [1, 2, 3]}
  - for:
      each: items
      as: i
      do: [{for: {each: items, as: j, do: [{var: {name: k, value: "{i}{j}"}}]}}]
  - func: {name: again}
""",
    functions="""  again:
    - func: {name: again}
""",
)
ASKER = agent(
    "Asker",
    """  - var: {name: conv.trip, value: {destination: Lima}}
  - func: {name: collect, args: {greeting: hello}, into: got}
  - output: "{got}"
  - return: {value: done}
""",
    functions="""  collect:
    - var: {name: before, value: "{greeting} {sys.query}"}
    - ask:
        message: Which seat?
        inputs:
          - {name: seat, type: chooseOne, label: Seat, options: [aisle, window]}
          - {name: note, type: text, label: Note, default: none}
    - return: {value: "{before} / {answers.seat} / {answers.note}"}
""",
)
SCOPES = agent(
    "Scopes",
    """  - prompt: {name: chat, user: "{sys.query}"}
  - prompt: {name: notes, scope: agent, user: "note {sys.query}"}
  - prompt: {name: draft, scope: local, user: "draft {sys.query}"}
  - llm: {prompt: draft, reply: "drafted", into: d}
  - llm: {prompt: notes, reply: "noted", into: n}
  - llm: {prompt: chat, reply: "answered"}
  - output: "{result}"
  - end: {}
""",
)
SCOPES_TWIN = agent(
    "ScopesTwin",
    """  - prompt: {name: notes, scope: agent, user: "twin {sys.query}"}
  - llm: {prompt: notes, reply: "twin noted", into: n}
  - output: "{n}"
  - end: {}
""",
)
BADSTATE = agent(
    "BadState",
    """  - var: {name: conv.trip, value: {destination: "{sys.inputs.bad}"}}
  - end: {}
""",
)


@pytest.fixture
def engine() -> Engine:
    agents = [SETTER, READER, FAILER, BROKEN, LOOPER, ASKER, SCOPES, SCOPES_TWIN, BADSTATE]
    return Engine({a.name: a for a in agents}, MockModel(), BusinessData(seed=7))


def run(engine: Engine, name: str, state, query: str = "please do it", **inputs):
    return engine.run(name, state, {"query": query, **inputs}, user="u@x", convid="c" * 22, now=NOW)


def test_end_saves_conv_and_agent_variables_but_not_locals(engine: Engine) -> None:
    out = run(engine, "Setter", None, "book Berlin")
    assert out.result_code == "success" and out.saves
    assert out.state["conv"] == {"trip": {"destination": "Berlin"}}
    assert out.state["agents"] == {"Setter": {"seen": "book Berlin"}}
    assert "scratch" not in str(out.state["runs"][-1]["paused"])
    assert out.parts[0]["text"].startswith("Trip to Berlin saved.")


def test_next_agent_continues_from_saved_state_and_shared_chat(engine: Engine) -> None:
    first = run(engine, "Setter", None, "book Berlin")
    second = run(engine, "Reader", first.state, "file expenses")
    text = second.parts[0]["text"]
    assert "Expenses for Berlin" in text
    assert "scratch=;" in text  # locals of an ended run are gone
    assert "mine=." in text  # agent variables are per agent
    assert second.reads == ["trip"]
    assert [r["agent"] for r in second.state["runs"]] == ["Setter", "Reader"]
    assert len(second.state["prompts"]["chat"]["messages"]) == 4


def test_return_from_main_saves(engine: Engine) -> None:
    paused = run(engine, "Asker", None, "seat please")
    done = engine.run("Asker", paused.state, {"seat": "aisle"}, user="u", convid="c", now=NOW)
    assert done.result_code == "success" and done.saves


@pytest.mark.parametrize(
    ("name", "code"),
    [("Failer", "failCommand"), ("Broken", "errorInAgent"), ("Looper", "errorInAgent")],
)
def test_failures_save_nothing(engine: Engine, name: str, code: str) -> None:
    before = run(engine, "Setter", None, "book Berlin").state
    snapshot = repr(before)
    out = run(engine, name, before)
    assert out.result_code == code
    assert not out.saves and out.state is None
    assert repr(before) == snapshot  # the caller's state was not touched


def test_fail_message_is_templated(engine: Engine) -> None:
    out = run(engine, "Failer", None, "the impossible")
    assert out.error == "cannot do the impossible"


def test_time_limit_gives_timed_out_and_saves_nothing() -> None:
    ticks = count()
    engine = Engine(
        {LOOPER.name: LOOPER},
        MockModel(),
        BusinessData(seed=7),
        RunLimits(time_limit_s=5.0),
        clock=lambda: float(next(ticks)),  # each check advances one "second"
    )
    out = run(engine, "Looper", None)
    assert out.result_code == "timedOut" and not out.saves


def test_stop_gives_stopped_and_saves_nothing(engine: Engine) -> None:
    stop = threading.Event()
    stop.set()
    out = engine.run("Setter", None, {"query": "x" * 9}, user="u", convid="c", now=NOW, stop=stop)
    assert out.result_code == "stopped" and not out.saves


def test_ask_saves_the_call_stack_with_locals_and_resumes(engine: Engine) -> None:
    paused = run(engine, "Asker", None, "window seat")
    assert paused.result_code == "ask" and paused.saves
    assert paused.ask_input["message"] == "Which seat?"
    assert [i["type"] for i in paused.ask_input["inputs"]] == ["chooseOne", "text"]
    stack = paused.state["runs"][-1]["paused"]["stack"]
    assert [f["function"] for f in stack] == ["main", "collect"]
    assert stack[-1]["locals"]["before"] == "hello window seat"
    assert paused.state["conv"]["trip"] == {"destination": "Lima"}  # saved on ask
    done = engine.run("Asker", paused.state, {"seat": "window"}, user="u", convid="c", now=NOW)
    assert done.parts[-1]["text"] == "hello window seat / window / none"
    assert done.state["runs"][-1]["paused"] is None
    assert len(done.state["runs"]) == 1  # the paused run became the finished run


def test_invalid_answer_asks_again_without_changing_state(engine: Engine) -> None:
    paused = run(engine, "Asker", None, "window seat")
    again = engine.run("Asker", paused.state, {"seat": "roof"}, user="u", convid="c", now=NOW)
    assert again.result_code == "ask" and not again.saves
    assert "must be one of: aisle, window" in again.parts[0]["text"]


def test_other_agent_is_refused_while_waiting_on_ask(engine: Engine) -> None:
    paused = run(engine, "Asker", None, "window seat")
    out = run(engine, "Setter", paused.state)
    assert out.result_code == "unknownConversation"
    assert "waiting for your answers to another agent" in out.error


def test_same_agent_other_version_is_refused_while_waiting(engine: Engine) -> None:
    paused = run(engine, "Asker", None, "window seat")
    newer = ASKER.model_copy(update={"version": "2.0.0"})
    engine.agents["Asker"] = newer
    out = engine.run("Asker", paused.state, {"seat": "aisle"}, user="u", convid="c", now=NOW)
    assert out.result_code == "unknownConversation"


def test_prompt_scopes(engine: Engine) -> None:
    first = run(engine, "Scopes", None, "one")
    prompts = first.state["prompts"]
    assert set(prompts) == {"chat", "Scopes/notes"}  # local prompts are never saved
    assert prompts["Scopes/notes"]["scope"] == "agent"
    second = run(engine, "Scopes", first.state, "two")
    notes = second.state["prompts"]["Scopes/notes"]["messages"]
    assert [m["content"] for m in notes if m["role"] == "user"] == ["note one", "note two"]
    twin = run(engine, "ScopesTwin", second.state, "three")
    assert twin.parts[0]["text"] == "twin noted"  # does not see Scopes' notes
    assert twin.state["prompts"]["ScopesTwin/notes"]["messages"][0]["content"] == "twin three"


def test_unknown_agent_is_call_failed(engine: Engine) -> None:
    assert run(engine, "Nobody", None).result_code == "callFailed"


def test_password_answers_are_not_kept_in_the_run_record() -> None:
    secret = agent(
        "Secret",
        """  - ask:
      message: Your password?
      inputs: [{name: pw, type: password, label: Password}]
  - if:
      when: {left: "{answers.pw}", op: "==", right: hunter22}
      then: [{output: right password}]
      else: [{output: wrong password}]
  - end: {}
""",
    )
    engine = Engine({"Secret": secret}, MockModel(), BusinessData(seed=7))
    paused = run(engine, "Secret", None, "unlock my account")
    done = engine.run("Secret", paused.state, {"pw": "hunter22"}, user="u", convid="c", now=NOW)
    assert done.parts[0]["text"] == "right password"
    assert "hunter22" not in repr(done.state)


def test_an_empty_optional_sentence_leaves_no_gap_in_the_answer() -> None:
    text = MockModel().answer(agent="A", system="", messages=[], reply="Logged it.  I used X. ")
    assert text == "Logged it. I used X."


def test_choices_in_text_read_as_words_and_other_values_as_json() -> None:
    values = {"picked": ["flight", "hotel near the venue"], "mixed": [1, "a"], "none": []}
    assert render_text("Noted - {picked}.", values.get) == "Noted - flight, hotel near the venue."
    assert render_text("{mixed}|{none}", values.get) == '[1, "a"]|'


def test_the_model_speaks_once_whatever_the_history() -> None:
    # Every follow-up ended with a quote of the previous answer and "Known so far: …": a
    # prospect read it as clutter. What the answer remembers is in its filled template.
    messages = [
        {"role": "user", "content": "fly to Berlin", "agent": "Flight"},
        {"role": "tool_result", "name": "data.flights", "content": {"destination": "Berlin"}},
        {"role": "assistant", "content": "I booked flight DL 1 to Berlin.", "agent": "Flight"},
        {"role": "user", "content": "a hotel there", "agent": "Hotel"},
        {"role": "tool_result", "name": "data.hotels", "content": {"name": "Park Suites"}},
    ]
    reply = "I reserved a room at Park Suites in Berlin. I used the trip to Berlin."
    text = MockModel().answer(agent="Hotel", system="", messages=messages, reply=reply)
    assert text == reply
    assert MockModel().answer(agent="Hotel", system="", messages=messages, reply=reply) == text
    assert MockModel().answer(agent="Hotel", system="", messages=[], reply="  ") == "Done."
