"""Build the mock account: one agent file per capability, deterministic for a seed.

Every agent talks to the user through the standard ``chat`` prompt. An agent that
*writes* an agreed variable looks up a record of the variable's data source and
copies the fields of the variable's schema into ``conv.<name>``; an agent that
*reads* one uses it when present (in its data lookup and in a hand-off sentence of
its reply). That is what makes a follow-up move from one agent to another that
already knows what the first one found.

The seed picks the wording of each agent's system text and, for ``count`` below
the number of capabilities, which agents are in the account. The same seed gives
byte-identical files.

Not every agent of the account comes from a capability: a file whose first line is
`HAND_WRITTEN_MARKER` (the workflow agents) is written by hand, and regenerating a folder
keeps it byte for byte.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from .agent_format import TEMPLATE_PATH_RE
from .capabilities import (
    CAR,
    ROOM,
    SOURCE_FIELDS,
    VARIABLE_SOURCES,
    Capability,
    Department,
    load_departments,
)
from .scheme import NamingScheme, load_scheme

DEFAULT_SEED = 7
VERSION = "1.0.0"
# Where an answer says what the request stated that the rest of it does not.
NOTED = "{sys.noted}"
# The first line of an agent file the generator did not make and must not replace.
HAND_WRITTEN_MARKER = "# hand-written:"

# How a reader mentions what an earlier agent saved; every path here is in the schema.
HANDOFF_PHRASES = {
    "trip": "I used the trip to {conv.trip.destination} ({conv.trip.start_date} to "
    "{conv.trip.end_date}) already saved in this conversation.",
    "customer": "I used the customer {conv.customer.name} ({conv.customer.id}) already saved "
    "in this conversation.",
    "order": "I used order {conv.order.id} ({conv.order.status}) already saved in this "
    "conversation.",
    "quote": "I used the quote for {conv.quote.name} at {conv.quote.price} "
    "{conv.quote.currency} per unit already saved in this conversation.",
    "employee": "I used the employee {conv.employee.name} ({conv.employee.id}) already saved "
    "in this conversation.",
    "ticket": "I used ticket {conv.ticket.id} ({conv.ticket.subject}) already saved in this "
    "conversation.",
    "invoice": "I used invoice {conv.invoice.number} ({conv.invoice.amount} "
    "{conv.invoice.currency}) already saved in this conversation.",
    "expense": "I used the {conv.expense.category} expense of {conv.expense.amount} "
    "{conv.expense.currency} already saved in this conversation.",
    "incident": "I used incident {conv.incident.id} on {conv.incident.service} already saved "
    "in this conversation.",
    "contract": "I used contract {conv.contract.id} with {conv.contract.counterparty} already "
    "saved in this conversation.",
    "vendor": "I used the vendor {conv.vendor.name} ({conv.vendor.id}) already saved in this "
    "conversation.",
    "campaign": "I used the campaign {conv.campaign.name} ({conv.campaign.channel}) already "
    "saved in this conversation.",
    "candidate": "I used the candidate {conv.candidate.name} for {conv.candidate.role} already "
    "saved in this conversation.",
}
# How a reader of an agreed variable uses it, per data source the reader works with:
# ``SAME`` when the source holds that very kind of record (the reader continues from the
# saved record itself), else the record fields (or extra context fields) it takes from the
# saved variable. A lookup or a change (find, update) turns the source's own fields into
# filters: it works on the record that belongs to what was saved, never on another.
SAME = "same"
HANDOFF_FIELDS: dict[tuple[str, str], str | dict[str, str]] = {
    ("assets", "candidate"): {"new_hire": "{conv.candidate.name}"},
    ("assets", "employee"): {"assigned_to": "{conv.employee.name}"},
    ("campaigns", "campaign"): SAME,
    ("candidates", "candidate"): SAME,
    ("contracts", "contract"): SAME,
    ("contracts", "customer"): {"counterparty": "{conv.customer.name}"},
    ("contracts", "vendor"): {"counterparty": "{conv.vendor.name}"},
    ("customers", "campaign"): {"campaign": "{conv.campaign.name}"},
    ("customers", "customer"): SAME,
    ("customers", "ticket"): {"id": "{conv.ticket.customer_id}", "ticket": "{conv.ticket.id}"},
    ("customers", "trip"): {
        "visit_city": "{conv.trip.destination}",
        "visit_date": "{conv.trip.start_date}",
    },
    ("customers", "vendor"): {"screened_supplier": "{conv.vendor.name}"},
    ("customers", "quote"): {"name": "{conv.quote.customer}"},
    ("employees", "customer"): {"customer": "{conv.customer.name}"},
    ("employees", "employee"): SAME,
    ("employees", "expense"): {
        "expense": "{conv.expense.id}",
        "expense_amount": "{conv.expense.amount}",
        "expense_currency": "{conv.expense.currency}",
    },
    ("employees", "incident"): {"incident": "{conv.incident.id}"},
    ("employees", "ticket"): {"name": "{conv.ticket.assignee}", "ticket": "{conv.ticket.id}"},
    ("employees", "trip"): {
        "trip": "{conv.trip.destination}",
        "travel_date": "{conv.trip.start_date}",
    },
    ("expenses", "employee"): {"employee": "{conv.employee.name}"},
    ("expenses", "expense"): SAME,
    ("expenses", "trip"): {
        "currency": "{conv.trip.currency}",
        "date": "{conv.trip.start_date}",
        "trip": "{conv.trip.destination}",
        "note": "Trip to {conv.trip.destination}, {conv.trip.start_date} to {conv.trip.end_date}",
    },
    ("flights", "customer"): {"customer": "{conv.customer.name}"},
    ("flights", "employee"): {
        "origin": "{conv.employee.location}",
        "traveller": "{conv.employee.name}",
        # A new hire travels from their first day, when nothing else is said ("for her
        # first week" flew her on a day drawn at random, weeks before she joins).
        "start_date": "{conv.employee.joins_on}",
    },
    ("flights", "trip"): SAME,
    ("car_rentals", "trip"): {
        "city": "{conv.trip.destination}",
        "pick_up": "{conv.trip.start_date}",
        "drop_off": "{conv.trip.end_date}",
    },
    ("hotels", "expense"): {"currency": "{conv.expense.currency}"},
    ("hotels", "trip"): {
        "city": "{conv.trip.destination}",
        "check_in": "{conv.trip.start_date}",
        "check_out": "{conv.trip.end_date}",
        "name": "{conv.trip.hotel}",
        # What brings the traveller back, and when: a room past it says so.
        "transport": "{conv.trip.transport}",
        "trip_end": "{conv.trip.end_date}",
    },
    ("incidents", "incident"): SAME,
    ("invoices", "customer"): {"party": "{conv.customer.name}"},
    ("invoices", "invoice"): SAME,
    ("invoices", "order"): {
        "amount": "{conv.order.total}",
        "currency": "{conv.order.currency}",
        "order": "{conv.order.id}",
        "customer_id": "{conv.order.customer_id}",
    },
    ("invoices", "vendor"): {"party": "{conv.vendor.name}"},
    ("orders", "campaign"): {"campaign": "{conv.campaign.name}"},
    # Its name too: a customer opened in this conversation is not in the data ("Order … for
    # CUS-23671 is placed").
    ("orders", "customer"): {
        "customer_id": "{conv.customer.id}",
        "customer": "{conv.customer.name}",
    },
    ("orders", "order"): SAME,
    # The quoted product at the quoted unit price, in the quoted currency, for that product
    # only (``Orders.fill``); the order form opens at the quoted quantity.
    ("orders", "quote"): {
        "product": "{conv.quote.name}",
        "quoted_product": "{conv.quote.name}",
        "quoted_quantity": "{conv.quote.quantity}",
        "quoted_price": "{conv.quote.price}",
        "quoted_currency": "{conv.quote.currency}",
        "quoted_customer": "{conv.quote.customer}",
    },
    # A ticket about a customer's delivery: that customer's order ("open a return for it").
    ("orders", "ticket"): {"customer_id": "{conv.ticket.customer_id}"},
    ("products", "contract"): {
        "currency": "{conv.contract.currency}",
        "contract": "{conv.contract.id}",
        "customer": "{conv.contract.counterparty}",
    },
    ("products", "order"): {"name": "{conv.order.product}", "order": "{conv.order.id}"},
    # Where the customer is: a quote is in their currency, one opened here is not in the data.
    ("products", "customer"): {
        "customer": "{conv.customer.name}",
        "customer_country": "{conv.customer.country}",
    },
    ("products", "quote"): SAME,
    ("tickets", "customer"): {"customer_id": "{conv.customer.id}"},
    ("tickets", "order"): {"order": "{conv.order.id}"},
    ("tickets", "ticket"): SAME,
    ("vendors", "contract"): {
        "contract": "{conv.contract.id}",
        "name": "{conv.contract.counterparty}",
    },
    ("vendors", "employee"): {"requested_for": "{conv.employee.name}"},
    ("vendors", "order"): {"order": "{conv.order.id}", "product": "{conv.order.product}"},
    ("vendors", "vendor"): SAME,
}
# What a creator of a variable's own kind of record does not carry over from the one saved
# before: a new flight for the saved trip goes to its destination on its dates, but it is a
# new booking, with its own flight number and fare, booked even if the saved one was cancelled
# (and a flight even if the saved trip went by train).
BOOKED_FIELDS: dict[str, frozenset[str]] = {
    "trip": frozenset({"mode", "flight", "train", "transport", "cost", "currency", "status"})
}


class CrossWrite(NamedTuple):
    """How a record of another source saves an agreed variable: ``same`` gives the
    variable's fields that say it is the saved one and the record's values for them; when
    they all match, the record only updates ``at_place``, otherwise it saves a new variable
    of ``fields``."""

    same: dict[str, str]
    at_place: dict[str, str]
    fields: dict[str, str]
    #: A record path that must exist for anything to be saved (None: always saved).
    present: str | None = None
    #: A field of the variable that only another kind of record sets, and what this record
    #: also updates when it is missing: a trip that is only a stay (no transport booked)
    #: moves with the stay, where a flight's trip keeps its own days.
    alone: tuple[str, dict[str, str]] | None = None
    #: Whether the record only adds to a saved variable it belongs to and never saves one of
    #: its own (``fields`` unused): a rental car is on a trip, it is no trip.
    adds_only: bool = False


# How a change of a record of each source is asked for by what it is about ("Move the trip to
# the 16th"), where "Move it" came back to an agent that only looks it up.
CHANGED_AS: dict[str, str] = {
    "flights": "the trip",
    "hotels": "the hotel booking",
    "car_rentals": "the rental car",
    "orders": "the order",
    "tickets": "the case",
    "incidents": "the incident",
    "invoices": "the invoice",
    "contracts": "the contract",
    "campaigns": "the campaign",
    "expenses": "the expense claim",
}
# The first words of the titles of agents that only show a record.
LOOK_UP_TITLES = ("Check ", "Show ", "Track ", "Find ", "Look up ", "Report on ", "Report how ")
# Fields of a variable a reader carries along when they are there and never needs: a
# trip with no room saved is still a trip to book a flight for.
# What a quote adds to the catalogue product it prices: how many, for how much, for whom.
CARRIED_FIELDS: dict[str, frozenset[str]] = {
    "trip": frozenset({*ROOM, *CAR}),
    "quote": frozenset({"quantity", "total", "customer"}),
    # A new hire's first day, which only their onboarding knows.
    "employee": frozenset({"joins_on"}),
    # What an invoice bills, when it was said ("120 x sensor at 85 SGD each"): a correction of
    # the count or the price is billed anew from it.
    "invoice": frozenset({"items"}),
}
# A hotel stay is where a trip goes and when (a later flight "for that trip" flies there); a
# stay in the saved trip's city names the trip's hotel, one elsewhere, or in the city of a
# cancelled trip, is a new trip. A quote for a known customer makes that customer the one the
# conversation is about ("turn it into an order" is an order for them).
CROSS_WRITES: dict[tuple[str, str], CrossWrite] = {
    ("hotels", "trip"): CrossWrite(
        same={"destination": "{record.city}", "status": "booked"},
        at_place={"hotel": "{record.name}", **ROOM},
        fields={
            "destination": "{record.city}",
            "start_date": "{record.check_in}",
            "end_date": "{record.check_out}",
            "hotel": "{record.name}",
            "status": "booked",
            # What the stay is paid in: the trip's expenses are claimed in it (they were
            # claimed in the user's home currency, and said nothing of the trip).
            "currency": "{record.currency}",
            **ROOM,
        },
        alone=(
            "transport",
            {"start_date": "{record.check_in}", "end_date": "{record.check_out}"},
        ),
    ),
    # A car in the saved trip's city is on that trip; it makes no trip of its own.
    ("car_rentals", "trip"): CrossWrite(
        same={"destination": "{record.city}", "status": "booked"},
        at_place=dict(CAR),
        fields={},
        adds_only=True,
    ),
    ("products", "customer"): CrossWrite(
        same={"id": "{record.buyer.id}"},
        at_place={},
        fields={
            field: f"{{record.buyer.{field}}}"
            for field in ("id", "name", "contact", "email", "tier", "country")
        },
        present="record.buyer",
    ),
}
# The fields that identify a record of its source, where it has one.
ID_FIELDS = frozenset({"id", "number", "sku", "tag"})
SYSTEM_STYLES = (
    "You are {title}, an assistant of the {label} department. Be brief and concrete.",
    "You are the {label} department's assistant for this task: {title}. Answer in two sentences.",
    "Role: {title} ({label}). Use what earlier agents saved in this conversation.",
)


class GeneratorError(ValueError):
    """The account cannot be generated as asked (bad count, bad capability)."""


def _agent_document(
    cap: Capability, label: str, scheme: NamingScheme, rng: random.Random
) -> dict[str, Any]:
    main: list[dict[str, Any]] = []
    for phrase in cap.refuses:
        main.append(
            {
                "if": {
                    "when": {"left": "{sys.query}", "op": "contains", "right": phrase},
                    "then": [
                        {"fail": {"message": cap.refusal or f"{cap.title}: I can't do that."}}
                    ],
                }
            }
        )
    system = rng.choice(SYSTEM_STYLES).format(title=cap.title, label=label)
    main.append(
        {
            "prompt": {
                "name": "chat",
                "scope": "conversation",
                "system": system,
                "user": "{sys.query}",
            }
        }
    )
    if cap.extra_prompt == "agent":
        main.append(
            {
                "prompt": {
                    "name": "notes",
                    "scope": "agent",
                    "system": f"Working notes of {cap.name}, kept for this conversation.",
                    "user": "Request: {sys.query}",
                }
            }
        )
    elif cap.extra_prompt == "local":
        main.append(
            {
                "prompt": {
                    "name": "draft",
                    "scope": "local",
                    "system": f"Scratch drafts of {cap.name} for this run only.",
                    "user": "Draft an answer to: {sys.query}",
                }
            }
        )
    if cap.acts:
        main.append(_asked_how(cap))
    elif _only_looks_up(cap):
        main.append(_changes_elsewhere(cap))
    elif _moves_elsewhere(cap):
        # It does something with the record, but moves no days: "Move it to 18 January"
        # after a seat request came back to the seat agent, which sent the request again.
        main.append(
            {
                "if": {
                    "when": {"exists": "sys.stated.moves_days"},
                    "then": [_changes_elsewhere(cap)],
                }
            }
        )
    reply = cap.reply or f"{cap.title}: done."
    # What every answer adds after its own first sentence (form answers noted, hand-offs
    # used), whether the record was made or changed.
    added: list[str] = []
    if cap.ask:
        opening, inputs = _form_openings(cap.ask["inputs"])
        main.extend(opening)
        ask = {"message": cap.ask["message"], "inputs": inputs, "into": "answers"}
        main.append({"ask": ask})
        # A form default the request is read with yields to what the request says (a send
        # date): echoed raw, it would contradict the date the record got ("scheduled for
        # 2026-12-07 ... Send date: next Tuesday 09:00").
        read = cap.request or ""
        shown = [
            i
            for i in cap.ask["inputs"]
            if i.get("type") != "password"
            and not i.get("hidden")
            and not (i.get("default") and f"{{answers.{i['name']}}}" in read)
        ]
        if shown:
            # An answer the record takes (a category, a severity) is echoed as the record has
            # it, so the answer never says "meals" above and "travel" below.
            taken = {
                template[len("{answers.") : -1]: field
                for field, template in cap.fixed.items()
                if isinstance(template, str) and template.startswith("{answers.")
            }
            noted = ", ".join(
                f"{i['label']}: "
                + (
                    f"{{record.{taken[i['name']]}}}"
                    if i["name"] in taken
                    else f"{{answers.{i['name']}}}"
                )
                for i in shown[:3]
            )
            added.append(f"Noted - {noted}.")
    if cap.data:
        main.extend(_data_commands(cap, scheme))
    for var in cap.reads:
        phrase = " ".join(filter(None, (HANDOFF_PHRASES[var], cap.used.get(var))))
        said = [{"var": {"name": f"handoff_{var}", "value": phrase}}]
        same = _handoff_comparison(cap, var)
        if same is not None:
            said = [{"if": {"when": same, "then": said}}]
        main.append({"if": {"when": {"exists": f"conv.{var}"}, "then": said}})
        added.append(f"{{handoff_{var}}}")
    # Whatever else the request stated is said too, once (``{sys.noted}``), and kept with the
    # conversation for the turn that follows on from it (``conv.request``).
    added.append(NOTED)
    reply = " ".join([reply, *added])
    for var in cap.writes:
        main.extend(_write_commands(cap, var, scheme))
    main.extend(_verdict_commands(cap))
    main.append(_request_record(cap))
    if cap.extra_prompt == "agent":
        main.append({"llm": {"prompt": "notes", "reply": f"Noted for {cap.name}.", "into": "note"}})
        main.append({"var": {"name": "agent.last_request", "value": "{sys.query}"}})
    elif cap.extra_prompt == "local":
        main.append({"llm": {"prompt": "draft", "reply": reply, "into": "draft"}})
    if cap.changed_reply:
        main.append(_changed_answer(" ".join([cap.changed_reply, *added])))
    main.append({"llm": {"prompt": "chat", "reply": reply}})
    main.append({"output": "{result}"})
    main.append({"end": {}})
    document: dict[str, Any] = {
        "name": cap.name,
        "title": cap.title,
        "tag": cap.tag,
        "description": cap.description,
        "examples": list(cap.examples),
    }
    if cap.followups:
        document["followups"] = dict(cap.followups)
    document["version"] = VERSION
    document["main"] = main
    return document


def _form_openings(
    inputs: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The commands that choose what a form field opens at, and the fields as asked.

    A field with ``otherwise`` opens at what the request states (its ``default``), else at
    that: what the conversation saved ("Turn it into an order" after a quote opens the order
    form at the quoted product and quantity; it opened empty), or a fixed choice (a campaign
    "on LinkedIn" opens at social, one that says no channel at email).
    """
    commands: list[dict[str, Any]] = []
    asked: list[dict[str, Any]] = []
    for spec in inputs:
        otherwise = spec.get("otherwise")
        if otherwise is None:
            asked.append(spec)
            continue
        local = f"opens_{spec['name']}"
        stated = TEMPLATE_PATH_RE.findall(str(spec.get("default") or ""))
        from_otherwise = [{"var": {"name": local, "value": otherwise}}]
        if stated:
            from_request = [{"var": {"name": local, "value": spec["default"]}}]
            when = {"exists": stated[0]}
            commands.append({"if": {"when": when, "then": from_request, "else": from_otherwise}})
        else:
            commands.extend(from_otherwise)
        shown = {k: v for k, v in spec.items() if k != "otherwise"}
        asked.append(shown | {"default": f"{{{local}}}"})
    return commands, asked


