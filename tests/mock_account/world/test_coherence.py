"""The mock world honours what people say: generated requests with known facts.

For every agent that creates a record, hypothesis writes requests that state facts (a
city and dates, an amount in a currency, a company, a person, a quantity, a severity)
and checks that the agent's record and the variable it saves carry exactly those facts.
For every agent that looks records up, a request naming an existing record gets that
record, and one naming a record that does not exist gets "none by that name", never
another. The module prints what it checked: journeys, facts, contradictions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import pytest
from handoff_journeys import (
    SUMMARY,
    TODAY,
    answers_for,
    data_command,
    last_tool_result,
    pinned_deployment,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents_catalog.capabilities import VARIABLE_SOURCES
from mock_account.world import fits, kind_of

DAY = TODAY.date()
CITIES = (
    "Lisbon", "Madrid", "Oslo", "Vienna", "Prague", "Dublin", "Warsaw", "Helsinki", "Tokyo",
    "Toronto", "Seoul", "Sydney", "Boston", "Zurich", "Copenhagen", "Stockholm", "Athens",
    "Budapest", "Rome", "Barcelona", "Munich", "Montreal", "Edinburgh", "Milan",
)  # fmt: skip
COUNTRIES = ("Germany", "France", "Japan", "Canada", "Brazil", "Spain", "Italy", "Sweden")
CURRENCIES = (
    ("{} euros", "EUR"), ("EUR {}", "EUR"), ("${}", "USD"), ("{} dollars", "USD"),
    ("£{}", "GBP"), ("{} GBP", "GBP"), ("CHF {}", "CHF"), ("{} Swiss francs", "CHF"),
)  # fmt: skip
FIRST = ("Amelia", "Jonas", "Priya", "Mateo", "Ingrid", "Kwame", "Lucia", "Tobias", "Aiko")
LAST = ("Varga", "Okonkwo", "Lindqvist", "Moreau", "Tanaka", "Ferreira", "Novak", "Brennan")
COMPANIES = (
    "Brightline Packaging", "Northwind Traders", "Halcyon Biotech", "Cobalt Freight",
    "Juniper Analytics", "Solstice Foods", "Granite Robotics", "Meridian Optics",
)  # fmt: skip
ROLES = ("Data Analyst", "Product Designer", "Recruiter", "Paralegal", "Marketing Manager")
PRODUCTS = (("standing desks", "Standing Desk"), ("office chairs", "Office Chair"),
            ("webcams", "Webcam"), ("docking stations", "Docking Station"))  # fmt: skip
CAR_CLASSES = (("a compact car", "compact"), ("an SUV", "SUV"), ("a van to hire", "van"),
               ("an electric car", "electric"), ("a rental car, economy", "economy"))  # fmt: skip
SEVERITIES = ("sev1", "sev2", "sev3", "sev4")


def day_text(day: date) -> str:
    return random.Random(day.toordinal()).choice((f"{day.day} {day:%B}", f"{day:%B} {day.day}"))


def money_text(amount: float, pattern: str) -> str:
    shown = f"{amount:,.2f}" if amount % 1 else f"{amount:,.0f}"
    return pattern.format(shown)


@dataclass
class Case:
    request: str
    expect: dict[str, Any]
    answers: dict[str, Any] = field(default_factory=dict)


future = st.integers(3, 240).map(lambda n: DAY + timedelta(days=n))
past = st.integers(1, 60).map(lambda n: DAY - timedelta(days=n))
amounts = st.integers(1200, 900000).map(lambda cents: cents / 100)
money = st.tuples(amounts, st.sampled_from(CURRENCIES))
person = st.tuples(st.sampled_from(FIRST), st.sampled_from(LAST)).map(" ".join)


@st.composite
def trip_case(draw: Any) -> Case:
    city, start, nights = draw(st.sampled_from(CITIES)), draw(future), draw(st.integers(1, 6))
    end = start + timedelta(days=nights)
    if draw(st.booleans()):
        text = f"Book me a trip to {city} from {day_text(start)} to {day_text(end)}"
    else:
        text = f"I need to fly to {city} on {day_text(start)} for {nights} nights"
    expect = {"destination": city, "start_date": start.isoformat(), "end_date": end.isoformat()}
    return Case(text, expect)


# Cities a train joins, for the train agent: it books no train between continents.
RAIL_PAIRS = (
    ("Brussels", "Paris"), ("Madrid", "Barcelona"), ("Munich", "Vienna"), ("Zurich", "Milan"),
    ("Copenhagen", "Stockholm"), ("Prague", "Vienna"), ("Edinburgh", "London"),
    ("Rome", "Milan"), ("Montreal", "Toronto"), ("Boston", "New York"), ("Hamburg", "Berlin"),
)  # fmt: skip


@st.composite
def train_case(draw: Any) -> Case:
    (origin, city), start = draw(st.sampled_from(RAIL_PAIRS)), draw(future)
    nights = draw(st.integers(1, 6))
    end = start + timedelta(days=nights)
    text = f"Book me a train from {origin} to {city} on {day_text(start)} for {nights} nights"
    expect = {
        "origin": origin,
        "destination": city,
        "start_date": start.isoformat(),
        "end_date": end.isoformat(),
    }
    return Case(text, expect)


@st.composite
def hotel_case(draw: Any) -> Case:
    city, start, nights = draw(st.sampled_from(CITIES)), draw(future), draw(st.integers(1, 6))
    end = start + timedelta(days=nights)
    text = f"I need a hotel in {city} for {nights} nights from {day_text(start)}"
    return Case(text, {"city": city, "check_in": start.isoformat(), "check_out": end.isoformat()})


@st.composite
def car_case(draw: Any) -> Case:
    city, start = draw(st.sampled_from(CITIES)), draw(future)
    days, (words, car_class) = draw(st.integers(1, 9)), draw(st.sampled_from(CAR_CLASSES))
    end = start + timedelta(days=days)
    text = f"I need {words} in {city} from {day_text(start)} to {day_text(end)}"
    expect = {
        "city": city,
        "pick_up": start.isoformat(),
        "drop_off": end.isoformat(),
        "days": days,
        "car_class": car_class,
    }
    return Case(text, expect)


@st.composite
def expense_case(draw: Any) -> Case:
    (amount, (pattern, currency)), when = draw(money), draw(past)
    text = f"I paid {money_text(amount, pattern)} for a taxi on {when.day} {when:%B %Y}"
    return Case(text, {"amount": amount, "currency": currency, "date": when.isoformat()})


@st.composite
def invoice_case(draw: Any) -> Case:
    customer = draw(st.sampled_from(KNOWN["customers"]))
    (amount, (pattern, currency)), due = draw(money), draw(future)
    text = f"Invoice {customer} for {money_text(amount, pattern)}, due on {day_text(due)}"
    expect = {"party": customer, "amount": amount, "currency": currency}
    return Case(text, {**expect, "due_date": due.isoformat()})


@st.composite
def contract_case(draw: Any) -> Case:
    customer = draw(st.sampled_from(KNOWN["customers"]))
    amount, (pattern, currency) = draw(money)
    text = f"Draft the contract with {customer} worth {money_text(amount, pattern)}"
    return Case(text, {"counterparty": customer, "value": amount, "currency": currency})


@st.composite
def vendor_case(draw: Any) -> Case:
    company, country = draw(st.sampled_from(COMPANIES)), draw(st.sampled_from(COUNTRIES))
    text = f"Please add {company} from {country} as a new supplier"
    return Case(text, {"name": company, "country": country})


@st.composite
def candidate_case(draw: Any) -> Case:
    name, role = draw(person), draw(st.sampled_from(ROLES))
    text = f"My former colleague {name} would be great for the {role} job"
    return Case(text, {"name": name, "role": role})


@st.composite
def employee_case(draw: Any) -> Case:
    name, start = draw(person), draw(future)
    text = f"{name} joins us on {day_text(start)}, get the onboarding started"
    return Case(text, {"name": name, "start_date": start.isoformat()})


@st.composite
def incident_case(draw: Any) -> Case:
    service = draw(st.sampled_from(("Checkout API", "Payments gateway", "Customer portal")))
    severity = draw(st.sampled_from(SEVERITIES))
    text = f"The {service} is returning errors, declare a {severity} incident"
    return Case(text, {"service": service, "severity": severity}, {"severity": severity})


@st.composite
def ticket_case(draw: Any) -> Case:
    priority = draw(st.sampled_from(("low", "high", "urgent")))
    words = {"low": "low priority", "high": "high priority", "urgent": "urgent"}[priority]
    text = f"My laptop screen flickers and the VPN drops, it's {words}"
    return Case(text, {"priority": priority}, {"urgency": priority})


@st.composite
def product_case(draw: Any) -> Case:
    count, (plural, noun) = draw(st.integers(2, 60)), draw(st.sampled_from(PRODUCTS))
    text = f"We need {count} {plural} for the new office"
    return Case(
        text, {"quantity": count, "name~": noun}, {"item": f"{count} {plural}", "quantity": ""}
    )


@st.composite
def order_case(draw: Any) -> Case:
    count, (plural, noun) = draw(st.integers(2, 60)), draw(st.sampled_from(PRODUCTS))
    customer = draw(st.sampled_from(KNOWN["customer_records"]))
    text = f"Place an order of {count} {plural} for {customer['name']}"
    answers = {"product": plural, "quantity": str(count)}
    expect = {"customer_id": customer["id"], "quantity": count, "product~": noun}
    return Case(text, expect, answers)


@st.composite
def campaign_case(draw: Any) -> Case:
    (amount, (pattern, currency)), start = draw(money), draw(future)
    text = (
        f"Plan our trade show booth starting {day_text(start)} with a budget of "
        f"{money_text(amount, pattern)}"
    )
    expect = {"start_date": start.isoformat(), "budget": amount, "currency": currency}
    return Case(text, expect, {"send_date": day_text(start)})


@st.composite
def customer_case(draw: Any) -> Case:
    company = draw(st.sampled_from(COMPANIES))
    text = f"We just won {company}, set them up as a customer"
    return Case(text, {"name": company}, {"company_name": company})


@st.composite
def asset_case(draw: Any) -> Case:
    kind, holder = (
        draw(st.sampled_from(("laptop", "monitor", "headset"))),
        draw(st.sampled_from(KNOWN["employees"])),
    )
    return Case(f"Please get a new {kind} for {holder}", {"kind": kind, "assigned_to": holder})


KNOWN: dict[str, Any] = {}
# Agents whose requests say more than their data source's ("a train from Brussels").
CREATE_CASES_BY_AGENT: dict[str, Callable[[], Any]] = {"BookTrainTicket": train_case}
CREATE_CASES: dict[str, Callable[[], Any]] = {
    "flights": trip_case,
    "hotels": hotel_case,
    "car_rentals": car_case,
    "expenses": expense_case,
    "invoices": invoice_case,
    "contracts": contract_case,
    "vendors": vendor_case,
    "candidates": candidate_case,
    "employees": employee_case,
    "incidents": incident_case,
    "tickets": ticket_case,
    "products": product_case,
    "orders": order_case,
    "campaigns": campaign_case,
    "customers": customer_case,
    "assets": asset_case,
}
# Phrases that name an existing record of a source (by id, or by name) for lookups.
ID_FIELDS = {
    "customers": "id", "orders": "id", "employees": "id", "invoices": "number",
    "expenses": "id", "tickets": "id", "incidents": "id", "contracts": "id", "vendors": "id",
    "candidates": "id", "products": "sku", "assets": "tag",
}  # fmt: skip
MISSING_IDS = {
    "customers": "CUS-09876", "orders": "ORD-098765", "employees": "EMP-09876",
    "invoices": "INV-098765", "expenses": "EXP-09876", "tickets": "TCK-098765",
    "incidents": "INC-09876", "contracts": "CTR-09876", "vendors": "VEN-9876",
    "candidates": "CAN-09876", "products": "SKU-09876", "assets": "AST-09876",
}  # fmt: skip


@dataclass
class Tally:
    journeys: int = 0
    facts: int = 0
    contradictions: list[str] = field(default_factory=list)


TALLY = Tally()


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    deployment = pinned_deployment(tmp_path_factory.mktemp("coherence"))
    data = deployment.account.engine.data
    KNOWN["customers"] = tuple(c["name"] for c in data.records("customers")[:40])
    KNOWN["customer_records"] = tuple(data.records("customers")[:40])
    KNOWN["employees"] = tuple(e["name"] for e in data.records("employees")[20:60])
    yield deployment
    SUMMARY.append(
        f"coherence suite: {TALLY.journeys} journeys, {TALLY.facts} stated facts checked, "
        f"{len(set(TALLY.contradictions))} contradictions"
    )
    deployment.close()


def _account_agents(action: str, *, requester: bool = False) -> list[str]:
    """The account's agents whose data command takes `action` (requester lookups apart:
    they answer about the user asking, see test_world; a creator of the user's own record,
    such as their flight, is a creator like any other)."""
    from agents_catalog.loader import load_account
    from mock_account.deployment import default_account_dir

    found = []
    for agent in load_account(default_account_dir()):
        for command in agent.main:
            data = getattr(command, "data", None)
            if (
                data is not None
                and data.action == action
                and (action == "create" or data.requester == requester)
            ):
                found.append(agent.name)
    return sorted(found)


def _run(deployment: Any, agent: str, case: Case) -> tuple[Any, dict, Any]:
    account = deployment.account
    user = next(u for u in deployment.users.users if u.account == "acme")
    result = account.exec_agent(user, agent, {"query": case.request}, None)
    while result.success and result.result_code == "ask":
        answers = answers_for(result.ask_input)
        answers.update({k: v for k, v in case.answers.items() if k in answers and v != ""})
        result = account.exec_agent(user, agent, answers, result.convid)
    assert result.success, (agent, case.request, result.error)
    state = account.state_view(user, result.convid)["state"]
    return result, state, last_tool_result(state, agent)


def _agree(name: str, got: Any, want: Any) -> bool:
    if name.endswith("~"):
        return isinstance(got, str) and want.lower() in got.lower()
    if isinstance(want, float) or isinstance(got, float):
        try:
            return abs(float(got) - float(want)) < 0.005
        except (TypeError, ValueError):
            return False
    return got == want


def _check(agent: str, case: Case, record: Any, saved: dict | None, fixed: dict) -> list[str]:
    problems = []
    for name, want in case.expect.items():
        field_name = name.rstrip("~")
        if field_name in fixed and not str(fixed[field_name]).startswith("{answers."):
            continue  # the agent's own constant (a cancellation is "cancelled")
        TALLY.facts += 1
        got = record.get(field_name) if isinstance(record, dict) else None
        if not _agree(name, got, want):
            problems.append(f"{agent}: {case.request!r}: {field_name} is {got!r}, said {want!r}")
        if saved is not None and field_name in saved and not _agree(name, saved[field_name], want):
            problems.append(f"{agent}: saved {field_name} is {saved[field_name]!r}, said {want!r}")
    return problems


@pytest.mark.parametrize("agent", _account_agents("create"))
def test_a_created_record_carries_exactly_the_stated_facts(deployment, agent: str) -> None:
    args = data_command(deployment, agent)
    cases = CREATE_CASES_BY_AGENT.get(agent) or CREATE_CASES[args.source]
    variable = next((v for v, s in VARIABLE_SOURCES.items() if s == args.source), None)

    @settings(
        max_examples=12,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(cases())
    def check(case: Case) -> None:
        _, state, record = _run(deployment, agent, case)
        saved = state["conv"].get(variable) if variable else None
        TALLY.journeys += 1
        problems = _check(agent, case, record, saved, dict(args.fixed or {}))
        TALLY.contradictions.extend(problems)
        assert not problems, "\n".join(problems)

    check()


def _naming(source: str, record: dict[str, Any]) -> str | None:
    """A request that names this record the way a person would."""
    if source in ID_FIELDS:
        return f"Please check {record[ID_FIELDS[source]]} for me"
    if source == "flights":
        return f"What about my trip to {record['destination']}?"
    if source == "hotels":
        return f"Tell me about the hotels in {record['city']}"
    if source == "campaigns":
        return f'How is the "{record["name"]}" campaign doing?'
    return None


MISSING_NAMES = {
    "flights": ("What about my trip to Reykjavik?", "Reykjavik"),
    "hotels": ("Tell me about the hotels in Reykjavik", "Reykjavik"),
    "campaigns": ('How is the "Moonbeam Gala" campaign doing?', "Moonbeam Gala"),
}


def _key(source: str, record: dict[str, Any]) -> tuple[str, Any]:
    name = ID_FIELDS.get(source) or {"flights": "destination", "hotels": "city"}.get(source, "name")
    return name, record[name]


@pytest.mark.parametrize("agent", _account_agents("find"))
def test_a_lookup_returns_the_record_named_or_says_there_is_none(deployment, agent: str) -> None:
    args = data_command(deployment, agent)
    # Records of the kind the agent works on (an invoice we issued); one of another kind
    # is refused with a reason (test_other_kinds.py).
    kind = kind_of(args.where)
    records = [r for r in deployment.account.engine.data.records(args.source) if fits(r, kind)]
    problems = []
    for record in random.Random(agent).sample(records, 3):
        field_name, wanted = _key(args.source, record)
        _, _, found = _run(deployment, agent, Case(_naming(args.source, record), {}))
        TALLY.journeys += 1
        TALLY.facts += 1
        if not isinstance(found, dict) or found.get(field_name) != wanted:
            problems.append(f"{agent}: asked for {wanted}, got {found!r}")
    if args.source in MISSING_IDS:
        missing = MISSING_IDS[args.source]
        request = f"Please check {missing} for me"
    else:
        request, missing = MISSING_NAMES[args.source]
    result, _, found = _run(deployment, agent, Case(request, {}))
    TALLY.journeys += 1
    TALLY.facts += 1
    text = " ".join(p["text"] for p in result.parts or [])
    if args.makes and args.source not in MISSING_IDS:
        # An agent that acts on what it finds makes the record the data lacks by the name
        # typed (an id alone says nothing to make one of): it is the one asked for.
        made = isinstance(found, dict) and found.get(_key(args.source, found)[0]) == missing
        if not made:
            problems.append(f"{agent}: asked for {missing} to act on, made {found!r}")
    elif found is not None or "I found no" not in text or missing not in text:
        problems.append(f"{agent}: asked for {missing} that does not exist, answered {text!r}")
    TALLY.contradictions.extend(problems)
    assert not problems, "\n".join(problems)


REQUESTERS = _account_agents("find", requester=True) + _account_agents("update", requester=True)


@pytest.mark.parametrize("agent", REQUESTERS)
def test_a_request_about_me_is_about_the_user_and_a_named_colleague_is_them(
    deployment, agent: str
) -> None:
    user = next(u for u in deployment.users.users if u.account == "acme")
    _, _, me = _run(deployment, agent, Case("I need this sorted out for my own account", {}))
    colleague = "Daniel Weber"  # one of the account's cast, in the directory
    _, _, them = _run(deployment, agent, Case(f"Please sort this out for {colleague}", {}))
    TALLY.journeys += 2
    TALLY.facts += 2
    problems = []
    # A person's own record (employees), or a record that is theirs (a device).
    mine = ("email", user.email) if "email" in (me or {}) else ("assigned_to", user.name)
    theirs = ("name", colleague) if "email" in (them or {}) else ("assigned_to", colleague)
    if not isinstance(me, dict) or me.get(mine[0]) != mine[1]:
        problems.append(f"{agent}: 'I' gave {me!r}, not {mine[1]}")
    if not isinstance(them, dict) or them.get(theirs[0]) != theirs[1]:
        problems.append(f"{agent}: {colleague} gave {them!r}")
    TALLY.contradictions.extend(problems)
    assert not problems, "\n".join(problems)
