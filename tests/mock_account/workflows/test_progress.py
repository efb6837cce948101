"""Workflow progress per identity: collected values, goals, stages that cannot be skipped."""

from __future__ import annotations

from typing import Any

import pytest
from workflow_helpers import Clock

from mock_account.crypto import InvalidRecord, StateCipher
from mock_account.workflows import (
    InvalidValue,
    StageIncomplete,
    TransitionRefused,
    UnknownWorkflow,
    WorkflowDefinitionError,
    WorkflowService,
    WorkflowStore,
    definition_problems,
    parse_workflow,
)

ONBOARDING: dict[str, Any] = {
    "name": "onboarding",
    "title": "New-hire onboarding",
    "stages": [
        {
            "name": "paperwork",
            "goals": [
                {"collect": "legal_name"},
                {"collect": "start_date", "type": "date"},
                {"name": "contract_signed", "check": {"value": "signed", "op": "isTrue"}},
                {"collect": "signed", "type": "bool"},
                {"collect": "nickname", "required": False},
            ],
            "next": "equipment",
        },
        {
            "name": "equipment",
            "goals": [
                {"collect": "laptop", "type": "choice", "options": ["mac", "linux"]},
                {"collect": "remote", "type": "bool"},
            ],
            "transitions": [
                {"to": "ship_kit", "when": {"value": "remote", "op": "isTrue"}},
                {"to": "first_day"},
            ],
        },
        {"name": "ship_kit", "goals": [{"collect": "address"}], "next": "first_day"},
        {"name": "first_day", "goals": [{"collect": "buddy", "type": "email"}]},
    ],
}


@pytest.fixture
def service(wf_store: WorkflowStore, cipher: StateCipher, clock: Clock) -> WorkflowService:
    return WorkflowService(wf_store, cipher, clock, {"onboarding": parse_workflow(ONBOARDING)})


def test_a_user_cannot_skip_a_stage_with_unmet_goals(service: WorkflowService) -> None:
    fresh = service.view("acme", "ann", "onboarding")
    assert (fresh["stage"], fresh["version"], fresh["history"]) == ("paperwork", 0, [])
    with pytest.raises(StageIncomplete) as refused:
        service.advance("acme", "ann", "onboarding")
    assert refused.value.unmet == ["legal_name", "start_date", "contract_signed", "signed"]
    service.submit("acme", "ann", "onboarding", {"legal_name": "Ann Lee", "signed": "no"})
    service.submit("acme", "ann", "onboarding", {"start_date": "2026-12-07"})
    with pytest.raises(StageIncomplete, match="contract_signed is still open"):
        service.advance("acme", "ann", "onboarding")
    # Values of a later stage are refused while that stage is not reached.
    with pytest.raises(InvalidValue, match="not reached yet"):
        service.submit("acme", "ann", "onboarding", {"laptop": "mac"})
    after = service.submit("acme", "ann", "onboarding", {"signed": True})
    assert after["goals"]["contract_signed"] == {
        "met": True,
        "required": True,
        "kind": "check",
        "check": "signed isTrue",
    }
    assert after["goals"]["nickname"]["met"] is False  # optional: does not block
    moved = service.advance("acme", "ann", "onboarding")
    assert moved["stage"] == "equipment"
    assert moved["values"]["start_date"] == "2026-12-07"  # earlier values stay readable
    assert [(h["from"], h["to"]) for h in moved["history"]] == [("paperwork", "equipment")]