def _write_commands(cap: Capability, var: str, scheme: NamingScheme) -> list[dict[str, Any]]:
    """The commands that save ``conv.<var>`` from the agent's record."""
    cross = CROSS_WRITES.get((cap.data or "", var))
    if cross is None:
        properties = scheme.variables[var].schema.get("properties", {})
        carried = CARRIED_FIELDS.get(var, frozenset())
        value = {prop: f"{{record.{prop}}}" for prop in properties if prop not in carried}
        # What the record carries along is saved when it has it (no null for "no room", nor
        # for the customer of a quote made for nobody named), each field on its own: a trip
        # with a car and no room rate kept neither.
        return [
            {"var": {"name": f"conv.{var}", "value": value}},
            *(
                {
                    "if": {
                        "when": {"exists": f"record.{p}"},
                        "then": _updates(var, {p: f"{{record.{p}}}"}),
                    }
                }
                for p in properties
                if p in carried
            ),
        ]
    write = {
        "if": {
            "when": {
                "left": "|".join(cross.same.values()),
                "op": "==",
                "right": "|".join(f"{{conv.{var}.{field}}}" for field in cross.same),
            },
            "then": _updates(var, cross.at_place),
            "else": [{"var": {"name": f"conv.{var}", "value": dict(cross.fields)}}],
        }
    }
    if cross.adds_only:
        del write["if"]["else"]
    if cross.alone is not None:
        field, moved = cross.alone
        write["if"]["then"] = [
            {
                "if": {
                    "when": {"missing": f"conv.{var}.{field}"},
                    "then": _updates(var, {**moved, **cross.at_place}),
                    "else": _updates(var, cross.at_place),
                }
            }
        ]
    if cross.present is None:
        return [write]
    return [{"if": {"when": {"exists": cross.present}, "then": [write]}}]


