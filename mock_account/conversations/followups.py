"""Suggested follow-ups: what to ask next so that another agent picks up what was saved.

A suggestion is a request for an agent that reads a conversation variable the last run
wrote, when the variable holds every value the agent takes from it and is a record of the
kind the agent works on (no demand letter for a bill a supplier sent us). It is written
from what was saved: the reader's follow-up template filled with the saved values ("File my
travel expenses for the Lisbon trip"). Without the saved values (a server that does not
show the state), an example of the reader is used instead. Only requests that a search
sends to that very reader are suggested, so a suggestion does what it says. Used by the demo
and by ``mock-account chat``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

from agents_catalog.agent_format import (
    TEMPLATE_PATH_RE,
    AgentDefinition,
    DataArgs,
    command_args,
    walk_commands,
)
from agents_catalog.capabilities import OPTIONAL_FIELDS, VARIABLE_SOURCES
from agents_catalog.graph import HandoffGraph, build_handoff_graph
from mock_account.engine.templates import TemplateError, lookup, render_text
from mock_account.search.index import SearchIndex
from mock_account.world import change_of, foreseen_refusal, kind_of

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _is_the_user(saved: Any, user: str) -> bool:
    """Whether a saved record is the asking user's own entry (their directory record)."""
    email = saved.get("email") if isinstance(saved, Mapping) else None
    return isinstance(email, str) and email.casefold() == user.casefold()


# The hand-off each saved variable is best known for: suggested first when it applies, so the
# first minute of the demo shows the story the README tells (a trip, then its expenses).
FEATURED: dict[str, str] = {
    "trip": "SubmitExpenseClaim",
    "customer": "PlaceCustomerOrder",
    "quote": "PlaceCustomerOrder",
    "order": "ReportDamagedDelivery",
    "incident": "AnnounceItOutageToStaff",
    "expense": "CheckTravelPolicy",
    "vendor": "ReviewSaasToolSecurity",
    "invoice": "SendDemandLetter",
    "ticket": "FileBugFromTicket",
}

# What people do next after an agent, in order: the only readers of what it wrote that are
# suggested. After an onboarding, a laptop and access, not "Sofia is leaving, shut off
# their accounts"; after a resignation, no flight or company card for the leaver.
NEXT_STEPS: dict[str, tuple[str, ...]] = {
    "StartNewHireOnboarding": ("SetUpNewHireEquipment", "RequestAppAccess", "RequestCorporateCard"),
    "ProcessResignation": ("DisableLeaverAccounts", "ApproveTeamExpenses"),
    "DisableLeaverAccounts": ("ApproveTeamExpenses", "FindColleagueInDirectory"),
    # A damaged delivery is sent back, made up for and followed: not a software bug.
    "ReportDamagedDelivery": (
        "StartProductReturn",
        "OfferGoodwillGesture",
        "CheckSupportCaseStatus",
    ),
    # A colleague's trip is theirs: every follow-up of a trip speaks of the user's own ("File
    # my travel expenses for the Berlin trip" after booking Sofia's flight).
    "BookTravelForColleague": (),
}


@dataclass(frozen=True)
class Suggestion:
    request: str
    agent: str
    department: str
    variable: str  # the conv.x it will pick up


def shown(value: Any) -> Any:
    """A saved value as a person writes it: "2026-12-14" -> "14 December"."""
    if isinstance(value, str) and _ISO_DATE.match(value):
        try:
            day = date.fromisoformat(value)
        except ValueError:
            return value
        return f"{day.day} {day:%B}"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.2f}"
    return value


