"""NS028 agreed-variable-unused: an agent about a trip, a customer, an order... (by its name)
that reads and writes no agreed conversation variable."""

from __future__ import annotations

import pytest
from checker_samples import HEADER

from agents_catalog.check_cli import main
from agents_catalog.checker import RULES, check_paths, default_account_dir, select_rules
from agents_catalog.checker.conventions import name_subject
from agents_catalog.checker.rules import find_rule
from agents_catalog.scheme import load_scheme

# Every rule of one file (the hand-off rules NS006/NS007 depend on the rest of the account).
EVERY_RULE = select_rules(None, "NS006,NS007")
VARIABLES = sorted(load_scheme().variables)

CHAT = "  - prompt: {name: chat, scope: conversation, user: '{sys.query}'}\n"
# Keeps the trip to itself: a local record and an agent-scoped variable, no conv.*.
OWN_TRIP = (
    CHAT + "  - data: {source: flights, match: '{sys.query}', into: record, prompt: chat}\n"
    "  - var: {name: agent.trip, value: {destination: '{record.destination}'}}\n"
    "  - llm: {prompt: chat, reply: 'Booked {record.destination}.'}\n"
    "  - end: {}\n"
)
WRITES_TRIP = OWN_TRIP.replace(
    "{name: agent.trip, value: {destination: '{record.destination}'}}",
    "{name: conv.trip, value: {destination: '{record.destination}', "
    "start_date: '{record.start_date}', end_date: '{record.end_date}'}}",
)
READS_TRIP = OWN_TRIP.replace(
    "  - var: {name: agent.trip",
    "  - if: {when: {exists: conv.trip}, then: [{output: '{conv.trip.destination}'}]}\n"
    "  - var: {name: agent.trip",
)


def named(name: str, commands: str) -> str:
    return HEADER.replace("BookBusinessTrip", name) + commands


def found(report) -> list[tuple[str, int]]:
    return [(f.rule_id, f.line) for f in report.findings]


def test_a_trip_agent_that_keeps_its_trip_to_itself(lint) -> None:
    report = lint(named("BookBusinessTrip", OWN_TRIP), EVERY_RULE)
    assert found(report) == [("NS028", 1)]
    finding = report.findings[0]
    assert finding.severity.value == "warning"
    assert finding.message.startswith(
        "agent 'BookBusinessTrip' is about a trip (the 'Trip' in its name) but reads and "
        "writes no agreed conversation variable: use conv.trip"
    )
    assert finding.suggestion == "conv.trip"


@pytest.mark.parametrize("commands", [WRITES_TRIP, READS_TRIP], ids=["writes", "reads"])
def test_writing_or_reading_the_agreed_variable_is_clean(lint, commands: str) -> None:
    assert lint(named("BookBusinessTrip", commands), EVERY_RULE).findings == ()


def test_any_agreed_variable_will_do(lint) -> None:
    # A train ticket is not a support ticket: the agent hands over the trip, and that counts.
    assert name_subject("BookTrainTicket", VARIABLES) == ("ticket", "Ticket")
    assert lint(named("BookTrainTicket", WRITES_TRIP), EVERY_RULE).findings == ()


@pytest.mark.parametrize(
    "name, variable",
    [
        ("ApproveTeamExpenses", "expense"),  # plural
        ("cancel_customer_order", "order"),  # snake case
        ("PlaceCustomerOrderV2", "order"),  # version suffix
        ("ReviewOpenTickets", "ticket"),
        ("NotifyAffectedCustomers", "customer"),
    ],
)
def test_the_subject_is_the_last_word_of_the_name(lint, name: str, variable: str) -> None:
    report = lint(named(name, CHAT + "  - llm: {prompt: chat, reply: Done.}\n"), EVERY_RULE)
    assert [(f.rule_id, f.suggestion) for f in report.findings] == [("NS028", f"conv.{variable}")]
    article = "an" if variable in ("expense", "order") else "a"
    assert f"is about {article} {variable} (the '" in report.findings[0].message


@pytest.mark.parametrize(
    "name",
    [
        # Generated agents an earlier, word-based attempt flagged: the scheme's noun is a
        # qualifier (a reply for a customer, benefits of an employee) or the verb (order).
        "DraftCustomerReply",
        "ExplainEmployeeBenefits",
        "OrderOfficeSupplies",
        "OrderDeskAccessories",
        "CheckProductListPrice",
        # One word: no verb to tell the subject from.
        "Order",
        "Trips",
    ],
)
def test_a_scheme_word_that_is_not_the_subject_is_clean(lint, name: str) -> None:
    assert name_subject(name, VARIABLES) is None
    text = named(name, CHAT + "  - llm: {prompt: chat, reply: Done.}\n")
    assert lint(text, EVERY_RULE).findings == ()


def test_a_near_miss_is_left_to_ns003(lint) -> None:
    near = named("BookBusinessTrip", CHAT + "  - output: '{conv.trips.destination}'\n")
    assert found(lint(near, EVERY_RULE)) == [("NS003", 8)]
    invented = named("BookBusinessTrip", CHAT + "  - output: '{conv.booking.destination}'\n")
    report = lint(invented, EVERY_RULE)
    assert sorted(found(report)) == [("NS003", 8), ("NS028", 1)]


def test_suppressed_on_the_name_line(lint) -> None:
    text = named("BookBusinessTrip", OWN_TRIP).replace(
        "name: BookBusinessTrip\n", "name: BookBusinessTrip  # agents-catalog: ignore[NS028]\n"
    )
    assert lint(text, EVERY_RULE).findings == ()
    assert (
        lint(named("BookBusinessTrip", OWN_TRIP), select_rules(None, "NS006,NS007,NS028")).findings
        == ()
    )


def test_the_generated_account_has_no_finding() -> None:
    account = default_account_dir()
    assert account is not None
    report = check_paths([account], account_dir=account, rules=select_rules("NS028"))
    assert len(report.files) == 200 and report.findings == ()


def test_listed_and_documented(capsys) -> None:
    assert find_rule("NS028") is find_rule("agreed-variable-unused")
    assert [rule.id for rule in RULES][-2:] == ["NS027", "NS028"]
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert len(listing) == len(RULES) == 20
    assert listing[-1].split()[:3] == ["NS028", "warning", "agreed-variable-unused"]
    assert main(["rules", "NS028"]) == 0
    doc = capsys.readouterr().out
    assert doc.startswith("NS028 agreed-variable-unused (warning)")
    assert "ignore[NS028]" in doc
