"""Why a record is not worked on: it is not of the kind the agent works on, the saved record
it would come from is over or of the wrong kind, or says it has none of what is asked.

``foreseen_refusal`` tells the same ahead of a run, so that suggested follow-ups never lead to
a refusal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import date
from typing import Any

from .outcome import Held, Outcome
from .places import gazetteer
from .recipe import Context, Recipe, Record, clean, fits
from .recipes import RECIPES
from .stated import Stated


def change_of(action: str, fixed: Mapping[str, Any] | None) -> str:
    """The action as ``Recipe.lacking`` tells it: an update whose fixed values cancel the
    record (``status: cancelled``) is a "cancel"."""
    cancelled = str((fixed or {}).get("status", "")).casefold() == "cancelled"
    return "cancel" if action == "update" and cancelled else action


def foreseen_refusal(
    source: str,
    action: str,
    kind: Mapping[str, Any],
    saved: tuple[str, Record],
    *,
    base: bool,
    replaced: bool,
    required: Mapping[str, Any] | None = None,
    others: bool = False,
    user: str = "",
    recipes: Mapping[str, Recipe] = RECIPES,
) -> str | None:
    """What a data command (its ``source``, ``action`` and own filters ``kind``) would answer
    instead of working from a saved record (``(data source, record)``), or None when it
    would work from it: the rules ``World.act`` applies, for a request about that record.
    ``base``: the command works on that very record; ``replaced``: the agent writes the
    variable back (a new flight for a cancelled trip is a new trip); ``required``: the kind
    of record the command takes values from (its ``requires`` for that variable);
    ``others``: the command works only on other people's records, and ``user`` (an email)
    is who asks, when known. Suggested follow-ups ask it first, so that none leads to a
    refusal."""
    saved_source, record = saved
    recipe, other = recipes.get(source), recipes.get(saved_source)
    if base and recipe is not None:
        why = recipe.lacking(record, action)
        if why is None and not fits(record, kind):
            why = recipe.outside(record, kind)
        if why is None and others and user:
            ctx = Context(Stated(), date.today(), random.Random(0), None, gazetteer(), user)
            why = recipe.own(record, ctx)
        return why
    if replaced or other is None:
        return None
    if required and not fits(record, required):
        # Nothing would be taken from it: a follow-up about it would not be answered.
        return other.outside(record, required)
    return other.closed(record, source)


def unfit(
    requires: Mapping[str, Mapping[str, Any]], saved: Mapping[str, tuple[str, Record]]
) -> set[str]:
    """The saved variables whose record is not of the kind the command requires of it."""
    return {
        variable
        for variable, kind in requires.items()
        if variable in saved and not fits(saved[variable][1], kind)
    }


def agents_kind(where: Mapping[str, Any] | None, held: Held) -> Record:
    """The agent's own filters: the kind of record it works on (an invoice we issued, a
    software supplier), not values the conversation passed."""
    return {k: v for k, v in clean(where).items() if k not in held.where}


def outside(recipe: Recipe, kind: Record, outcome: Outcome) -> Outcome:
    """The outcome, or none when its record is not of the agent's kind (a demand letter for
    a bill a supplier sent us), with the recipe's reason."""
    record = outcome.record
    if record is None or fits(record, kind):
        return outcome
    return Outcome(
        None,
        outcome.kind,
        asked=outcome.asked,
        message=recipe.outside(record, kind),
        set_aside=outcome.set_aside,
    )


def unset(held: Held, where: Mapping[str, Any] | None) -> str | None:
    """The conversation variable a filter comes from whose saved value is empty ("no
    customer"), if any."""
    for key, value in (where or {}).items():
        if value == "" and key in held.where:
            return held.where[key]
    return None


def closed(
    recipes: Mapping[str, Recipe],
    source: str,
    held: Held,
    saved: Mapping[str, tuple[str, Record]],
    outcome: Outcome,
) -> Outcome:
    """The outcome, or none when it took values from a saved record that nothing new can
    be made from (an invoice for a cancelled order, a rental car for a cancelled trip)."""
    used = {*held.given.values(), *held.where.values()} - set(outcome.set_aside)
    for variable in sorted(used):
        other_source, record = saved.get(variable, ("", {}))
        other = recipes.get(other_source)
        if other is None:
            continue
        why = other.closed(record, source)
        if why:
            return Outcome(None, outcome.kind, message=why, set_aside=outcome.set_aside)
    return outcome