class Followups:
    """Follow-up suggestions over one account's agents, hand-off graph and search."""

    def __init__(
        self,
        agents: Iterable[AgentDefinition],
        index: SearchIndex,
        graph: HandoffGraph | None = None,
    ) -> None:
        self.agents = {a.name: a for a in agents}
        self.index = index
        self.graph = graph or build_handoff_graph(list(self.agents.values()))
        self._routes = lru_cache(maxsize=2048)(self._top)
        self._taken = lru_cache(maxsize=2048)(self._taken_paths)
        self._data_commands = lru_cache(maxsize=2048)(self._data_commands_of)

    def _data_commands_of(self, reader: str) -> tuple[DataArgs, ...]:
        agent = self.agents.get(reader)
        commands = walk_commands(list(agent.main) if agent else [])
        return tuple(args for c in commands if isinstance(args := command_args(c), DataArgs))

    def refusal(
        self, reader: str, variable: str, saved: Mapping[str, Any], user: str = ""
    ) -> str | None:
        """What the reader would answer instead of working from the saved record of
        ``variable`` (``foreseen_refusal``): it is over (a cancelled trip to claim expenses
        for), not of the kind the reader works on (a supplier's bill for a demand letter),
        or not the kind it takes values from (a flight claim for a hospitality check), or
        the asking ``user``'s own record to an agent for other people's (their own claim to
        approve)."""
        io = self.graph.agents.get(reader)
        for args in self._data_commands(reader):
            base = _base_variable(args.base) == variable
            if not base and not self._taken(reader, variable):
                continue
            why = foreseen_refusal(
                args.source,
                change_of(args.action, args.fixed),
                kind_of(args.where),
                (VARIABLE_SOURCES.get(variable, ""), dict(saved)),
                base=base,
                replaced=io is not None and variable in io.replaces,
                required=(args.requires or {}).get(variable),
                others=args.others,
                user=user,
            )
            if why:
                return why
        return None

    def _taken_paths(self, reader: str, variable: str) -> tuple[str, ...]:
        """The paths of ``conv.<variable>`` the reader's record commands take a value from
        ("customer_id" for a goodwill gesture to the customer of a ticket)."""
        paths: set[str] = set()
        for args in self._data_commands(reader):
            for templates in (args.given or {}, args.where or {}):
                for template in templates.values():
                    found = TEMPLATE_PATH_RE.findall(template) if isinstance(template, str) else []
                    paths.update(
                        p.partition(".")[2] for p in found if p.split(".")[:2] == ["conv", variable]
                    )
        return tuple(sorted(paths))

    def _top(self, request: str) -> str | None:
        hits = self.index.search(request, limit=1)
        return hits[0].agent_name if hits else None

    def routes_to(self, request: str, agent_name: str) -> bool:
        """Whether a search sends `request` to `agent_name` first."""
        return self._routes(request) == agent_name

    def routed_examples(self, agent_name: str) -> list[str]:
        """The agent's examples that a search sends to this very agent."""
        agent = self.agents.get(agent_name)
        return [e for e in (agent.examples if agent else ()) if self.routes_to(e, agent_name)]

    def written(
        self, reader: str, variable: str, conv: Mapping[str, Any], *, user: str = ""
    ) -> str | None:
        """The reader's follow-up for `variable`, filled from the saved values, if it routes
        to the reader; None when it has none, a value is missing, or search goes elsewhere."""
        agent = self.agents.get(reader)
        template = agent.followups.get(variable) if agent else None
        if not template or variable not in conv:
            return None
        # A reader that takes a value the saved record does not have (the customer of an
        # internal IT ticket) would answer about another record: it is not suggested.
        optional = OPTIONAL_FIELDS.get(variable, frozenset())
        needed = [p for p in self._taken(reader, variable) if p.partition(".")[2] not in optional]
        if any(lookup(conv, path) in (None, "") for path in needed):
            return None
        saved = conv[variable]
        if isinstance(saved, Mapping) and self.refusal(reader, variable, saved, user):
            return None
        # A reader that works on a record of another variable the conversation does not
        # hold would only ask which one ("Which order?"), unless it looks that record up by
        # what this variable holds (the order of the ticket's customer).
        if any(
            _base_variable(args.base) not in (None, *conv) and not _looks_up_by(args, variable)
            for args in self._data_commands(reader)
        ):
            return None
        missing = False

        def resolve(path: str) -> Any:
            nonlocal missing
            root, _, rest = path.partition(".")
            value = lookup(conv, rest) if root == "conv" and rest else None
            if value is None:
                missing = True
            return shown(value)

        try:
            text = render_text(template, resolve)
        except TemplateError:
            return None
        if missing or not self.routes_to(text, reader):
            return None
        return text

    def _declared_first(
        self, reader: str, variables: list[str], conv: Mapping[str, Any]
    ) -> str | None:
        """Of the variables just written, the one whose follow-up the reader may be suggested
        with: the first its file declares. After a quote, which saves the customer too,
        "Globex accepted the quote, place the order for 20 x Laptop", or nothing, but not
        "Place an order of 10 standing desks"."""
        agent = self.agents.get(reader)
        for variable in agent.followups if agent else ():
            if variable in variables and variable in conv:
                return variable
        return None

    def suggest(
        self,
        last_agent: str,
        *,
        written: list[str] | None = None,
        conv: Mapping[str, Any] | None = None,
        already_ran: set[str] | None = None,
        limit: int = 3,
        user: str = "",
    ) -> list[Suggestion]:
        """Up to ``limit`` requests for readers of what ``last_agent`` wrote, varied by
        variable and department.

        ``written`` (variable names) defaults to what the agent writes in the graph; agents
        in ``already_ran`` are suggested only when nothing else is left. With ``conv`` (the
        saved conversation variables) the requests are written from the saved values;
        ``user`` (an email) is who asks, when known.
        """
        io = self.graph.agents.get(last_agent)
        variables = sorted(written if written is not None else (io.writes if io else ()))
        ran = (already_ran or set()) | {last_agent}
        per_variable: list[list[Suggestion]] = []
        steps = NEXT_STEPS.get(last_agent)
        for variable in variables:
            options = []
            if conv is not None and user and _is_the_user(conv.get(variable), user):
                # The templates speak of a colleague ("… is leaving, shut off their
                # accounts"): after "Who is my manager?" saved the user's own entry, none fits.
                continue
            for reader in self.graph.readers(variable):
                if reader == last_agent or (steps is not None and reader not in steps):
                    continue
                if conv is not None:
                    if self._declared_first(reader, variables, conv) not in (None, variable):
                        continue
                    text = self.written(reader, variable, conv, user=user)
                else:
                    examples = self.routed_examples(reader)
                    text = examples[0] if examples else None
                if text:
                    department = self.agents[reader].tag if reader in self.agents else ""
                    options.append(Suggestion(text, reader, department, f"conv.{variable}"))
            # The featured reader first, then other departments before the writer's own.
            own = self.agents[last_agent].tag if last_agent in self.agents else ""
            options.sort(
                key=lambda s: (
                    steps.index(s.agent) if steps else 0,
                    s.agent != FEATURED.get(variable),
                    s.department == own,
                    s.agent,
                )
            )
            fresh = [s for s in options if s.agent not in ran]
            per_variable.append(fresh + [s for s in options if s.agent in ran])
        chosen: list[Suggestion] = []
        seen_departments: set[str] = set()
        # Round robin over variables; prefer a department not suggested yet.
        while len(chosen) < limit and any(per_variable):
            for options in per_variable:
                if not options or len(chosen) >= limit:
                    continue
                # Next steps in their order; otherwise a department not suggested yet.
                pick = (
                    options[0]
                    if steps
                    else next(
                        (s for s in options if s.department not in seen_departments), options[0]
                    )
                )
                options.remove(pick)
                if any(s.agent == pick.agent for s in chosen):
                    continue
                chosen.append(pick)
                seen_departments.add(pick.department)
        return chosen


def _looks_up_by(args: DataArgs, variable: str) -> bool:
    """Whether a data command filters its lookup by a value of ``conv.<variable>``."""
    return any(
        path.split(".")[:2] == ["conv", variable]
        for value in (args.where or {}).values()
        for path in TEMPLATE_PATH_RE.findall(str(value))
    )


def _base_variable(template: str | None) -> str | None:
    """The variable a ``base`` template is (``{conv.order}`` -> ``order``), if any."""
    text = (template or "").strip()
    if text.startswith("{conv.") and text.endswith("}") and "." not in text[6:-1]:
        return text[6:-1]
    return None
