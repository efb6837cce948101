"""Capability files: what each department's agents do, before they become agent files.

One YAML file per department in ``agents_catalog/capabilities/`` lists its agents
(name, title, description, examples, the data they look up, the agreed variables
they write and read, an optional form, refusals, extra prompts). The generator
turns these into agent files; they are the account's content, kept apart from how
an agent file is laid out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from .errors import SchemeError

# Which mock data source backs each agreed variable (the record fields match its schema).
VARIABLE_SOURCES = {
    "trip": "flights",
    "customer": "customers",
    "order": "orders",
    "quote": "products",
    "employee": "employees",
    "ticket": "tickets",
    "invoice": "invoices",
    "expense": "expenses",
    "incident": "incidents",
    "contract": "contracts",
    "vendor": "vendors",
    "campaign": "campaigns",
    "candidate": "candidates",
}

# Variables that hold a record an agent made from its source's records, not one of them: a
# quote prices a product. A request that names the product names no quote ("20 standing desks
# for Orion Retail" was taken for a quote of the catalogue's desk, in its dollars).
MADE_FROM_SOURCE = frozenset({"quote"})

# The fields of each data source's records, in record order. A record of a source that
# backs an agreed variable fits that variable's schema.
SOURCE_FIELDS: dict[str, tuple[str, ...]] = {
    "customers": ("id", "name", "contact", "email", "tier", "country"),
    "orders": ("id", "customer_id", "product", "quantity", "total", "currency", "status"),
    "employees": ("id", "name", "email", "department", "title", "manager", "location"),
    "flights": (
        "destination",
        "origin",
        "start_date",
        "end_date",
        "purpose",
        "mode",
        "flight",
        "train",
        "transport",
        "hotel",
        "cost",
        "currency",
        "status",
    ),
    "hotels": ("name", "city", "nightly_rate", "currency", "stars"),
    "car_rentals": (
        "id",
        "city",
        "pick_up",
        "drop_off",
        "car_class",
        "company",
        "daily_rate",
        "currency",
        "days",
        "total",
        "status",
    ),
    "invoices": ("number", "amount", "currency", "due_date", "status", "party", "direction"),
    "expenses": ("id", "category", "amount", "currency", "date", "note", "employee"),
    "tickets": ("id", "subject", "priority", "status", "customer_id", "assignee"),
    "incidents": ("id", "service", "severity", "status", "summary", "started_at"),
    "contracts": (
        "id",
        "counterparty",
        "kind",
        "value",
        "currency",
        "renewal_date",
        "party_type",
        "status",
    ),
    "vendors": ("id", "name", "category", "country", "rating"),
    "campaigns": ("name", "channel", "budget", "currency", "start_date", "audience"),
    "candidates": ("id", "name", "role", "stage", "email"),
    "products": ("sku", "name", "category", "price", "currency", "stock"),
    "assets": ("tag", "kind", "model", "assigned_to", "status"),
}

# The room a hotel booking saves on the trip, so that what the trip costs can be told.
ROOM = {
    "room_rate": "{record.nightly_rate}",
    "room_nights": "{record.nights}",
    "room_currency": "{record.currency}",
}
# The rental car a car reservation saves on the trip, so that the trip says all it holds
# ("What will the whole trip cost?" left the car out; the trip cancelled kept it).
CAR = {
    "car": "{record.id}",
    "car_class": "{record.car_class}",
    "car_company": "{record.company}",
    "car_total": "{record.total}",
    "car_currency": "{record.currency}",
}
# Fields a reader takes when they are there and does without (a trip that is only a stay has
# no transport to say the room runs past), so a follow-up is suggested without them.
OPTIONAL_FIELDS: dict[str, frozenset[str]] = {
    "trip": frozenset({*ROOM, *CAR, "transport"}),
    "employee": frozenset({"joins_on"}),
}


@dataclass(frozen=True)
class Verdict:
    """One answer of a capability's ``verdicts``: ``say`` when the request has any of ``when``."""

    say: str
    when: tuple[str, ...] = ()