def _asked_how(cap: Capability) -> dict[str, Any]:
    """What an agent that acts answers a question about how to do what it does ("How do I
    report a phishing email?"): how to ask for it, with nothing done (it reported one)."""
    plain = [e for e in cap.examples if not e.rstrip().endswith("?") and '"' not in e]
    example = (plain or list(cap.examples))[0]
    said = f"{cap.title[:1].lower()}{cap.title[1:]}"
    reply = (
        f'I can do that for you here ({said}): say it as a request, such as "{example}", and '
        "I will. Nothing was done yet."
    )
    return _answer_when({"exists": "sys.stated.asks_how"}, reply)


def _only_looks_up(cap: Capability) -> bool:
    """Whether the agent only shows what a record is (an itinerary, a status), changing
    nothing, so a change asked of it goes elsewhere (choosing a seat or pausing a campaign
    does something, though the record is only found)."""
    shows = cap.title.startswith(LOOK_UP_TITLES)
    return (
        cap.action == "find"
        and not cap.acts
        and not cap.verdicts
        and shows
        and (cap.data in CHANGED_AS)
    )


def _moves_elsewhere(cap: Capability) -> bool:
    """Whether the agent works on a found record of a kind whose days another agent moves
    (a seat on the trip's flight, a campaign paused), without looking it up only: a move of
    "it" asked of it goes to that agent."""
    return cap.action == "find" and not cap.acts and cap.data in CHANGED_AS


