"""The forms of ``ask`` commands: what a form opens at (what the request already said), the
answers a question about a record this agent made takes from before instead of asking, and
whether the answers given fit the form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agents_catalog.agent_format import AskArgs, AskInput
from mock_account.engine.history import AgentHistory
from mock_account.engine.request import RequestReading
from mock_account.engine.templates import PLACEHOLDER
from mock_account.engine.variables import Variables
from mock_account.world import labelled_value, named_options, option_by_word
from mock_account.world.details import Details

#: The default of a free-text form field that is the request itself, as a note.
_REQUEST_NOTE = "{sys.stated.note}"

# Which detail a form field takes, by the words of its name and label.
_FIELD_DETAILS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("version", ("version", "tag", "release")),
    ("environment", ("environment",)),
    ("product", ("product", "model", "sku", "item", "device")),
    ("quantity", ("quantity", "how many", "seats", "units")),
    ("amount", ("amount", "budget", "cost", "price", "value")),
    ("code", ("flag", "service", "repository", "job", "code")),
    ("company", ("company", "customer", "supplier", "vendor", "organisation")),
    ("person", ("person", "contact", "candidate", "employee", "attendee")),
    ("email", ("email", "e-mail")),
    ("phone", ("phone", "number")),
    ("duration", ("duration", "how long", "term", "length")),
    ("percentage", ("percentage", "rollout", "share", "discount")),
    ("time", ("time",)),
    ("title", ("title", "subject", "headline", "name")),
)


@dataclass(frozen=True)
class Forms:
    """Fills a run's forms from its request and from what this agent was answered before."""

    variables: Variables
    request: RequestReading
    history: AgentHistory

    def answered_before(self, frame: dict[str, Any], args: AskArgs) -> dict[str, Any] | None:
        """The answers to ``args`` when the request needs no form, else None.

        A question about what this agent already made here ("What's the status?" after
        declaring the incident), or a change of it ("Make it a sev1"), asks nothing again: its
        data command answers it. The form's answers are those given for it then, but for a
        fact the request states anew (the request itself, the form's free-text default,
        describes no field of it: "What is broken: Make it a sev1")."""
        if not self.history.asks_about_made():
            return None
        earlier = self.history.earlier_answers()
        return {
            **earlier,
            **{
                spec.name: shown["default"]
                for spec in args.inputs
                if "default" in (shown := self.shown(frame, spec))
                # The form's own default is no answer to an earlier question: only what this
                # request states replaces what was answered then.
                and not (
                    spec.name in earlier
                    and (spec.default == _REQUEST_NOTE or shown["default"] == spec.default)
                )
            },
        }

    def shown(self, frame: dict[str, Any], spec: AskInput) -> dict[str, Any]:
        """An ask input as sent, its default filled from the request: the form shows what the
        user already said. A template ("{sys.stated.quantities.0.count}") is filled in; a
        choice takes the options the request names ("... to production") over its fixed
        default; a date (an input named ``*_date``) the date the request states."""
        text, query = self.variables.text, self.request.query
        shown = spec.model_dump(exclude_none=True)
        default = shown.get("default")
        kept = self.request.details()
        if spec.type == "str" and not spec.name.endswith("_date"):
            # A value typed under the field's own label ("Username r.koh") is the answer to it.
            labelled = labelled_value(query, spec.label or "", spec.name)
            if labelled:
                return shown | {"default": labelled}
        if spec.type == "str" and spec.name.endswith("_date") and isinstance(default, str):
            # A date asked for opens at the one the request states ("next Monday at 9am"), not
            # at the form's usual one ("next Tuesday 09:00", which the record did not take); a
            # follow-up that states none, at the day the conversation holds, as it moved it
            # ("push it back by a day").
            said = text(frame, "{sys.stated.when_said}").strip()
            if said:
                return shown | {"default": said}
            held = _held_day(kept)
            if held:
                return shown | {"default": held}
        if isinstance(default, str) and "{" in default:
            # A default of several values ("{…count} x {…item}") is shown only whole: "x"
            # alone, when the request stated no quantity, is no answer.
            paths = [m.group(0) for m in PLACEHOLDER.finditer(default) if m.group(1)]
            whole = all(text(frame, path).strip() for path in paths)
            value = text(frame, default).strip() if whole else ""
            if value and (not spec.options or value in spec.options):
                return shown | {"default": value}
            shown.pop("default")
        if spec.options and spec.type in ("chooseOne", "chooseMany"):
            named = named_options(query, spec.options)
            if not named and kept.carried:
                # What the request before said stands ("ship the same version": to production).
                carried = " ".join(kept.values[k] for k in kept.carried)
                named = named_options(carried, spec.options)
            if spec.type == "chooseMany" and named:
                shown["default"] = list(named)
            elif len(named) == 1:
                shown["default"] = named[0]
            elif not named:
                # "Locked out of Windows": the sign-in named by the one word only it has; "in
                # prod": the production environment.
                by_word = option_by_word(query, spec.options)
                if by_word:
                    shown["default"] = [by_word] if spec.type == "chooseMany" else by_word
        elif "default" not in shown and spec.type in ("str", "text"):
            # A field the request (or the one it follows on from) states a fact for opens at
            # it: "Version or git tag" at "4.18.2".
            stated = _detail_for(spec.name, spec.label or "", kept)
            if stated:
                shown["default"] = stated
        return shown


def check_answers(ask: dict[str, Any], inputs: dict[str, Any]) -> str | None:
    """A readable problem with the answers to an ask, or None when they are usable."""
    for spec in ask["inputs"]:
        value = inputs.get(spec["name"], spec.get("default"))
        label = spec.get("label", spec["name"])
        options = spec.get("options") or []
        if value is None or value == "" or value == []:
            return f"Please answer '{label}'."
        if spec.get("type") == "chooseOne" and options and value not in options:
            return f"'{label}' must be one of: {', '.join(options)}."
        if spec.get("type") == "chooseMany" and options:
            if not isinstance(value, list) or any(v not in options for v in value):
                return f"'{label}' must be a list of: {', '.join(options)}."
    return None


def _detail_for(name: str, label: str, details: Details) -> str | None:
    said = f"{name.replace('_', ' ')} {label}".casefold()
    for key, words in _FIELD_DETAILS:
        if key in details.values and any(re.search(rf"\b{w}\b", said) for w in words):
            return details.values[key]
    return None


def _held_day(details: Details) -> str | None:
    """The day (and time) a follow-up carries from the request before, as a form date."""
    keys = ("date", "dates", "due")
    if not any(k in details.carried or k in details.changed for k in keys):
        return None
    day = next((details.values[k] for k in keys if k in details.values), "")
    day = day.split(" to ", 1)[0]
    time = details.values.get("time", "")
    return f"{day} {time}".strip() or None
