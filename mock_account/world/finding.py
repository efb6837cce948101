"""Finding the record an action is about: by what the request names (an id, a name), else by
what the conversation holds (the saved record, the values it passes), else by what the
request describes.

A lookup returns the record the request names, or says plainly that there is none by that
name (with the closest names); it never presents another record as the one asked.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mock_account.business.data import tokens

from .outcome import Held, Outcome
from .reading import same, says_instead, shares_words
from .recipe import CHANGES, WHO_FOR, WHO_IS_IT, Asked, Context, Recipe, Record, clean, starts_name
from .stated import Name, Stated

# How many records of one name a change looks through for one it can still change.
_NAMED_MANY = 50


@dataclass(frozen=True)
class _Lookup:
    """One lookup: the request as read, what the conversation holds, and what the agent
    looks for and how (``Finding.find``'s arguments)."""

    recipe: Recipe
    ctx: Context
    base: Record | None
    where: Mapping[str, Any] | None
    match: str | None
    action: str
    requester: bool
    expects_base: bool
    held: Held
    given: Record | None
    sample: bool


@dataclass
class Finding:
    """Lookups of records over the business data, as requests and conversations ask."""

    data: Any
    recipes: Mapping[str, Recipe]

    def find(
        self,
        recipe: Recipe,
        ctx: Context,
        base: Record | None,
        where: Mapping[str, Any] | None,
        match: str | None,
        action: str,
        *,
        requester: bool = False,
        expects_base: bool = False,
        held: Held | None = None,
        given: Record | None = None,
        sample: bool = False,
    ) -> Outcome:
        """The record ``action`` works on: the one the request names, else the user's own or
        the one the conversation holds, else one the request describes; or why there is none.
        ``sample``: the record found stands for many (a company nobody names is not asked
        for); ``expects_base``: with nothing held or named it asks which one."""
        q = _Lookup(
            recipe, ctx, base, where, match, action, requester, expects_base, held or Held(),
            given, sample,
        )  # fmt: skip
        asked = recipe.asked(ctx)
        by_id = asked is not None and asked.field == recipe.id_field
        # A record the request identifies is the one asked for, even in a change ("update the
        # contact of Lakeside Dental" with Hoffmann Logistics saved).
        if asked is not None and (
            action == "find"
            or not base
            or by_id
            or recipe.unique_name
            or self.identified(recipe, asked) is not None
        ):
            return self._by_name(q, asked)
        return self._by_what_is_held(q)

    def identified(self, recipe: Recipe, asked: Asked) -> Record | None:
        """The one record the request names: by its id, or by a name of the data that only
        one record has (a company is one record per name; so are the people and campaigns
        the data names), or None."""
        if asked.field == recipe.id_field or (
            asked.field == recipe.name_field and recipe.name_kinds
        ):
            named = self.data.lookup(recipe.source, where={asked.field: asked.value})
            if len(named) == 1 or (named and asked.field == recipe.id_field):
                return named[0]
        return None

    # --- by what the request names ----------------------------------------------

    def _by_name(self, q: _Lookup, asked: Asked) -> Outcome:
        recipe, ctx, base, where, action, held = q.recipe, q.ctx, q.base, q.where, q.action, q.held
        by_id = asked.field == recipe.id_field
        if base and (
            same(base.get(asked.field), asked.value)
            # Said short: "the October newsletter campaign" is "October newsletter".
            or (not by_id and starts_name(asked.value, base.get(asked.field)))
            or says_instead(ctx.stated.text, base.get(asked.field), asked.value)
        ):
            other = _of_another_party(recipe, ctx.stated, base) if by_id else None
            if other:
                return Outcome(None, recipe.noun, asked=asked.said, message=other)
            return from_base(recipe, base, action, asked=asked.said)
        # The request names the record: a conversation filter on the same field yields,
        # and an id is the record whatever the agent's other filters say. The agent's own
        # filters (its kind of record) are not looked up by: a named record outside them
        # is found, and ``World.act`` says why it is not worked on.
        kept = {k: v for k, v in clean(where).items() if k in held.where}
        filters = {asked.field: asked.value} if by_id else {**kept, asked.field: asked.value}
        # Of the records by that name, one of the agent's kind ("the Globex agreement" to
        # sign: Globex's draft, not its contract in force).
        own = {k: v for k, v in clean(where).items() if k not in held.where}
        # A change looks at every record by that name, for one that can still be changed.
        many = {"limit": _NAMED_MANY} if action in CHANGES and not by_id else {}
        found = (
            self.data.lookup(recipe.source, where={**filters, **own}, **many) if own else []
        ) or self.data.lookup(recipe.source, where=filters, **many)
        other = _of_another_party(recipe, ctx.stated, found[0]) if by_id and found else None
        if other:
            return Outcome(None, recipe.noun, asked=asked.said, message=other)
        if found and action in CHANGES and not by_id:
            # Of the records by that name, one that can still be changed: "their overdue
            # invoice" is not one they paid (a reminder went out for a paid invoice).
            workable = [r for r in found if recipe.unworkable(r, ctx, action) is None]
            if not workable:
                why = recipe.unworkable(found[0], ctx, action) or ""
                if len(found) > 1:
                    why += f" So is every other {recipe.noun} {asked.said}."
                return Outcome(None, recipe.noun, asked=asked.said, message=why)
            found = workable
        if found:
            unused = _unused(held, where, asked, kept=not by_id)
            return Outcome(found[0], recipe.noun, asked=asked.said, set_aside=unused)
        return self._missing(recipe, asked, base, ctx)

    def _missing(self, recipe: Recipe, asked: Asked, base: Record | None, ctx: Context) -> Outcome:
        names = {recipe.describe(r): str(r.get(asked.field, "")) for r in self._records(recipe)}
        if base and base.get(asked.field):
            names[recipe.describe(base)] = str(base[asked.field])
        by_value: dict[str, list[str]] = {}
        for shown, value in names.items():
            by_value.setdefault(value.casefold(), []).append(shown)
        close = difflib.get_close_matches(asked.value.casefold(), list(by_value), n=3, cutoff=0.6)
        closest: list[str] = []
        for value in close:
            closest.extend(by_value[value][:1])
        # Every reference the user typed is said back: "no invoice for Brightwater Pte Ltd
        # (INV-2026-1184)" tells them which one was looked for, and that it is not here.
        typed = [
            t.value
            for t in ctx.stated.things
            if t.kind == "code" and t.value.casefold() not in asked.said.casefold()
        ]
        shown = f" ({', '.join(typed)})" if typed else ""
        message = f"I found no {recipe.noun} {asked.said}{shown}."
        if closest:
            message += f" The closest I have: {', '.join(closest)}."
        message += recipe.unrecorded(ctx)
        return Outcome(None, recipe.noun, asked=asked.said, closest=closest, message=message)

    def _records(self, recipe: Recipe) -> list[Record]:
        return self.data.records(recipe.source)

    # --- by what the conversation holds -----------------------------------------

    def _by_what_is_held(self, q: _Lookup) -> Outcome:
        recipe, ctx, base, where, sample = q.recipe, q.ctx, q.base, q.where, q.sample
        mine = self._the_users_own(q)
        if mine is not None:
            return mine
        filters, refused = recipe.sampled(ctx) if sample else ({}, None)
        if refused:
            return Outcome(None, recipe.noun, message=refused)
        # A lookup for one of many asks for its own kind ("a courier", with a caterer saved).
        if base and all(same(base.get(k), v) for k, v in filters.items()):
            return from_base(recipe, base, q.action)
        if sample and not base and not filters and not clean(where):
            question = recipe.unsampled(ctx)
            if question:
                return Outcome(None, recipe.noun, message=question)
        if any(k in q.held.where for k in clean(where)):
            return self._by_held_filters(recipe, where, q.match, q.held)
        return self._by_description(q, filters)

    def _the_users_own(self, q: _Lookup) -> Outcome | None:
        """The user's record, or why it is not theirs to ask for; None when the request is
        not about the user's own."""
        recipe, ctx, base, where, requester = q.recipe, q.ctx, q.base, q.where, q.requester
        # "I", "my": the user's own record, whatever the conversation holds; a colleague the
        # request names, theirs. Otherwise what the conversation holds comes first.
        speaks = ctx.stated.speaks_of_self or bool(ctx.stated.names_of("employee"))
        if requester and not base and ctx.stated.speaks_of_someone:
            # "Someone in my team resigned": not the user's own resignation ("my" is the team).
            return Outcome(None, recipe.noun, message=WHO_IS_IT)
        if requester and not base and not speaks and ctx.stated.speaks_of_another:
            # "Give him access to Salesforce": not the user's own access, and nobody here
            # says who he is.
            return Outcome(
                None,
                recipe.noun,
                message=WHO_FOR,
            )
        own_asked = q.action == "find" and recipe.of_the_user(ctx)
        if (requester and (speaks or not (base or clean(where)))) or own_asked:
            own = recipe.requester(ctx)
            if own is not None:
                return Outcome(own, recipe.noun)
        return None

    def _by_held_filters(
        self, recipe: Recipe, where: Mapping[str, Any] | None, match: str | None, held: Held
    ) -> Outcome:
        """The record the values the conversation passes point at, or that there is none."""
        found = self.data.lookup(recipe.source, where=clean(where), match=match)
        if found:
            return Outcome(found[0], recipe.noun)
        said = " and ".join(self._named(v) for k, v in clean(where).items() if k in held.where)
        kind = " or ".join(
            " or ".join(map(str, v)) if isinstance(v, list) else str(v)
            for k, v in clean(where).items()
            if k not in held.where
        )
        noun = f"{kind} {recipe.noun}" if kind else recipe.noun
        return Outcome(None, recipe.noun, asked=said, message=f"I found no {noun} for {said}.")

    def _named(self, value: Any) -> str:
        """A value the conversation passed, as an answer says it: a record's id with its name
        ("Brightwater Foods (CUS-00002)"), anything else as it is."""
        text = " or ".join(map(str, value)) if isinstance(value, list) else str(value)
        for recipe in self.recipes.values():
            if not (recipe.id_prefix and recipe.id_field and recipe.name_field):
                continue
            if not text.startswith(f"{recipe.id_prefix}-"):
                continue
            found = self.data.lookup(recipe.source, where={recipe.id_field: text})
            if found and found[0].get(recipe.name_field):
                return f"{found[0][recipe.name_field]} ({text})"
        return text

    # --- by what the request describes -----------------------------------------

    def _by_description(self, q: _Lookup, filters: Record) -> Outcome:
        recipe, ctx, where, action, given = q.recipe, q.ctx, q.where, q.action, q.given
        match, expects_base, sample = q.match, q.expects_base, q.sample
        preferred = recipe.preferred(given or {}, ctx) if action == "find" else {}
        preferred = {**filters, **preferred}
        # A company or product nobody names, and nothing here points to, is asked for: "offer
        # them a goodwill voucher" with no customer held would otherwise go to one at random.
        unnamed = (
            action == "find"
            and (recipe.unique_name or recipe.named_only)
            and not (preferred or clean(where) or sample or given)
        )
        other = None if preferred else _of_another_kind(recipe, ctx.stated)
        # The agent's own kind of record (a draft to sign) narrows what the request's words
        # match; one of another kind that matches better is refused with its reason.
        preferred = {**clean(where), **preferred}
        if other is not None:
            return _not_of_this_kind(recipe, other)
        text = match or ctx.stated.text
        found = self.data.lookup(recipe.source, where=preferred, match=text) if preferred else []
        if not found:
            found = self.data.lookup(recipe.source, match=text)
        if (expects_base and not sample) or action in CHANGES or unnamed:
            # "Change my order", "my trip's schedule": a record of the user's that nothing
            # here identifies. One that shares the request's words ("the data analyst") may
            # be meant; any other would be invented.
            if not _described(recipe, found, ctx.stated.text, unnamed=bool(unnamed)):
                return Outcome(None, recipe.noun, message=which(recipe, ctx))
        return Outcome(found[0] if found else None, recipe.noun)


def from_base(recipe: Recipe, base: Record, action: str, asked: str = "") -> Outcome:
    """The record the conversation holds, unless it lacks what this kind of record is
    worked on for (a trip saved from a hotel stay has no flight to track or rebook)."""
    lacking = recipe.lacking(base, action)
    if lacking:
        return Outcome(None, recipe.noun, asked=asked, message=lacking)
    return Outcome(dict(base), recipe.noun, asked=asked)


def which(recipe: Recipe, ctx: Context) -> str:
    return f"Which {recipe.noun}? {recipe.none_held()}{recipe.unrecorded(ctx)}"


def _not_of_this_kind(recipe: Recipe, other: Name) -> Outcome:
    # "Update the contact details for Hoffmann Logistics" to the supplier agent: a
    # supplier sharing a word of the name ("Logistics") is not the one meant.
    kind = "supplier" if other.kind == "vendor" else other.kind
    return Outcome(
        None,
        recipe.noun,
        asked=other.shown,
        message=f"{other.shown} is a {kind} of ours, not a {recipe.noun}; there is no "
        f"{recipe.noun} by that name to work on.",
    )


def _described(recipe: Recipe, found: list[Record], text: str, *, unnamed: bool) -> bool:
    """Whether the record a lookup by the request's words found first is one it describes."""
    described = shares_words(found[0], text) if found else False
    if found and not described and unnamed and recipe.name_field:
        # "Our scanner": the X200 Scanner, a word of its name is enough.
        described = bool(tokens(str(found[0].get(recipe.name_field, ""))) & tokens(text))
    return described


def _of_another_party(recipe: Recipe, stated: Stated, record: Record) -> str | None:
    """Why the record a request names by its number is not the one it means: the request
    also names the party it is with (a customer, a supplier), and the record is another's
    ("Lakeside Dental was double charged on INV-000003": Nordic Steel's invoice)."""
    field = recipe.name_field
    if recipe.unknown_names != "organisations" or field in (None, "name"):
        return None
    named = stated.names_of(*recipe.name_kinds)
    owner = str(record.get(field) or "")
    if not named or not owner or any(same(n.shown, owner) for n in named):
        return None
    number = record.get(recipe.id_field or "", "")
    other = _possessive(named[0].shown)
    return (
        f"{recipe.noun.capitalize()} {number} is {_possessive(owner)}, not {other}; tell me "
        f"the number of {other} {recipe.noun} and I'll go ahead."
    )


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _of_another_kind(recipe: Recipe, stated: Stated) -> Name | None:
    """The organisation the request names when it is only known as another kind than the
    recipe's (a customer, to an agent for suppliers), or None."""
    if recipe.unknown_names != "organisations" or not recipe.name_kinds:
        return None
    named = [n for n in stated.organisations if n.kind]
    if not named or any(n.kind in recipe.name_kinds for n in named):
        return None
    return next((n for n in named if n.kind in ("customer", "vendor")), None)


def _unused(held: Held, where: Mapping[str, Any] | None, asked: Asked, *, kept: bool) -> list[str]:
    """The conversation variables a lookup of the record the request named did not use: the
    saved record it stood for (``base``), and the variables whose every filter the named value
    replaced (all of them when ``kept`` is false: an id is the record whatever they say)."""
    unused = {held.base} if held.base else set()
    # An empty saved value ("no customer") is replaced by whatever the request names.
    filters = {k: v for k, v in (where or {}).items() if v is not None}
    for variable in set(held.where.values()):
        fields = [k for k, v in held.where.items() if v == variable and k in filters]
        replaced = [
            k
            for k in fields
            if not kept
            or filters[k] == ""
            or (k == asked.field and not same(filters[k], asked.value))
        ]
        if fields and len(replaced) == len(fields):
            unused.add(variable)
    return sorted(unused)