def _changes_elsewhere(cap: Capability) -> dict[str, Any]:
    """What an agent that only looks things up answers a change asked of "it" ("Move it to
    the 16th" after the itinerary, which came back to it as the last agent): nothing was
    changed, and the change said of the record it is about, which its agent does (it showed
    the trip again as if moved)."""
    said = f"{cap.title[:1].lower()}{cap.title[1:]}"
    example = "{sys.stated.change_of_it.verb} {changed_as}{sys.stated.change_of_it.rest}"
    reply = (
        f"I can't change that here ({said}), so nothing was changed. Ask for it with what it "
        f'is about, such as "{example}", and the agent that makes the change will.'
    )
    answer = _answer_when({"exists": "sys.stated.change_of_it"}, reply)
    named: list[dict[str, Any]] = [
        {"var": {"name": "changed_as", "value": CHANGED_AS[cap.data or ""]}}
    ]
    if cap.data == "flights":
        # A trip that is only a stay changes with its hotel booking: no flight to move.
        stay = {"var": {"name": "changed_as", "value": CHANGED_AS["hotels"]}}
        only_stay = {"if": {"when": {"missing": "conv.trip.transport"}, "then": [stay]}}
        named.append({"if": {"when": {"exists": "conv.trip.hotel"}, "then": [only_stay]}})
    answer["if"]["then"][:0] = named
    return answer