@dataclass(frozen=True)
class Capability:
    name: str
    title: str
    tag: str
    description: str
    examples: tuple[str, ...]
    data: str | None = None
    writes: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    reply: str = ""
    # The reply when the request changed what this agent made here earlier ("move it to
    # Friday", "make it a sev1"): the record is the same one, changed, not a second one.
    changed_reply: str = ""
    ask: dict[str, Any] | None = None
    refuses: tuple[str, ...] = ()
    refusal: str = ""
    extra_prompt: str | None = None
    # What the agent does with its record: find it, create it or update it (the world's
    # actions), and which fields come from a form or are constants (`fixed`), from the
    # conversation beyond the agreed hand-offs (`given`), or from another text (`request`).
    action: str | None = None
    fixed: dict[str, Any] = field(default_factory=dict)
    given: dict[str, Any] = field(default_factory=dict)
    where: dict[str, Any] = field(default_factory=dict)
    # The kind of saved record the agent takes values from, by variable read (a hospitality
    # check reads a meal expense, not a flight).
    requires: dict[str, dict[str, Any]] = field(default_factory=dict)
    request: str | None = None
    requester: bool = False
    # The record is someone else's, never the user's own (a manager approving a claim).
    others: bool = False
    # One record found stands for many (an audience segment, an RFQ's suppliers): a request
    # that names no company is not asked which one.
    sample: bool = False
    # The agent acts on the record it finds (issues a key, chases a supplier): one the request
    # names that the data lacks is made as typed, not reported missing (``unknown: make``).
    makes: bool = False
    # A suggested follow-up per variable read: what a user types to reach this agent
    # once an earlier agent saved that variable (a template over `conv.*`).
    followups: dict[str, str] = field(default_factory=dict)
    # What the answer adds, by variable read, after saying it used what an earlier agent saved
    # there (what a claim for a saved trip covers, say).
    used: dict[str, str] = field(default_factory=dict)
    # The answer to a yes/no question the request asks ("can I accept?"), by what it is about:
    # the first verdict whose words the request contains, else the one without words. The
    # reply says it where it has ``{verdict}``.
    verdicts: tuple[Verdict, ...] = ()

    @property
    def acts(self) -> bool:
        """Whether the agent does something (makes or changes a record, sends a request for the
        user) rather than only looks something up: a question about how to do it ("How do I
        report a phishing email?") must not do it. An agent with verdicts answers its
        questions itself."""
        if self.verdicts:
            return False
        return self.action in ("create", "update") or (self.action == "find" and self.requester)


@dataclass(frozen=True)
class Department:
    tag: str
    label: str
    capabilities: tuple[Capability, ...] = field(default_factory=tuple)


def default_capabilities_dir() -> Path:
    return Path(str(resources.files("agents_catalog") / "capabilities"))


def _saved_finds(raw: dict[str, Any]) -> tuple[str, ...]:
    """The variables a lookup saves without saying so: those it reads that hold its own kind
    of record. Once "Pay supplier invoice INV-000412" found that invoice, the conversation is
    about it, and "is it paid?" must not hear that there is no invoice here. Not the trip (it
    holds more than the flight a lookup finds) nor the requester's own record (a card asked
    for oneself does not make the conversation about an employee to onboard or off-board)."""
    if raw.get("action") != "find" or raw.get("requester"):
        return ()
    writes = raw.get("writes") or ()
    return tuple(
        var
        for var in raw.get("reads") or ()
        if var != "trip" and VARIABLE_SOURCES.get(var) == raw.get("data") and var not in writes
    )


def _capability(tag: str, raw: dict[str, Any]) -> Capability:
    return Capability(
        name=str(raw["name"]),
        title=str(raw["title"]),
        tag=tag,
        description=" ".join(str(raw["description"]).split()),
        examples=tuple(str(e) for e in raw.get("examples", [])),
        data=raw.get("data"),
        writes=(*(raw.get("writes") or ()), *_saved_finds(raw)),
        reads=tuple(raw.get("reads") or ()),
        reply=" ".join(str(raw.get("reply", "")).split()),
        changed_reply=" ".join(str(raw.get("changed_reply", "")).split()),
        ask=raw.get("ask"),
        refuses=tuple(str(r) for r in raw.get("refuses") or ()),
        refusal=" ".join(str(raw.get("refusal", "")).split()),
        extra_prompt=raw.get("extra_prompt"),
        action=raw.get("action"),
        fixed=dict(raw.get("fixed") or {}),
        given=dict(raw.get("given") or {}),
        where=dict(raw.get("where") or {}),
        requires={str(k): dict(v) for k, v in (raw.get("requires") or {}).items()},
        request=raw.get("request"),
        requester=bool(raw.get("requester", False)),
        others=bool(raw.get("others", False)),
        sample=bool(raw.get("sample", False)),
        makes=raw.get("unknown") == "make",
        followups={str(k): str(v) for k, v in (raw.get("followups") or {}).items()},
        used={str(k): " ".join(str(v).split()) for k, v in (raw.get("used") or {}).items()},
        verdicts=tuple(
            Verdict(
                " ".join(str(v["say"]).split()), tuple(str(w).lower() for w in v.get("when", ()))
            )
            for v in raw.get("verdicts") or ()
        ),
    )


def load_departments(folder: str | Path | None = None) -> list[Department]:
    """Every department of the capability folder, sorted by tag."""
    folder = Path(folder) if folder else default_capabilities_dir()
    departments = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            raw = yaml.safe_load(path.read_text(encoding="utf-8"))
            tag = str(raw["department"])
            caps = tuple(_capability(tag, item) for item in raw["agents"])
            departments.append(Department(tag, str(raw.get("label", tag)), caps))
        except (OSError, yaml.YAMLError, KeyError, TypeError) as exc:
            raise SchemeError(f"{path}: not a valid capability file: {exc}") from exc
    return departments
