"""Making a record: from what the request states, what the conversation holds (``given``)
filling what the request left open, Faker only what is left after that, and ``fixed`` values
(form answers, constants) winning over everything.

Nothing is made from a record made up (a request pointing back to one the conversation does
not hold), twice (what this agent made here already), or when the request only asks a
question.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agents_catalog.capabilities import SOURCE_FIELDS, VARIABLE_SOURCES

from .finding import which
from .outcome import Held, Outcome
from .phrasing import PHRASES
from .reading import (
    ASKING_FOR,
    QUESTION,
    THERE,
    asks_about,
    asks_how_it_stands,
    same,
    says_instead,
)
from .recipe import Context, Recipe, Record
from .roles import people_in_roles


@dataclass
class Making:
    """New records of the business data, as requests state them."""

    data: Any
    recipes: Mapping[str, Recipe]

    def create(
        self,
        recipe: Recipe,
        ctx: Context,
        given: Record,
        fixed: Record,
        held: Mapping[str, str],
        made: Record | None = None,
    ) -> Outcome:
        # What this agent made here already counts as held: "order him a laptop" after a
        # laptop for the new hire is about them (and answered as made already).
        refused = recipe.not_for(ctx, given if made is None else {**made, **given})
        if refused:
            return Outcome(None, recipe.noun, message=refused)
        # Someone named by their role ("his manager, Clara Wong") is that role's, unless the
        # recipe reads the request otherwise.
        stated = {
            **people_in_roles(ctx.stated, SOURCE_FIELDS.get(recipe.source, ())),
            **recipe.stated(ctx),
        }
        if made is not None and recipe.changes_made(made, ctx):
            changed = changed_made(recipe, ctx, made, given, stated, fixed)
            if changed is not None:
                return changed
        offered, given = given, recipe.applicable(given, stated, held)
        if "currency" in given and not ctx.stated.currency_said:
            # A plain amount ("the total was 486") is in the currency of the record the
            # conversation gives (the trip claimed for), not the one filled in for it.
            stated.pop("currency", None)
        for name in recipe.worded_fields & given.keys():
            stated.pop(name, None)
        for name in [k for k in stated if k in given]:
            if says_instead(ctx.stated.text, given[name], str(stated[name])):
                stated.pop(name)  # "a laptop for Sofia": the new hire held, not Sofia Marin
        record: Record = {**given, **stated, **fixed}
        if made is not None and (
            made_from_the_same(made, {**given, **stated}, fixed)
            or asks_about(made, ctx.stated.text, stated, recipe.worded_fields)
            or not recipe.asks_for_another(ctx)
        ):
            return Outcome(None, recipe.noun, message=recipe.made_already(made))
        from_conversation = any(k in held for k in offered)
        not_made = self._not_made(recipe, ctx, record, given, from_conversation, made)
        if not_made is not None:
            return not_made
        recipe.fill(record, ctx)
        set_aside = sorted({held[k] for k in offered.keys() - given.keys() if k in held})
        return Outcome(record, recipe.noun, set_aside=set_aside)

    def _not_made(
        self,
        recipe: Recipe,
        ctx: Context,
        record: Record,
        given: Record,
        from_conversation: bool,
        made: Record | None,
    ) -> Outcome | None:
        """Why nothing is made of the request: it asks what the conversation answers, or how
        one that exists stands, names none where a name is needed, or names one that exists
        already; None when the record is made."""
        asking = QUESTION.match(ctx.stated.text) and not ASKING_FOR.match(ctx.stated.text)
        held_answer = recipe.held_answer(given) if made is None and from_conversation else None
        if asking and held_answer:
            # "Which hotel am I in?" after a flight that holds a room: that room, not a booking.
            return Outcome(None, recipe.noun, message=held_answer)
        if made is None and not from_conversation and asks_how_it_stands(ctx.stated.text):
            # "What's the status of my VPN ticket?" is about one that exists: none is opened.
            return Outcome(None, recipe.noun, message=which(recipe, ctx))
        ask_name = recipe.name_question()
        unnamed = ask_name and not record.get(recipe.name_field or "")
        if unnamed and (recipe.named_only or (not given and QUESTION.match(ctx.stated.text))):
            # "How do I get a new vendor set up?" names no supplier, nor does the
            # conversation: none is made up; nor is the product of a quote nobody named.
            return Outcome(
                None,
                recipe.noun,
                message=f"Which {recipe.noun} is it? Tell me {ask_name} and I will go ahead; I "
                "won't pick one for you.",
            )
        if recipe.unique_name and recipe.name_field and record.get(recipe.name_field):
            # A company is registered once: "set up Castellano Textiles" when it already is.
            name = str(record[recipe.name_field])
            existing = self.data.lookup(recipe.source, where={recipe.name_field: name})
            if existing:
                known = existing[0]
                said = f"{known[recipe.name_field]} ({known[recipe.id_field]})"
                return Outcome(
                    None,
                    recipe.noun,
                    asked=name,
                    message=f"{said} is already a {recipe.noun} of ours; nothing new was opened.",
                    known=dict(known),
                )
        return None

    def pointed_back(
        self,
        ctx: Context,
        held: Held,
        given: Record,
        saved: Mapping[str, tuple[str, Record]] | None,
    ) -> str | None:
        """Which record it is, when the request points back to one the conversation would
        hold ("book a rental car for that trip", "invoice them for that order") and it holds
        none, nor does the request name one: nothing is made from a record made up."""
        variables = set(held.given.values())
        # Held: saved or named, or giving values (a variable the agent writes back too).
        held_now = {*(saved or {}), *(held.given[k] for k in given if k in held.given)}
        # "That trip" points back; so does "the customer" where the conversation holds
        # nothing the agent reads. "This supplier invoice" is the one being handed over.
        pointers = "that|the same" if variables & held_now else "that|the same|the"
        for variable in sorted(variables - held_now):
            recipe = self.recipes.get(VARIABLE_SOURCES.get(variable, ""))
            if recipe is None or recipe.asked(ctx) is not None:
                continue
            nouns = "|".join(re.escape(n) for n in sorted({variable, recipe.noun}, key=len)[::-1])
            if re.search(rf"\b(?:{pointers})\s+(?:{nouns})\b(?!['’]s)", ctx.stated.text, re.I):
                return which(recipe, ctx)
            if variable == "trip" and THERE.search(ctx.stated.text):
                return which(recipe, ctx)  # "book me a train there": where is there?
        return None


def makeable(recipe: Recipe, ctx: Context, outcome: Outcome) -> bool:
    """Whether a lookup that found nothing is of a record the request names or describes
    (a name the data lacks, or what a new one would be made of), not a refusal for what
    the conversation holds (a cancelled order) nor a request for no record at all."""
    if outcome.set_aside or outcome.known is not None:
        return False
    named = recipe.asked(ctx)
    stated = ctx.stated
    known = [n for n in (*stated.organisations, *stated.people) if n.kind]
    if recipe.name_kinds and known and not any(n.kind in recipe.name_kinds for n in known):
        # A name the data knows as another kind ("Tiffany Martin", a colleague, to the
        # agent of candidates) is no new one of this kind.
        return False
    if named is not None:
        # A name is made as typed; an id alone says nothing a record could be made of
        # ("VEN-9876" names no supplier), so it is reported missing.
        return named.field != recipe.id_field
    return bool(recipe.stated(ctx)) and outcome.message.startswith("Which ")


def made_from_the_same(made: Record, asked: Record, fixed: Record) -> bool:
    """Whether a new record from ``asked`` (what the request and the conversation give) and
    ``fixed`` would be ``made`` again: every value it shares with it the same, and at least
    one of them asked for, not only the agent's fixed values."""
    new = {**asked, **fixed}
    shared = [key for key in new if key in made]
    return any(key in asked for key in shared) and all(same(new[k], made[k]) for k in shared)


def changed_made(
    recipe: Recipe, ctx: Context, made: Record, given: Record, stated: Record, fixed: Record
) -> Outcome | None:
    """What this agent made here, changed as the request says (``Recipe.changes_made``):
    "move it to Friday" is the same trip as long as it was, from Friday; or None when the
    request is about another record (another city) or changes nothing. Merging the new first
    day with the old last one made a trip that came back the day it left."""
    if any(stated.get(f) and not same(made.get(f), stated[f]) for f in recipe.about_fields):
        return None
    # How the earlier request's answer phrased it ("when", "for", "3 monitors") is said anew.
    said = PHRASES | recipe.phrased(made, ctx.today, ctx.stated).keys()
    base = {k: v for k, v in {**given, **made}.items() if k not in said}
    changes = recipe.change(base, ctx)
    if not changes:
        return None
    # The form's earlier answers it runs with again made the record already, and may stand
    # for less than the record became ("travel", the form's default, of a dinner claimed as
    # meals); what this request changes wins over both.
    record = {**fixed, **base, **changes}
    recipe.fill(record, ctx)
    return Outcome(
        record, recipe.noun, changed=sorted(k for k in record if made.get(k) != record[k])
    )