def _request_record(cap: Capability) -> dict[str, Any]:
    """The command that keeps what was asked, and every fact the request stated."""
    value = {"title": cap.title, "details": "{sys.details}"}
    return {"var": {"name": "conv.request", "value": value}}


def _changed_answer(reply: str) -> dict[str, Any]:
    """The answer when the world changed the record this agent made here earlier (the
    outcome names the fields changed): the booking moved, not a second one booked."""
    return _answer_when({"exists": "outcome.changed.0"}, reply)


def _answer_when(when: dict[str, str], reply: str) -> dict[str, Any]:
    """Answer ``reply`` and end the run, when ``when`` holds."""
    then = [{"llm": {"prompt": "chat", "reply": reply}}, {"output": "{result}"}, {"end": {}}]
    return {"if": {"when": when, "then": then}}


def _updates(var: str, values: dict[str, str]) -> list[dict[str, Any]]:
    """The commands that set these fields of ``conv.<var>``."""
    return [
        {"var": {"name": f"conv.{var}.{name}", "value": value}} for name, value in values.items()
    ]


_MONEY_FIELDS = frozenset({"currency", "amount", "cost", "total", "price"})


def _handoff_comparison(cap: Capability, var: str) -> dict[str, Any] | None:
    """When the answer may say it used what ``conv.<var>`` holds (besides that it exists):
    the record carries the values the sentence names. A request that named another trip or
    customer got another record, and "I used the trip to Berlin" under a stay in Lisbon would
    contradict it. A change of the saved record itself says it whatever it changed, but not
    a change of another one the request named by its id ("return order ORD-000004")."""
    if cap.action == "update" and HANDOFF_FIELDS.get((cap.data or "", var)) == SAME:
        # A change of the saved record says it whatever it changed, if it is that record.
        key = next((f for f in SOURCE_FIELDS.get(cap.data or "", ()) if f in ID_FIELDS), None)
        if key is None:
            return None
        return {"left": f"{{record.{key}}}", "op": "==", "right": f"{{conv.{var}.{key}}}"}
    taken = _taken_fields(cap, var)
    named = TEMPLATE_PATH_RE.findall(HANDOFF_PHRASES[var])
    # The values the sentence names, and those of another kind of record that are the
    # record's own fields: a goodwill gesture "used the ticket" only if it went to that
    # ticket's customer. (A new record of the saved kind takes only what the sentence names.)
    same = HANDOFF_FIELDS.get((cap.data or "", var)) == SAME
    own = () if same else SOURCE_FIELDS.get(cap.data or "", ())
    # Money the sentence does not name says nothing of which record it is for: a claim paid
    # in euros is still for the trip priced in Singapore dollars.
    pairs = [
        (field, path)
        for field, path in taken.items()
        if path in named or (field in own and field not in _MONEY_FIELDS)
    ]
    if not pairs:
        return None
    return {
        "left": "|".join(f"{{record.{field}}}" for field, _ in pairs),
        "op": "==",
        "right": "|".join(f"{{{path}}}" for _, path in pairs),
    }


