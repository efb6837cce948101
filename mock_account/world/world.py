"""The mock world: find, create and update business records as a request says.

Rules (docs/mock-world.md):

- a record is built from what the request states; what the conversation holds
  (``given``) fills what the request left open, and Faker only what is left after that;
  ``fixed`` values (form answers, constants) win over everything;
- a lookup returns the record the request names, or says plainly that there is none by
  that name (with the closest names); it never presents another record as the one asked;
- an update starts from the record the conversation holds (``base``), unless the request
  identifies another (by its id, or a name only one record has), and changes only what the
  request states;
- a request about another record than the conversation holds (another destination, another
  customer, another order by its id) takes nothing of the saved one, and the outcome names
  the variables it set aside, so the run does not count them as a hand-off;
- a saved record that is over (a cancelled order) is not worked on, and nothing new is made
  from it (``Recipe.lacking``, ``Recipe.closed``); a value the saved record says it has none
  of (an internal ticket's customer) is not looked up by anything else;
- a constant among an agent's ``where`` filters is the kind of record it works on (an
  invoice we issued): a record of another kind, saved or named, is not worked on, and the
  outcome says why (``Recipe.outside``).

Everything is deterministic: the same request, conversation values and day give the same
record, because the random choices are seeded from them.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Literal

from agents_catalog.capabilities import SOURCE_FIELDS, VARIABLE_SOURCES
from mock_account.business.data import tokens
from mock_account.understanding import warm_up as warm_up_understanding

from .places import Gazetteer, gazetteer
from .recipe import (
    CHANGES,
    WHO_FOR,
    WHO_IS_IT,
    Asked,
    Context,
    Recipe,
    Record,
    clean,
    coerce,
    fits,
    starts_name,
    text_date,
    unreadable,
)
from .recipes import RECIPES
from .roles import people_in_roles
from .stated import Name, Stated

Action = Literal["find", "create", "update"]
Understand = Callable[[str, date], Stated]


@dataclass(frozen=True)
class Held:
    """Which conversation variable each value an agent passes came from (``{conv.trip.x}``
    gives ``"trip"``): its ``given`` and ``where`` values by field, and its ``base``. Values
    not in it are the agent's own."""

    given: Mapping[str, str] = field(default_factory=dict)
    where: Mapping[str, str] = field(default_factory=dict)
    base: str | None = None


@dataclass
class Outcome:
    """What an action gave: the record, or why there is none."""

    record: Record | None
    kind: str
    asked: str = ""
    closest: list[str] = field(default_factory=list)
    message: str = ""
    stated: dict[str, Any] = field(default_factory=dict)
    changed: list[str] = field(default_factory=list)
    # The conversation variables whose values the record did not take: the request is about
    # another record than the one they hold (``Recipe.applicable``, ``World._find``).
    set_aside: list[str] = field(default_factory=list)
    # The record of the data the request named when nothing was made of it because it exists
    # already ("set up Perez Consulting as a supplier"): the conversation is about it from then.
    known: Record | None = None
    # What a question about the record answers, when the request asks and changes nothing
    # ("Is INV-000318 still unpaid?" to the agent that sends reminders).
    answer: str | None = None

    @property
    def found(self) -> bool:
        return self.record is not None

    def report(self) -> dict[str, Any]:
        """The agent's view of the outcome (the ``outcome`` local)."""
        report = {
            "found": self.found,
            "kind": self.kind,
            "asked": self.asked,
            "closest": ", ".join(self.closest),
            "message": self.message,
            "stated": self.stated,
            "changed": list(self.changed),
        }
        if self.answer is not None:
            report["answer"] = self.answer
        return report


