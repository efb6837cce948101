"""Changing a record: the one the conversation holds (``base``), unless the request identifies
another (by its id, or a name only one record has); only what the request states changes.

A record the data lacks that the request names (one of the user's own) is made as typed first,
when the agent acts on what it finds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .finding import Finding
from .making import Making, makeable
from .outcome import Held, Outcome
from .reading import same
from .recipe import Context, Recipe, Record
from .refusals import agents_kind, change_of, outside


@dataclass
class Changing:
    """Changes to records of the business data, as requests state them."""

    data: Any
    finding: Finding
    making: Making

    def update(
        self,
        recipe: Recipe,
        ctx: Context,
        base: Record | None,
        given: Record,
        fixed: Record,
        where: Mapping[str, Any] | None,
        match: str | None,
        requester: bool = False,
        held: Held | None = None,
        *,
        makes: bool = False,
    ) -> Outcome:
        # Cancelling is a change of its own: a trip that is only a stay can be cancelled,
        # though it has no flight to move.
        change = change_of("update", fixed)
        outcome = self.finding.find(
            recipe, ctx, base, where, match, change, requester=requester, held=held
        )
        made = (
            outcome.record is None
            and makes
            and makeable(recipe, ctx, outcome)
            and not self._known_by_name(recipe, ctx, base)
        )
        if made:
            outcome = self._made_to_change(recipe, ctx, given, where, held, outcome)
        # The kind of record the agent works on is what it was, not what the change makes it
        # (an order cancelled was an open one).
        outcome = outside(recipe, agents_kind(where, held), outcome)
        if outcome.record is None:
            return outcome
        return self._changed(
            recipe, ctx, outcome, outcome.record, given, fixed, change, made_now=made
        )

    def _made_to_change(
        self,
        recipe: Recipe,
        ctx: Context,
        given: Record,
        where: Mapping[str, Any] | None,
        held: Held | None,
        outcome: Outcome,
    ) -> Outcome:
        # One of the user's own the data lacks ("Prepare her offer" for a finalist of
        # theirs): made as typed, of the kind the agent works on (a contract to terminate
        # is a signed one), then changed as asked.
        kind = {
            k: v[0] if isinstance(v, list | tuple) else v
            for k, v in (where or {}).items()
            if v not in (None, "", [], ())
        }
        made = self.making.create(recipe, ctx, given, kind, (held or Held()).given, None)
        asked = recipe.asked(ctx)
        if made.record is not None and asked is not None:
            made.record[asked.field] = asked.value
        if made.record is not None:
            outcome = Outcome(made.record, recipe.noun, asked=asked.said if asked else None)
        return outcome

    @staticmethod
    def _changed(
        recipe: Recipe,
        ctx: Context,
        outcome: Outcome,
        before: Record,
        given: Record,
        fixed: Record,
        change: str,
        *,
        made_now: bool = False,
    ) -> Outcome:
        """The record found, changed as the request says; or why it is not. One made just now
        from the request already is as it says ("bump the Cloud Ready budget to 12k": a
        campaign the data lacked, at 12000): it is not said to be unchanged."""
        partial = recipe.partial(before, ctx) if change == "cancel" else None
        if partial:
            # "Cancel the hotel" cancelling the flight too would undo what the user kept.
            return Outcome(
                None, recipe.noun, asked=outcome.asked, message=partial, set_aside=outcome.set_aside
            )
        record = {**given, **before}
        changes = recipe.change(record, ctx)
        unchanged = None if changes or given or fixed or made_now else recipe.unchanged(before)
        if unchanged:
            # Saying "I changed it" of a record left as it was would contradict it.
            return Outcome(
                None,
                recipe.noun,
                asked=outcome.asked,
                message=unchanged,
                set_aside=outcome.set_aside,
            )
        record.update(changes)
        record.update(fixed)
        recipe.fill(record, ctx)
        outcome.record = record
        outcome.changed = sorted(k for k in record if before.get(k) != record[k])
        return outcome

    def _known_by_name(self, recipe: Recipe, ctx: Context, base: Record | None) -> bool:
        """Whether the conversation or the data has a record by the name the request gives
        (one that could not be worked on, such as a declined applicant, is not made anew)."""
        asked = recipe.asked(ctx)
        if asked is None or asked.field == recipe.id_field:
            return False
        if base and same(base.get(asked.field), asked.value):
            return True
        return bool(self.data.lookup(recipe.source, where={asked.field: asked.value}))