def _taken_fields(cap: Capability, var: str) -> dict[str, str]:
    """The record fields the agent's data command takes from ``conv.<var>``, each with the
    path it takes it from (only fields taken whole)."""
    how = HANDOFF_FIELDS.get((cap.data or "", var))
    if how == SAME:
        return {prop: f"conv.{var}.{prop}" for prop in SOURCE_FIELDS.get(cap.data or "", ())}
    out: dict[str, str] = {}
    for name, template in (how or {}).items():
        paths = TEMPLATE_PATH_RE.findall(template)
        if len(paths) == 1 and template == f"{{{paths[0]}}}":
            out[name] = paths[0]
    return out


def _verdict_commands(cap: Capability) -> list[dict[str, Any]]:
    """Set ``verdict`` to the first of the capability's verdicts the request is about.

    The fallback (the verdict without words) is set first; then each verdict with words from
    the last to the first overwrites it when the request contains one of them, so the first
    that matches is what remains.
    """
    if not cap.verdicts:
        return []
    fallback = next((v.say for v in cap.verdicts if not v.when), "")
    commands: list[dict[str, Any]] = [{"var": {"name": "verdict", "value": fallback}}]
    for verdict in reversed([v for v in cap.verdicts if v.when]):
        for word in verdict.when:
            when = {"left": "{sys.query}", "op": "contains", "right": word}
            said = [{"var": {"name": "verdict", "value": verdict.say}}]
            commands.append({"if": {"when": when, "then": said}})
    return commands