def test_transitions_follow_the_collected_values(service: WorkflowService, clock: Clock) -> None:
    def through_paperwork(identity: str) -> None:
        service.submit(
            "acme",
            identity,
            "onboarding",
            {"legal_name": "X", "start_date": "2026-12-07", "signed": "yes"},
        )
        service.advance("acme", identity, "onboarding")

    through_paperwork("remote")
    service.submit("acme", "remote", "onboarding", {"laptop": "linux", "remote": "yes"})
    with pytest.raises(TransitionRefused, match="not a next stage"):
        service.advance("acme", "remote", "onboarding", to="paperwork")
    assert service.advance("acme", "remote", "onboarding")["stage"] == "ship_kit"

    through_paperwork("office")
    service.submit("acme", "office", "onboarding", {"laptop": "mac", "remote": False})
    with pytest.raises(TransitionRefused, match="closed"):
        service.advance("acme", "office", "onboarding", to="ship_kit")
    assert service.advance("acme", "office", "onboarding")["stage"] == "first_day"
    service.submit("acme", "office", "onboarding", {"buddy": "sam@acme.test"})
    clock.tick(60)
    done = service.advance("acme", "office", "onboarding")
    assert done["completed"] is True
    assert [h["to"] for h in done["history"]] == ["equipment", "first_day", None]
    with pytest.raises(TransitionRefused, match="already complete"):
        service.submit("acme", "office", "onboarding", {"buddy": "x@acme.test"})


def test_progress_is_per_identity_and_resumes_from_the_store(
    service: WorkflowService, wf_store: WorkflowStore, cipher: StateCipher, clock: Clock
) -> None:
    service.submit("acme", "email:ann@x.test", "onboarding", {"legal_name": "Ann"})
    assert service.view("acme", "im:ann", "onboarding")["values"] == {}
    assert service.view("globex", "email:ann@x.test", "onboarding")["values"] == {}
    # A new service over the same store (a restart) finds the progress where it was.
    again = WorkflowService(wf_store, cipher, clock, service.workflows)
    view = again.view("acme", "email:ann@x.test", "onboarding")
    assert (view["values"], view["version"]) == ({"legal_name": "Ann"}, 1)


def test_progress_is_encrypted_and_bound_to_its_identity(
    service: WorkflowService, wf_store: WorkflowStore, clock: Clock
) -> None:
    service.submit("acme", "ann", "onboarding", {"legal_name": "Zebediah Quxworth"})
    record = wf_store.load_progress("acme", "ann", "onboarding")
    assert record is not None and b"Zebediah" not in record.blob
    # The same blob copied to another identity does not open.
    wf_store.save_progress(
        "acme", "bob", "onboarding", expected_version=0, blob=record.blob, now=clock()
    )
    with pytest.raises(InvalidRecord):
        service.view("acme", "bob", "onboarding")


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"start_date": "next week"}, "must be a date"),
        ({"signed": "maybe"}, "yes or no"),
        ({"unknown": "x"}, "not a value of workflow"),
        ({"legal_name": "   "}, "is empty"),
        ({"legal_name": 12}, "must be text"),
        ({}, "at least one value"),
    ],
)
def test_bad_values_are_refused_and_nothing_is_saved(
    service: WorkflowService, values: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidValue, match=message):
        service.submit("acme", "ann", "onboarding", values)
    assert service.view("acme", "ann", "onboarding")["version"] == 0


def test_unknown_workflow(service: WorkflowService) -> None:
    with pytest.raises(UnknownWorkflow):
        service.view("acme", "ann", "payroll")


def test_definitions_are_checked() -> None:
    broken = {**ONBOARDING, "stages": [*ONBOARDING["stages"][:-1]]}  # first_day removed
    with pytest.raises(WorkflowDefinitionError, match="'first_day', which is not a declared stage"):
        parse_workflow(broken)
    loose = parse_workflow(broken, strict=False)
    rules = [rule for _, rule, _ in definition_problems(loose)]
    assert rules.count("workflow-undeclared-stage") == 2
    with pytest.raises(WorkflowDefinitionError, match="exactly one of 'collect' or 'check'"):
        parse_workflow({"name": "w", "stages": [{"name": "a", "goals": [{"required": True}]}]})
    with pytest.raises(WorkflowDefinitionError, match="stages"):
        parse_workflow({"name": "w", "stages": []})
    checks_nothing = {
        "name": "w",
        "stages": [
            {"name": "a", "goals": [{"name": "ok", "check": {"value": "ghost", "op": "exists"}}]},
            {"name": "orphan"},
        ],
    }
    found = {rule for _, rule, _ in definition_problems(parse_workflow(checks_nothing))}
    assert found == {"workflow-uncollected-value", "workflow-unreachable-stage"}
