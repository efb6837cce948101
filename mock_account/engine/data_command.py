"""The ``data`` command: a lookup in the business data (``match``), or an action on the mock
world (find, create, change...) that reads its facts from the request, its values from the
conversation's records (or those the request names instead), and records the call in the
command's prompt.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from agents_catalog.agent_format import TEMPLATE_PATH_RE, DataArgs
from agents_catalog.capabilities import MADE_FROM_SOURCE, SOURCE_FIELDS, VARIABLE_SOURCES
from mock_account.engine.agent_facts import replaces_of, writes_of
from mock_account.engine.errors import AgentError
from mock_account.engine.history import AgentHistory
from mock_account.engine.prompts import Prompts
from mock_account.engine.request import RequestReading
from mock_account.engine.setting import RunSetting
from mock_account.engine.templates import PLACEHOLDER, WHOLE
from mock_account.engine.variables import Variables
from mock_account.world import Held

_THIRD_PERSON_RE = re.compile(r"\b(?:her|his|him|she|he)\b", re.IGNORECASE)
_HELD_CACHE: dict[int, tuple[DataArgs, Held]] = {}


@dataclass(frozen=True)
class DataCommand:
    """Runs one run's ``data`` commands."""

    setting: RunSetting
    variables: Variables
    request: RequestReading
    prompts: Prompts
    history: AgentHistory

    def run(self, frame: dict[str, Any], args: DataArgs) -> None:
        match = self.variables.text(frame, args.match) if args.match is not None else None
        call: dict[str, Any] = {"source": args.source}
        if args.action == "match":
            where = self.variables.render(frame, args.where) if args.where is not None else None
            records = self.setting.engine.data.lookup(
                args.source, match=match, where=where, limit=args.limit
            )
            value: Any = (records[0] if records else None) if args.limit == 1 else records
            call.update(match=match, where=where, limit=args.limit)
        else:
            value = self._act(frame, args, match, call)
        frame["locals"][args.into] = value
        if args.prompt:
            self._record_call(args.prompt, args.source, call, value)

    def _act(
        self, frame: dict[str, Any], args: DataArgs, match: str | None, call: dict[str, Any]
    ) -> Any:
        """Run the command's action on the world; its outcome's report goes to
        ``args.outcome``, what it was called with to ``call``."""
        variables, setting = self.variables, self.setting
        request = self._request(frame, args.request)
        if args.action == "create" and _THIRD_PERSON_RE.search(request):
            # "Get the HR side of her onboarding going, her buddy is Arjun Pillai": she is the
            # person the request before named (Hannah Lim), not the buddy nor someone made up.
            request = self.request.in_context(request)
        given_templates, fixed_templates = self._templates(args)
        held = _held_by(args)
        saved = self._saved(held)
        variables.named = named = self._named_instead(request, args.source, held, saved)
        try:
            if args.base is not None:
                base = variables.render(frame, args.base)
            else:
                # A lookup that names nothing is about what this agent found last here ("Send
                # it to them" after a list price): "which product? there is none in this
                # conversation" would contradict the answer just given. (The user's own
                # records go by ``made``: the world's requester path.)
                found_here = args.action == "find" and not args.requester
                base = self.history.made(args) if found_here else None
            given = variables.present(frame, given_templates)
            fixed = variables.present(frame, fixed_templates)
            # Filters of missing values are left out (``present``), not matched as empty.
            where = variables.present(frame, args.where) if args.where is not None else None
        finally:
            variables.set_aside.update(variables.named)
            variables.named = {}
        try:
            act = functools.partial(
                setting.engine.world.act,
                args.action,
                args.source,
                today=self.request.today,
                user=setting.sys["user"],
                base=base if isinstance(base, dict) else None,
                expects_base=args.base is not None,
                given=given,
                fixed=fixed,
                where=where,
                match=match,
                requester=args.requester,
                others=args.others,
                sample=args.sample,
                makes=args.makes,
                requires=args.requires,
                made=self.history.made(args) if args.action == "create" or args.requester else None,
                held=held,
                saved=self._worked_from(saved, named),
            )
            outcome = act(request=request)
            if outcome.record is None and outcome.message.startswith("Which "):
                # "Which contract?" of "our agreement with them": what "them" is, the request
                # before said (Apex Print).
                pointed = self.request.in_context(request)
                if pointed != request:
                    retried = act(request=pointed)
                    outcome = retried if retried.record is not None else outcome
        except ValueError as exc:
            raise AgentError(str(exc)) from exc
        variables.set_aside.update(outcome.set_aside)
        if outcome.record is None and outcome.known is not None:
            self._hold_known(frame, args.source, outcome.known)
        frame["locals"][args.outcome] = outcome.report()
        call.update(action=args.action, stated=outcome.stated)
        if isinstance(base, dict):
            call["base"] = base
        for key, entries in (("given", given), ("fixed", fixed), ("where", where)):
            if entries:
                call[key] = entries
        if outcome.changed:
            call["changed"] = outcome.changed
        return outcome.record

    def _record_call(self, prompt: str, source: str, call: dict[str, Any], value: Any) -> None:
        """Add the call and its result to the command's prompt, for the model to answer from
        (and for a later run to find what this agent made)."""
        agent = self.setting.agent.name
        history = self.prompts.history(prompt)
        name = f"data.{source}"
        history["messages"].append(
            {"role": "tool_call", "name": name, "arguments": call, "agent": agent}
        )
        result = {"role": "tool_result", "name": name, "content": value, "agent": agent}
        if isinstance(value, dict) and value.get("email") == self.setting.sys["user"]:
            # The user's own record: nothing the model needs to recall to them.
            result["own"] = True
        history["messages"].append(result)

    def _templates(self, args: DataArgs) -> tuple[dict[str, Any], dict[str, Any]]:
        """The command's ``given`` and ``fixed`` templates. A fixed value that is only a form
        answer the user left at its default is given instead: the request may state another."""
        given, fixed = dict(args.given or {}), dict(args.fixed or {})
        for key, template in list(fixed.items()):
            whole = WHOLE.match(template) if isinstance(template, str) else None
            if whole and whole.group(1) in self.variables.defaulted:
                given.setdefault(key, fixed.pop(key))
        return given, fixed

    def _worked_from(
        self, saved: dict[str, tuple[str, dict[str, Any]]], named: dict[str, Any]
    ) -> dict[str, tuple[str, dict[str, Any]]]:
        """The records the values came from: the one the request named, where it named one.
        One the agent writes anew is replaced by a new one of its kind (a new flight for a
        cancelled trip), not made from it; one it only adds to (a rental car on the trip) is
        still the one it works from."""
        replaces = replaces_of(self.setting.agent)
        return {
            k: v
            for k, v in {
                **saved,
                **{k: (VARIABLE_SOURCES[k], r) for k, r in named.items()},
            }.items()
            if (k in named or k not in self.variables.set_aside) and k not in replaces
        }

    def _saved(self, held: Held) -> dict[str, tuple[str, dict[str, Any]]]:
        """The saved records a data command takes values from: ``{variable: (data source,
        record)}``."""
        conv = self.setting.state["conv"]
        variables = {*held.given.values(), *held.where.values()}
        if held.base:
            variables.add(held.base)
        return {
            name: (VARIABLE_SOURCES[name], conv[name])
            for name in variables
            if name in VARIABLE_SOURCES and isinstance(conv.get(name), dict)
        }

    def _request(self, frame: dict[str, Any], template: str | None) -> str:
        """The text a data command reads the request's facts from. A form answer left at its
        default comes after the words typed, so a date the request states wins over the
        form's usual one ("the newsletter next Monday", with the form's default "next
        Tuesday 09:00"); one the user typed stays where the template puts it."""
        text = self.variables.text
        if template is None:
            return text(frame, "{sys.query}")
        defaulted = [
            m.group(0)
            for m in PLACEHOLDER.finditer(template)
            if m.group(1) is not None and m.group(1) in self.variables.defaulted
        ]
        for placeholder in defaulted:
            template = template.replace(placeholder, "")
        said = text(frame, template).strip()
        later = " ".join(text(frame, p) for p in defaulted)
        return f"{said} {later}".strip()

    def _hold_known(self, frame: dict[str, Any], source: str, known: dict[str, Any]) -> None:
        """Save the existing record a create was refused for as what this agent writes of its
        source, so the next request is about it ("Check their certificates" after "Onboard
        Perez Consulting as a new supplier", which already is one)."""
        fields = SOURCE_FIELDS.get(source, ())
        for variable in sorted(writes_of(self.setting.agent)):
            if VARIABLE_SOURCES.get(variable) == source:
                held = {k: known[k] for k in fields if k in known}
                self.variables.assign(frame, f"conv.{variable}", held)

    def _named_instead(
        self, request: str, source: str, held: Held, saved: dict[str, tuple[str, dict[str, Any]]]
    ) -> dict[str, Any]:
        """The records the request names in place of the variables a data command on
        ``source`` takes values from, saved or not ("bill the customer for order ORD-000021"
        in a new conversation is about that order); its own kind of record the world
        resolves itself."""
        taken = {*held.given.values(), *held.where.values()}
        candidates = {
            name: saved.get(name) or (VARIABLE_SOURCES[name], {})
            for name in taken
            if name in VARIABLE_SOURCES and name not in MADE_FROM_SOURCE
        }
        candidates = {name: pair for name, pair in candidates.items() if pair[0] != source}
        if not candidates:
            return {}
        return self.setting.engine.world.named_instead(
            request, self.request.today, candidates, self.setting.sys["user"]
        )


def _held_by(args: DataArgs) -> Held:
    """Which conversation variable each value of a data command comes from; found once per
    command (agent definitions are immutable), since every run of it asks. Keyed by identity,
    with the command kept alive so its id is not reused (as ``program.compiled`` does)."""
    hit = _HELD_CACHE.get(id(args))
    if hit is None:
        held = Held(
            given=_held(args.given or {}),
            where=_held(args.where or {}),
            base=_held({"base": args.base}).get("base"),
        )
        hit = _HELD_CACHE[id(args)] = (args, held)
    return hit[1]


def _held(templates: dict[str, Any]) -> dict[str, str]:
    """The conversation variable each template takes its value from (one variable only)."""
    held: dict[str, str] = {}
    for key, template in templates.items():
        paths = TEMPLATE_PATH_RE.findall(template) if isinstance(template, str) else []
        roots = {p.split(".")[1] for p in paths if p.startswith("conv.")}
        if len(roots) == 1:
            held[key] = roots.pop()
    return held