def _data_commands(cap: Capability, scheme: NamingScheme) -> list[dict[str, Any]]:
    """The record command of an agent and, for a lookup, what it says when there is none."""
    source = cap.data
    assert source is not None
    if cap.action is None:
        raise GeneratorError(f"{cap.name}: an agent with data needs an action")
    args: dict[str, Any] = {"source": source, "action": cap.action}
    if cap.request:
        args["request"] = cap.request
    base: str | None = None
    given: dict[str, str] = {}
    where: dict[str, Any] = {}
    for var in cap.reads:
        how = HANDOFF_FIELDS.get((source, var))
        if how is None:
            raise GeneratorError(f"{cap.name}: no hand-off rule for '{source}' reading conv.{var}")
        if how == SAME:
            if cap.action == "create":
                properties = scheme.variables[var].schema.get("properties", {})
                booked = BOOKED_FIELDS.get(var, frozenset()) if var in cap.writes else ()
                given.update(
                    {prop: f"{{conv.{var}.{prop}}}" for prop in properties if prop not in booked}
                )
            else:
                base = f"{{conv.{var}}}"
            continue
        assert isinstance(how, dict)
        for name, template in how.items():
            if cap.action != "create" and name in SOURCE_FIELDS[source]:
                where[name] = template
            else:
                given[name] = template
    # A writer that looks up or changes a record continues from the one it saved before.
    for var in cap.writes:
        if cap.action != "create" and VARIABLE_SOURCES[var] == source and base is None:
            base = f"{{conv.{var}}}"
    given.update(cap.given)
    where.update(cap.where)
    if base:
        args["base"] = base
    if where:
        args["where"] = where
    if given:
        args["given"] = given
    if cap.fixed:
        args["fixed"] = dict(cap.fixed)
    if cap.requester:
        args["requester"] = True
    if cap.others:
        args["others"] = True
    if cap.sample:
        args["sample"] = True
    if cap.makes:
        args["makes"] = True
    if cap.requires:
        args["requires"] = {var: dict(kind) for var, kind in cap.requires.items()}
    args.update(into="record", prompt="chat")
    commands: list[dict[str, Any]] = [{"data": args}]
    # Every action may find nothing to act on, a creator too: a company already registered,
    # a saved record it takes values from that is closed (an invoice for a cancelled order),
    # or a request for no record of its kind (headsets for a customer, from the IT desk).
    missing = _answer_when({"missing": "record"}, "{outcome.message}")
    # What the request said is kept even when there was nothing to act on: the next turn
    # ("its budget", "for her") follows on from it.
    missing["if"]["then"].insert(0, _request_record(cap))
    commands.append(missing)
    if cap.action == "update":
        # Asked how the record is ("Is it still unpaid?"), an agent that changes it answers
        # from it and changes nothing; the conversation is about that record from then.
        answered = _answer_when({"exists": "outcome.answer"}, "{outcome.answer}")
        kept = [c for var in cap.writes for c in _write_commands(cap, var, scheme)]
        answered["if"]["then"][:0] = [*kept, _request_record(cap)]
        commands.append(answered)
    return commands


