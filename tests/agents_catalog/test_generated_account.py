"""Facts of the committed 200-agent account (198 generated, 2 hand-written), computed from its
files."""

from __future__ import annotations

import dataclasses
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from agents_catalog.agent_format import AskArgs, PromptArgs, command_args, walk_commands
from agents_catalog.capabilities import load_departments
from agents_catalog.generator import (
    DEFAULT_SEED,
    GeneratorError,
    generate_files,
    hand_written_files,
    write_account,
)
from agents_catalog.graph import CONTEXT_VARIABLES, build_handoff_graph
from agents_catalog.loader import load_account
from agents_catalog.scheme import load_scheme
from mock_account.business.data import BusinessData
from mock_account.deployment import default_account_dir
from mock_account.engine.mock_model import MockModel
from mock_account.engine.runtime import Engine

ACCOUNT = default_account_dir()


@pytest.fixture(scope="module")
def agents():
    return load_account(ACCOUNT)


def test_committed_account_is_what_the_generator_makes_and_the_hand_written_agents() -> None:
    files = generate_files(seed=DEFAULT_SEED)
    committed = {p.name: p.read_text(encoding="utf-8") for p in Path(ACCOUNT).glob("*.yaml")}
    hand_written = hand_written_files(ACCOUNT)
    assert sorted(hand_written) == [
        "CompleteNewHireOnboarding.yaml",
        "CompleteSupplierOnboarding.yaml",
    ]
    assert len(files) == 198
    assert sorted(committed) == sorted([*files, *hand_written])
    mismatched = [name for name, text in files.items() if committed[name] != text]
    assert mismatched == []


def test_regenerating_the_account_keeps_the_hand_written_agents(tmp_path: Path) -> None:
    copy = tmp_path / "account"
    copy.mkdir()
    for path in Path(ACCOUNT).glob("*.yaml"):
        (copy / path.name).write_bytes(path.read_bytes())
    (copy / "Retired.yaml").write_text("name: Retired\n")  # a generated agent no longer made
    write_account(generate_files(seed=DEFAULT_SEED), copy, force=True)
    regenerated = {p.name: p.read_bytes() for p in copy.glob("*.yaml")}
    assert regenerated == {p.name: p.read_bytes() for p in Path(ACCOUNT).glob("*.yaml")}


def test_same_seed_same_bytes_other_seed_other_wording() -> None:
    assert generate_files(count=30, seed=3) == generate_files(count=30, seed=3)
    assert generate_files(seed=3) != generate_files(seed=4)


def test_what_an_answer_adds_is_only_for_variables_the_agent_reads() -> None:
    finance = next(d for d in load_departments() if d.tag == "finance")
    claim = next(c for c in finance.capabilities if c.name == "SubmitExpenseClaim")
    assert claim.used.keys() == {"trip"}  # what the committed account says after the trip
    unread = dataclasses.replace(claim, used={**claim.used, "order": "Not read."})
    with pytest.raises(GeneratorError, match=r"SubmitExpenseClaim: 'used' names .*'order'"):
        generate_files(departments=[dataclasses.replace(finance, capabilities=(unread,))])


def test_a_form_field_opens_at_what_was_saved_when_the_request_states_none() -> None:
    sales = next(d for d in load_departments() if d.tag == "sales")
    order = next(c for c in sales.capabilities if c.name == "PlaceCustomerOrder")
    (text,) = generate_files(
        departments=[dataclasses.replace(sales, capabilities=(order,))]
    ).values()
    main = yaml.safe_load(text)["main"]
    (ask,) = [c["ask"] for c in main if "ask" in c]
    opened = {i["name"]: i.get("default") for i in ask["inputs"]}
    # The agent format has no "otherwise": the field opens at a local chosen before the ask.
    assert opened["product"] == "{opens_product}" and "otherwise" not in ask["inputs"][0]
    choice = next(c["if"] for c in main if "if" in c and "opens_product" in str(c))
    assert choice["when"] == {"exists": "sys.stated.quantities.0.item"}
    assert choice["then"][0]["var"]["value"] == "{sys.stated.quantities.0.item}"
    assert choice["else"][0]["var"]["value"] == "{conv.quote.name}"