class World:
    """The three actions over the business data of one account."""

    def __init__(
        self,
        data: Any,
        understand: Understand,
        *,
        places: Gazetteer | None = None,
        recipes: Mapping[str, Recipe] | None = None,
    ) -> None:
        self.data = data
        self.understand = understand
        self.places = places or gazetteer()
        self.recipes = dict(recipes or RECIPES)

    def warm_up(self) -> None:
        """Load the gazetteer and the request-understanding tables now, not in a first run
        (which would otherwise spend its time limit on them)."""
        warm_up_understanding()
        self.places.city("London")
        self.understand("Book a flight to London next Tuesday for 45 euros", date.today())

    def act(
        self,
        action: Action,
        source: str,
        *,
        request: str,
        today: date,
        user: str = "",
        base: Record | None = None,
        given: Mapping[str, Any] | None = None,
        fixed: Mapping[str, Any] | None = None,
        where: Mapping[str, Any] | None = None,
        match: str | None = None,
        requester: bool = False,
        others: bool = False,
        sample: bool = False,
        makes: bool = False,
        expects_base: bool = False,
        held: Held | None = None,
        saved: Mapping[str, tuple[str, Record]] | None = None,
        requires: Mapping[str, Mapping[str, Any]] | None = None,
        made: Record | None = None,
    ) -> Outcome:
        """Run one action. ``expects_base``: the agent works on the record the conversation
        holds, so with none saved and none named it asks which one instead of picking.
        ``held``: where the values the agent passes came from; the outcome's ``set_aside``
        names the conversation variables a request about another record did not use.
        ``saved``: the records those variables hold, by variable (``(data source, record)``),
        except those the agent writes back: a record that nothing new can be made from
        (``Recipe.closed``: a cancelled order, a cancelled trip) is not used, and the
        outcome says why; nothing is taken from one that is not of the kind ``requires``
        names for its variable (a flight claim for a hospitality check). ``others``: the
        agent works only on other people's records (a manager approving claims). ``made``:
        the record this agent made earlier in the conversation (create): asked again for
        the same, it does not make a second one (an order is billed once); or, for an agent
        of the user's own records (``requester``), the one it worked on here, which a request
        naming no other is about (the lost phone, not a laptop). ``sample``: the
        record found stands for many (find), so a company nobody names is not asked for.
        ``makes``: the agent acts on what it finds, so a record the request names that the
        data lacks (or that it describes, with nothing named or saved) is made as typed."""
        held = held or Held()
        recipe = self.recipes.get(source)
        if recipe is None:
            raise ValueError(f"no recipe for the data source '{source}'")
        stated = self.understand(request, _anchor(recipe, request, today, saved))
        unread: set[str] = set()
        answered = clean(fixed)
        given, fixed = coerce(clean(given)), coerce(answered, unread)
        unfit = _unfit(requires or {}, saved or {})
        if unfit:
            given = {k: v for k, v in given.items() if held.given.get(k) not in unfit}
            where = {k: v for k, v in (where or {}).items() if held.where.get(k) not in unfit}
        ctx = Context(
            stated=stated,
            today=today,
            rng=random.Random(_seed(source, action, request, today, base, given, fixed)),
            data=self.data,
            places=self.places,
            user=user,
            requester=requester,
        )
        unset = _unset(held, where) if action != "create" else None
        if unread and action in ("create", "update"):
            # "twenty" is twenty; "test" as a distance is no distance: asked again, not made up.
            outcome = Outcome(None, recipe.noun, message=unreadable(unread, answered))
        elif unset and recipe.asked(ctx) is None:
            # The saved record says it has none (an internal IT ticket has no customer), and
            # the request names none: looking one up by anything else would present another
            # as its own.
            outcome = Outcome(
                None,
                recipe.noun,
                message=f"The {unset} saved in this conversation has no {recipe.noun}, so "
                "there is none to work on.",
            )
        elif action == "create" and (missing := self._pointed_back(ctx, held, given, saved)):
            outcome = Outcome(None, recipe.noun, message=missing)
        elif action == "create":
            refused = recipe.not_the_users(ctx) if requester else None
            if refused:
                # Refused for what the request says, not for anything saved: no hand-off.
                unused = sorted({*held.given.values(), *held.where.values()})
                outcome = Outcome(None, recipe.noun, message=refused, set_aside=unused)
            else:
                outcome = self._create(recipe, ctx, given, fixed, held.given, made)
        elif (
            action == "find"
            and requester
            and made is not None
            and base is None
            and recipe.changes_made(made, ctx)
            and (changed := _changed_made(recipe, ctx, made, given, recipe.stated(ctx), fixed))
        ):
            # The user's own record this agent worked on here, changed ("move it to January
            # 4" after a leave request: the same days off, from the 4th).
            outcome = changed
        elif (
            action == "find"
            and requester
            and made is not None
            and base is None
            and _states_nothing_else(made, recipe.stated(ctx), recipe.worded_fields)
        ):
            # The user's own record this agent worked on here is the one a request that names
            # no other means ("Get me a new one" after the lost phone: that phone, not a laptop).
            # What the earlier request said of it ("on Monday") is said anew from this one.
            kept = {k: v for k, v in made.items() if k not in _PHRASES}
            outcome = Outcome(kept, recipe.noun)
        elif action == "find":
            outcome = self._find(
                recipe,
                ctx,
                base,
                where,
                match,
                action,
                requester=requester,
                expects_base=expects_base,
                held=held,
                given=given,
                sample=sample,
            )
            if outcome.record is None and makes and self._makeable(recipe, ctx, outcome):
                outcome = self._create(recipe, ctx, given, fixed, held.given, None)
                asked = recipe.asked(ctx)
                if outcome.record is not None and asked is not None:
                    # Made as typed: the id or the name asked for is the new record's.
                    outcome.record[asked.field] = asked.value
            if outcome.record is not None:
                # What the conversation holds beyond the record's own fields rides along, so
                # the answer can name it ("for the Lisbon trip").
                for key, value in given.items():
                    outcome.record.setdefault(key, value)
        elif action == "update" and asks_how_it_is(ctx.stated.text):
            # "Is INV-000318 still unpaid?" to the agent that chases it: the invoice as it is,
            # answered, and nothing sent or changed.
            outcome = self._find(
                recipe, ctx, base, where, match, "find", requester=requester, held=held
            )
            if outcome.record is not None:
                outcome.answer = recipe.standing(outcome.record)
        elif action == "update":
            outcome = self._update(
                recipe, ctx, base, given, fixed, where, match, requester, held, makes=makes
            )
        else:
            raise ValueError(f"unknown action '{action}'; one of: find, create, update")
        if outcome.record is not None and action == "find":
            outcome = _outside(recipe, _kind(where, held), outcome)
            differs = recipe.differs(outcome.record, ctx) if outcome.record is not None else None
            if differs:
                outcome = Outcome(None, outcome.kind, message=differs, set_aside=outcome.set_aside)
        own = recipe.own(outcome.record, ctx) if others and outcome.record is not None else None
        if own:
            outcome = Outcome(None, outcome.kind, message=own, set_aside=outcome.set_aside)
        if saved:
            # Also when nothing was found: the reason is that the saved record is over (a
            # supplier's prices from a customer's NDA), not that its values match nothing.
            outcome = self._closed(source, held, saved, outcome)
        outcome.set_aside = sorted({*outcome.set_aside, *unfit})
        if outcome.record is not None:
            for key, value in recipe.phrased(outcome.record, today, stated).items():
                outcome.record.setdefault(key, value)
            outcome.record.setdefault("when", _when(stated))
            outcome.record.setdefault("to", _to(stated))
            outcome.record.setdefault("for", _for(stated, outcome.record))
        outcome.stated = stated.summary()
        return outcome

    def as_it_stands(self, source: str, made: Record, rewritten: Mapping[str, Record]) -> Record:
        """A record of ``source`` an agent made, as the variables other agents wrote since
        (``rewritten``, by name) left it: its recipe's ``as_it_stands``."""
        recipe = self.recipes.get(source)
        return made if recipe is None else recipe.as_it_stands(made, rewritten)

    def name_said(self, source: str, request: str, today: date) -> str | None:
        """The name ``request`` gives a new record of ``source`` ("Black Friday" for "a Black
        Friday email campaign"), or None."""
        recipe = self.recipes.get(source)
        if recipe is None or not recipe.name_field:
            return None
        name = self.stated_fields(source, request, today).get(recipe.name_field)
        return str(name) if name else None

    def stated_fields(self, source: str, request: str, today: date) -> Record:
        """The fields ``request`` states of a new record of ``source`` (its channel, for "a
        webinar campaign on LinkedIn"), as the record would take them."""
        recipe = self.recipes.get(source)
        if recipe is None:
            return {}
        ctx = Context(
            self.understand(request, today), today, random.Random(0), self.data, self.places
        )
        return recipe.stated(ctx)

    def asks_about_made(self, source: str, request: str, today: date, made: Record) -> bool:
        """Whether ``request`` asks about ``made`` (a record of ``source`` the agent made in
        this conversation) rather than for another one: the agent then asks nothing again."""
        recipe = self.recipes.get(source)
        if recipe is None:
            return False
        stated = self.understand(request, today)
        ctx = Context(stated, today, random.Random(0), self.data, self.places)
        if recipe.changes_made(made, ctx) or not recipe.asks_for_another(ctx):
            return True  # a change of it, or nothing of another: its form is not asked again
        return _asks_about(made, request, recipe.stated(ctx), recipe.worded_fields)

    def named_instead(
        self,
        request: str,
        today: date,
        saved: Mapping[str, tuple[str, Record]],
        user: str = "",
    ) -> dict[str, Record]:
        """The records a request names in place of saved ones: for each saved variable
        (``{name: (data source, record)}``), the record of its kind the request names by id,
        or by a name only one record has, when that is another record than the saved one.
        "Order ORD-000004 arrived damaged" is about ORD-000004, whatever order was saved."""
        # Naming a record involves no random choice: the generator is only there to fill ctx.
        ctx = Context(
            self.understand(request, today), today, random.Random(0), self.data, self.places, user
        )
        found: dict[str, Record] = {}
        for variable, (source, record) in saved.items():
            recipe = self.recipes.get(source)
            if recipe is None:
                continue
            asked = recipe.asked(ctx)
            if asked is None or _same(record.get(asked.field), asked.value):
                continue
            if _says_instead(request, record.get(asked.field), asked.value):
                continue
            named = self._identified(recipe, asked)
            if named is not None:
                found[variable] = named
        return found

    def _identified(self, recipe: Recipe, asked: Asked) -> Record | None:
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

    def _closed(
        self,
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
            other = self.recipes.get(other_source)
            if other is None:
                continue
            why = other.closed(record, source)
            if why:
                return Outcome(None, outcome.kind, message=why, set_aside=outcome.set_aside)
        return outcome

    # --- actions ----------------------------------------------------------------

    def _create(
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
            changed = _changed_made(recipe, ctx, made, given, stated, fixed)
            if changed is not None:
                return changed
        offered, given = given, recipe.applicable(given, stated, held)
        for name in recipe.worded_fields & given.keys():
            stated.pop(name, None)
        for name in [k for k in stated if k in given]:
            if _says_instead(ctx.stated.text, given[name], str(stated[name])):
                stated.pop(name)  # "a laptop for Sofia": the new hire held, not Sofia Marin
        record: Record = {**given, **stated, **fixed}
        if made is not None and (
            _made_from_the_same(made, {**given, **stated}, fixed)
            or _asks_about(made, ctx.stated.text, stated, recipe.worded_fields)
            or not recipe.asks_for_another(ctx)
        ):
            return Outcome(None, recipe.noun, message=recipe.made_already(made))
        from_conversation = any(k in held for k in offered)
        asking = _QUESTION.match(ctx.stated.text) and not _ASKING_FOR.match(ctx.stated.text)
        held_answer = recipe.held_answer(given) if made is None and from_conversation else None
        if asking and held_answer:
            # "Which hotel am I in?" after a flight that holds a room: that room, not a booking.
            return Outcome(None, recipe.noun, message=held_answer)
        if made is None and not from_conversation and _asks_how_it_stands(ctx.stated.text):
            # "What's the status of my VPN ticket?" is about one that exists: none is opened.
            return Outcome(None, recipe.noun, message=self._which(recipe, ctx))
        ask_name = recipe.name_question()
        unnamed = ask_name and not record.get(recipe.name_field or "")
        if unnamed and (recipe.named_only or (not given and _QUESTION.match(ctx.stated.text))):
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
        recipe.fill(record, ctx)
        set_aside = sorted({held[k] for k in offered.keys() - given.keys() if k in held})
        return Outcome(record, recipe.noun, set_aside=set_aside)

    def _find(
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
        asked = recipe.asked(ctx)
        by_id = asked is not None and asked.field == recipe.id_field
        # A record the request identifies is the one asked for, even in a change ("update the
        # contact of Lakeside Dental" with Hoffmann Logistics saved).
        if asked is not None and (
            action == "find"
            or not base
            or by_id
            or recipe.unique_name
            or self._identified(recipe, asked) is not None
        ):
            if base and (
                _same(base.get(asked.field), asked.value)
                # Said short: "the October newsletter campaign" is "October newsletter".
                or (not by_id and starts_name(asked.value, base.get(asked.field)))
                or _says_instead(ctx.stated.text, base.get(asked.field), asked.value)
            ):
                other = _of_another_party(recipe, ctx.stated, base) if by_id else None
                if other:
                    return Outcome(None, recipe.noun, asked=asked.said, message=other)
                return self._from_base(recipe, base, action, asked=asked.said)
            # The request names the record: a conversation filter on the same field yields,
            # and an id is the record whatever the agent's other filters say. The agent's own
            # filters (its kind of record) are not looked up by: a named record outside them
            # is found, and ``World.act`` says why it is not worked on.
            held_where = (held or Held()).where
            kept = {k: v for k, v in clean(where).items() if k in held_where}
            filters = {asked.field: asked.value} if by_id else {**kept, asked.field: asked.value}
            # Of the records by that name, one of the agent's kind ("the Globex agreement" to
            # sign: Globex's draft, not its contract in force).
            own = {k: v for k, v in clean(where).items() if k not in held_where}
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
                unused = _unused(held or Held(), where, asked, kept=not by_id)
                return Outcome(found[0], recipe.noun, asked=asked.said, set_aside=unused)
            return self._missing(recipe, asked, base, ctx)
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
        own_asked = action == "find" and recipe.of_the_user(ctx)
        if (requester and (speaks or not (base or clean(where)))) or own_asked:
            own = recipe.requester(ctx)
            if own is not None:
                return Outcome(own, recipe.noun)
        filters, refused = recipe.sampled(ctx) if sample else ({}, None)
        if refused:
            return Outcome(None, recipe.noun, message=refused)
        # A lookup for one of many asks for its own kind ("a courier", with a caterer saved).
        if base and all(_same(base.get(k), v) for k, v in filters.items()):
            return self._from_base(recipe, base, action)
        if sample and not base and not filters and not clean(where):
            question = recipe.unsampled(ctx)
            if question:
                return Outcome(None, recipe.noun, message=question)
        held_where = (held or Held()).where
        if any(k in held_where for k in clean(where)):
            found = self.data.lookup(recipe.source, where=clean(where), match=match)
            if found:
                return Outcome(found[0], recipe.noun)
            said = " and ".join(self._named(v) for k, v in clean(where).items() if k in held_where)
            kind = " or ".join(
                " or ".join(map(str, v)) if isinstance(v, list) else str(v)
                for k, v in clean(where).items()
                if k not in held_where
            )
            noun = f"{kind} {recipe.noun}" if kind else recipe.noun
            return Outcome(None, recipe.noun, asked=said, message=f"I found no {noun} for {said}.")
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
        text = match or ctx.stated.text
        found = self.data.lookup(recipe.source, where=preferred, match=text) if preferred else []
        if not found:
            found = self.data.lookup(recipe.source, match=text)
        if (expects_base and not sample) or action in CHANGES or unnamed:
            # "Change my order", "my trip's schedule": a record of the user's that nothing
            # here identifies. One that shares the request's words ("the data analyst") may
            # be meant; any other would be invented.
            described = _shares_words(found[0], ctx.stated.text) if found else False
            if found and not described and unnamed and recipe.name_field:
                # "Our scanner": the X200 Scanner, a word of its name is enough.
                described = bool(
                    tokens(str(found[0].get(recipe.name_field, ""))) & tokens(ctx.stated.text)
                )
            if not described:
                return Outcome(None, recipe.noun, message=self._which(recipe, ctx))
        return Outcome(found[0] if found else None, recipe.noun)

    def _update(
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
        outcome = self._find(
            recipe, ctx, base, where, match, change, requester=requester, held=held
        )
        if (
            outcome.record is None
            and makes
            and self._makeable(recipe, ctx, outcome)
            and not self._known_by_name(recipe, ctx, base)
        ):
            # One of the user's own the data lacks ("Prepare her offer" for a finalist of
            # theirs): made as typed, of the kind the agent works on (a contract to terminate
            # is a signed one), then changed as asked.
            kind = {
                k: v[0] if isinstance(v, list | tuple) else v
                for k, v in (where or {}).items()
                if v not in (None, "", [], ())
            }
            made = self._create(recipe, ctx, given, kind, (held or Held()).given, None)
            asked = recipe.asked(ctx)
            if made.record is not None and asked is not None:
                made.record[asked.field] = asked.value
            if made.record is not None:
                outcome = Outcome(made.record, recipe.noun, asked=asked.said if asked else None)
        # The kind of record the agent works on is what it was, not what the change makes it
        # (an order cancelled was an open one).
        outcome = _outside(recipe, _kind(where, held), outcome)
        if outcome.record is None:
            return outcome
        before = outcome.record
        partial = recipe.partial(before, ctx) if change == "cancel" else None
        if partial:
            # "Cancel the hotel" cancelling the flight too would undo what the user kept.
            return Outcome(
                None, recipe.noun, asked=outcome.asked, message=partial, set_aside=outcome.set_aside
            )
        record = {**given, **before}
        changes = recipe.change(record, ctx)
        unchanged = None if changes or given or fixed else recipe.unchanged(before)
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

    @staticmethod
    def _from_base(recipe: Recipe, base: Record, action: str, asked: str = "") -> Outcome:
        """The record the conversation holds, unless it lacks what this kind of record is
        worked on for (a trip saved from a hotel stay has no flight to track or rebook)."""
        lacking = recipe.lacking(base, action)
        if lacking:
            return Outcome(None, recipe.noun, asked=asked, message=lacking)
        return Outcome(dict(base), recipe.noun, asked=asked)

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
        message = f"I found no {recipe.noun} {asked.said}."
        if closest:
            message += f" The closest I have: {', '.join(closest)}."
        message += recipe.unrecorded(ctx)
        return Outcome(None, recipe.noun, asked=asked.said, closest=closest, message=message)

    def _pointed_back(
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
                return self._which(recipe, ctx)
            if variable == "trip" and _THERE.search(ctx.stated.text):
                return self._which(recipe, ctx)  # "book me a train there": where is there?
        return None

    @staticmethod
    def _makeable(recipe: Recipe, ctx: Context, outcome: Outcome) -> bool:
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

    def _known_by_name(self, recipe: Recipe, ctx: Context, base: Record | None) -> bool:
        """Whether the conversation or the data has a record by the name the request gives
        (one that could not be worked on, such as a declined applicant, is not made anew)."""
        asked = recipe.asked(ctx)
        if asked is None or asked.field == recipe.id_field:
            return False
        if base and _same(base.get(asked.field), asked.value):
            return True
        return bool(self.data.lookup(recipe.source, where={asked.field: asked.value}))

    @staticmethod
    def _which(recipe: Recipe, ctx: Context) -> str:
        return f"Which {recipe.noun}? {recipe.none_held()}{recipe.unrecorded(ctx)}"

    def _records(self, recipe: Recipe) -> list[Record]:
        return self.data.records(recipe.source)


# A request that points back to the saved trip ("a car there", "a hotel for the trip").
_FOR_THE_TRIP = re.compile(r"\bfor\s+(?:the|my|that|this)\s+trip\b", re.IGNORECASE)


def _anchor(
    recipe: Recipe,
    request: str,
    today: date,
    saved: Mapping[str, tuple[str, Record]] | None,
) -> date:
    """The day a request's relative dates count from: today, or for something booked at the
    saved trip's place ("a rental car there for the weekend", "a hotel there on Monday") the
    eve of a trip still to come, so that "the weekend" is the trip's weekend, not this one."""
    if not recipe.at_trip or not (_THERE.search(request) or _FOR_THE_TRIP.search(request)):
        return today
    trip = (saved or {}).get("trip", ("", {}))[1]
    start = text_date(trip.get("start_date")) if isinstance(trip, dict) else None
    if start is None or start <= today:
        return today
    return start - timedelta(days=1)


# "There" as a place ("book me a train there", "a hotel there for two nights"), not "is there
# an outage", "there are two of us" or "over there".
_THERE = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bover )\bthere\b"
    r"(?!\s+(?:is|are|was|were|will|be|has|have|had)\b|['’]s)",
    re.IGNORECASE,
)
_UNTIL = re.compile(r"\b(?:until|till|through to)\b", re.IGNORECASE)
# How many records of one name a change looks through for one it can still change.
_NAMED_MANY = 50
# The phrases an outcome's record carries for its answer, from the request that found it.
_PHRASES = frozenset({"when", "to", "for"})


def _to(stated: Stated) -> str:
    """The place a request goes to, as a phrase an answer can insert (" to Brazil")."""
    place = stated.destination
    return f" to {place.name}" if place is not None else ""


# The user travelling with others ("for me and two colleagues").
_WITH_OTHERS = re.compile(
    r"\bfor\s+me\s+and\s+(?P<others>(?:my\s+)?(?:\w+\s+)?(?:colleagues?|teammates?|"
    r"co-?workers?|others|people|managers?|boss))\b",
    re.IGNORECASE,
)


def _for(stated: Stated, record: Record) -> str:
    """Whom a record is for, as a phrase an answer can insert (" for Lindqvist AB", " for
    Anna Schmidt"): the company or else the person the request names, else the customer the
    record was made for."""
    named = next(iter((*stated.organisations, *stated.people)), None)
    if named is not None:
        return f" for {named.shown}"
    together = _WITH_OTHERS.search(stated.text)
    if together:
        # "for me and two colleagues": a booking that said nothing of the three of them.
        others = re.sub(r"^my\b", "your", together.group("others").lower())
        return f" for you and {others}"
    return f" for {record['customer']}" if record.get("customer") else ""


def _when(stated: Stated) -> str:
    """The dates a request states, as a phrase an answer can insert (" from X to Y")."""
    start, end = stated.first_date, stated.last_day
    if start and end and end != start:
        return f" from {start.isoformat()} to {end.isoformat()}"
    if start or end:
        day = (start or end).isoformat()  # type: ignore[union-attr]
        # "Out until Friday" is every day up to then, not Friday alone.
        return f" until {day}" if _UNTIL.search(stated.text) else f" on {day}"
    return ""


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


def _unfit(
    requires: Mapping[str, Mapping[str, Any]], saved: Mapping[str, tuple[str, Record]]
) -> set[str]:
    """The saved variables whose record is not of the kind the command requires of it."""
    return {
        variable
        for variable, kind in requires.items()
        if variable in saved and not fits(saved[variable][1], kind)
    }


def _of_another_party(recipe: Recipe, stated: Stated, record: Record) -> str | None:
    """Why the record a request names by its number is not the one it means: the request
    also names the party it is with (a customer, a supplier), and the record is another's
    ("Lakeside Dental was double charged on INV-000003": Nordic Steel's invoice)."""
    field = recipe.name_field
    if recipe.unknown_names != "organisations" or field in (None, "name"):
        return None
    named = stated.names_of(*recipe.name_kinds)
    owner = str(record.get(field) or "")
    if not named or not owner or any(_same(n.shown, owner) for n in named):
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


def _kind(where: Mapping[str, Any] | None, held: Held) -> Record:
    """The agent's own filters: the kind of record it works on (an invoice we issued, a
    software supplier), not values the conversation passed."""
    return {k: v for k, v in clean(where).items() if k not in held.where}


def _outside(recipe: Recipe, kind: Record, outcome: Outcome) -> Outcome:
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


def _unset(held: Held, where: Mapping[str, Any] | None) -> str | None:
    """The conversation variable a filter comes from whose saved value is empty ("no
    customer"), if any."""
    for key, value in (where or {}).items():
        if value == "" and key in held.where:
            return held.where[key]
    return None


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
            or (k == asked.field and not _same(filters[k], asked.value))
        ]
        if fields and len(replaced) == len(fields):
            unused.add(variable)
    return sorted(unused)


# Fields that say what state a record is in, not which record it is: "the incident is
# resolved" names no ticket whose status is resolved.
_STATE_FIELDS = frozenset({"status", "priority", "severity", "stage", "tier", "currency"})


def _shares_words(record: Record, text: str) -> bool:
    """Whether the request describes the record: it says most words of one of the values that
    say what the record is ("the data analyst", "the damaged order"). One word in common with
    a longer subject ("the desks arrived scratched" and "Order arrived damaged") is not it."""
    said = tokens(text)
    for key, value in record.items():
        if key in _STATE_FIELDS or not isinstance(value, str):
            continue
        words = tokens(value)
        if words and 2 * len(said & words) > len(words):
            return True
    return False


def _made_from_the_same(made: Record, asked: Record, fixed: Record) -> bool:
    """Whether a new record from ``asked`` (what the request and the conversation give) and
    ``fixed`` would be ``made`` again: every value it shares with it the same, and at least
    one of them asked for, not only the agent's fixed values."""
    new = {**asked, **fixed}
    shared = [key for key in new if key in made]
    return any(key in asked for key in shared) and all(_same(new[k], made[k]) for k in shared)


# A question ("When will it arrive?", "How do I set up a vendor?", "Can I get a loaner?"),
# not a request; "can you..." and "could you..." ask for something.
_QUESTION = re.compile(
    r"^\s*(?:when|what|which|where|who|why|how|is|are|has|have|did|does|do|will|(?:can|could|may)\s+i)\b",
    re.IGNORECASE,
)


# A request that points back at what the agent made ("open an incident for it") is about
# that record too; "for" a person or a thing named is not ("a laptop for Sofia").
_POINTS_BACK = re.compile(r"\b(?:for|about|on)\s+(?:it|that|this)\b", re.I)


# How a record stands: its status, whether it is done or approved.
_STANDING = re.compile(
    r"\b(?:status|progress|ready|done|finished|fixed|resolved|approved|update on|news on|"
    r"happens next)\b",
    re.IGNORECASE,
)


_ASKING_FOR = re.compile(r"^\s*(?:can|could|may)\s+i\b", re.IGNORECASE)


# A question that asks for something to be done, or how to do it: no question of how a
# record stands ("can you send them a reminder?", "how do I chase them?").
_ASKS_FOR_ACTION = re.compile(
    r"^\s*(?:(?:please|so|ok|okay)[,\s]+)*(?:(?:can|could|would|will)\s+(?:you|we|i)|how\b|"
    r"what\s+(?:do|should)\s+(?:i|we)\b|should\s+(?:i|we)\b)",
    re.IGNORECASE,
)


def asks_how_it_is(text: str) -> bool:
    """Whether a request only asks how a record is ("Is it paid?", "Has INV-000318 been
    paid yet?", "When is it due?"), not for something to be done to it."""
    return bool(_QUESTION.match(text)) and not _ASKS_FOR_ACTION.match(text)


def _asks_how_it_stands(text: str) -> bool:
    """Whether a request is a question about how a record stands ("When will my laptop
    repair be done?"), not a request for one ("Can I get a loaner?")."""
    asking = _QUESTION.match(text) and not _ASKING_FOR.match(text)
    return bool(asking) and bool(_STANDING.search(text))


def _asks_about(made: Record, text: str, stated: Record, worded: frozenset[str]) -> bool:
    """Whether a request is about ``made`` rather than for another: a question, or a
    request that points back to it, that states nothing that differs from it (its wording
    aside)."""
    about = _QUESTION.match(text) or _POINTS_BACK.search(text)
    return bool(about) and _states_nothing_else(made, stated, worded)


def _states_nothing_else(made: Record, stated: Record, worded: frozenset[str]) -> bool:
    """Whether what a request states (its wording aside) is all as ``made`` has it; a name
    said short is the same name ("our NDA with Zephyr" after one with Zephyr Analytics)."""
    return all(
        _same(v, made[k]) or starts_name(v, made[k])
        for k, v in stated.items()
        if k in made and k not in worded
    )


def _says_instead(text: str, held: Any, asked: str) -> bool:
    """Whether the request says the held record's name itself and only part of the name it
    was matched to: with the new hire Sofia saved, "give Sofia access" is about her, not
    about Sofia Marin, whom "Sofia" alone would otherwise find."""
    if not held or _same(held, asked):
        return False

    def says(name: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None

    return says(str(held)) and not says(asked)


def _changed_made(
    recipe: Recipe, ctx: Context, made: Record, given: Record, stated: Record, fixed: Record
) -> Outcome | None:
    """What this agent made here, changed as the request says (``Recipe.changes_made``):
    "move it to Friday" is the same trip as long as it was, from Friday; or None when the
    request is about another record (another city) or changes nothing. Merging the new first
    day with the old last one made a trip that came back the day it left."""
    if any(stated.get(f) and not _same(made.get(f), stated[f]) for f in recipe.about_fields):
        return None
    # How the earlier request's answer phrased it ("when", "for", "3 monitors") is said anew.
    said = _PHRASES | recipe.phrased(made, ctx.today, ctx.stated).keys()
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


def _same(a: Any, b: Any) -> bool:
    return str(a or "").casefold() == str(b or "").casefold()


def _seed(source: str, action: str, request: str, today: date, *parts: Any) -> int:
    text = json.dumps(
        [source, action, request, today.isoformat(), *parts], sort_keys=True, default=str
    )
    return int.from_bytes(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:8], "big")