def _check_capability(cap: Capability, scheme: NamingScheme) -> None:
    for var in (*cap.writes, *cap.reads):
        if var not in scheme.variables:
            raise GeneratorError(f"{cap.name}: '{var}' is not an agreed variable")
    for var in cap.writes:
        if cap.data != VARIABLE_SOURCES[var] and (cap.data, var) not in CROSS_WRITES:
            raise GeneratorError(
                f"{cap.name}: writing conv.{var} needs data: {VARIABLE_SOURCES[var]}"
            )
    if cap.data and cap.action not in ("find", "create", "update"):
        raise GeneratorError(f"{cap.name}: action must be find, create or update")
    unread = sorted(cap.used.keys() - set(cap.reads))
    if unread:
        raise GeneratorError(f"{cap.name}: 'used' names variables it does not read: {unread}")


def _dump(document: dict[str, Any]) -> str:
    return yaml.safe_dump(
        document, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False
    )


def generate_files(
    count: int | None = None,
    seed: int = DEFAULT_SEED,
    departments: list[Department] | None = None,
    scheme: NamingScheme | None = None,
) -> dict[str, str]:
    """The account's generated agent files, as ``{file name: YAML text}``: one per
    capability, or ``count`` of them."""
    departments = departments if departments is not None else load_departments()
    scheme = scheme or load_scheme()
    pool = [(cap, dep.label) for dep in departments for cap in dep.capabilities]
    count = len(pool) if count is None else count
    if not 1 <= count <= len(pool):
        raise GeneratorError(f"--count must be between 1 and {len(pool)} (got {count})")
    chosen = (
        sorted(random.Random(seed).sample(range(len(pool)), count))
        if count < len(pool)
        else (list(range(len(pool))))
    )
    files: dict[str, str] = {}
    for index in chosen:
        cap, label = pool[index]
        _check_capability(cap, scheme)
        digest = hashlib.sha256(f"{seed}:{cap.name}".encode()).digest()
        rng = random.Random(int.from_bytes(digest[:8], "big"))
        files[f"{cap.name}.yaml"] = _dump(_agent_document(cap, label, scheme, rng))
    return files


def is_hand_written(text: str) -> bool:
    return text.startswith(HAND_WRITTEN_MARKER)


def hand_written_files(folder: str | Path) -> dict[str, str]:
    """The hand-written agent files of a folder (none when it does not exist)."""
    folder = Path(folder)
    if not folder.is_dir():
        return {}
    found = {}
    for path in sorted(folder.iterdir()):
        if path.suffix not in (".yaml", ".yml") or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise GeneratorError(f"cannot read {path}: {exc}") from exc
        if is_hand_written(text):
            found[path.name] = text
    return found


def write_account(files: dict[str, str], out: str | Path, *, force: bool = False) -> Path:
    """Write the files to `out` all at once: a temporary folder renamed into place. The
    hand-written agents already in `out` are carried over unchanged."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise GeneratorError(f"{out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise GeneratorError(f"{out} is not empty (use --force to replace it)")
    kept = hand_written_files(out)
    clash = sorted(set(kept) & set(files))
    if clash:
        raise GeneratorError(f"{out}: generating would replace hand-written {', '.join(clash)}")
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name, text in {**files, **kept}.items():
            (staging / name).write_text(text, encoding="utf-8")
        if out.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            os.replace(out, retired / out.name)
            os.replace(staging, out)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.replace(staging, out)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise GeneratorError(f"cannot write {out}: {exc.strerror or exc}") from exc
    return out