def test_two_hundred_agents_in_at_least_ten_departments(agents) -> None:
    per_department = Counter(a.tag for a in agents)
    assert len(agents) == 200
    assert len(per_department) >= 10
    assert min(per_department.values()) >= 10


def test_names_and_titles_are_unique_and_examples_plentiful(agents) -> None:
    assert len({a.name for a in agents}) == len(agents)
    assert len({a.title.lower() for a in agents}) == len(agents)
    assert all(len(a.examples) >= 3 for a in agents)
    assert all(len(a.description) >= 100 for a in agents)


def test_every_agent_talks_through_the_conversation_scoped_chat_prompt(agents) -> None:
    scheme = load_scheme()
    for agent in agents:
        prompts = [
            command_args(c)
            for c in walk_commands(list(agent.main))
            if isinstance(command_args(c), PromptArgs)
        ]
        chat = [p for p in prompts if p.name == "chat"]
        assert chat and all(p.scope == scheme.prompts["chat"].scope for p in chat), agent.name


def test_account_has_agent_and_local_prompts_asks_of_every_type_and_failures(agents) -> None:
    scopes: Counter[str] = Counter()
    input_types: set[str] = set()
    failing = 0
    for agent in agents:
        commands = list(walk_commands(list(agent.main)))
        for command in commands:
            args = command_args(command)
            if isinstance(args, PromptArgs):
                scopes[args.scope] += 1
            if isinstance(args, AskArgs):
                input_types.update(i.type for i in args.inputs)
        failing += any(type(command_args(c)).__name__ == "FailArgs" for c in commands)
    assert scopes["agent"] >= 5 and scopes["local"] >= 5
    assert input_types == {"str", "password", "text", "chooseOne", "chooseMany"}
    assert failing >= 5


def test_every_agreed_variable_is_handed_across_departments(agents) -> None:
    graph = build_handoff_graph(agents)
    tags = {a.name: a.tag for a in agents}
    for variable in load_scheme().variables:
        if variable in CONTEXT_VARIABLES:
            continue  # the request's details: carried to the next turn, not handed off
        writers = graph.writers(variable)
        writer_tags = {tags[w] for w in writers}
        # Read from another department: some writer of it is in a department not the reader's.
        outside_readers = [r for r in graph.readers(variable) if writer_tags - {tags[r]}]
        assert len(writers) >= 3, variable
        assert len(outside_readers) >= 3, variable


def test_every_written_value_matches_its_schema_when_the_agent_runs(agents) -> None:
    scheme = load_scheme()
    engine = Engine({a.name: a for a in agents}, MockModel(), BusinessData(seed=7))
    now = datetime(2026, 11, 29, tzinfo=UTC)
    checked = 0
    for agent in agents:
        if agent.workflow is not None:
            # A workflow agent writes no agreed variable and needs a deployment's workflow
            # store: tests/mock_account/workflows runs them.
            continue
        outcome = engine.run(
            agent.name, None, {"query": agent.examples[0]}, user="u", convid="c" * 22, now=now
        )
        while outcome.result_code == "ask":
            answers = {
                i["name"]: i.get("default")
                or (
                    (i.get("options") or ["x"])[:1]
                    if i["type"] == "chooseMany"
                    else (i.get("options") or ["an answer"])[0]
                )
                for i in outcome.ask_input["inputs"]
            }
            outcome = engine.run(
                agent.name, outcome.state, answers, user="u", convid="c" * 22, now=now
            )
        if outcome.result_code == "failCommand":
            continue
        assert outcome.result_code == "success", (agent.name, outcome.error)
        for variable, value in outcome.state["conv"].items():
            assert scheme.variables[variable].errors(value) == [], (agent.name, variable)
            checked += 1
    assert checked >= 39  # at least 3 writers for each of the 13 variables ran
