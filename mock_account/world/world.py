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

import hashlib
import json
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal

from mock_account.understanding import warm_up as warm_up_understanding

from .changing import Changing
from .finding import Finding
from .making import Making, changed_made, makeable
from .outcome import Held, Outcome
from .phrasing import PHRASES, for_phrase, to_phrase, when_phrase
from .places import Gazetteer, gazetteer
from .reading import THERE, asks_about, asks_how_it_is, same, says_instead, states_nothing_else
from .recipe import Context, Recipe, Record, clean, coerce, text_date, unreadable
from .recipes import RECIPES
from .refusals import agents_kind, closed, outside, unfit, unset
from .stated import Stated

Action = Literal["find", "create", "update"]
Understand = Callable[[str, date], Stated]


@dataclass
class _Act:
    """One action as ``World.act`` works it: the request read (``ctx``), and what the agent
    and the conversation pass, coerced and with the values of unfit saved records dropped."""

    action: str
    source: str
    recipe: Recipe
    ctx: Context
    base: Record | None
    given: Record
    fixed: Record
    where: Mapping[str, Any] | None
    match: str | None
    held: Held
    saved: Mapping[str, tuple[str, Record]] | None
    made: Record | None
    requester: bool
    others: bool
    sample: bool
    makes: bool
    expects_base: bool
    # The form answers as given, and those that could not be read as their field's type.
    answered: Record
    unread: set[str]
    # The saved variables whose record is not of the kind the command requires of it.
    unfit: set[str]


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
        self.finding = Finding(data, self.recipes)
        self.making = Making(data, self.recipes)
        self.changing = Changing(data, self.finding, self.making)

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
        unfit_saved = unfit(requires or {}, saved or {})
        if unfit_saved:
            given = {k: v for k, v in given.items() if held.given.get(k) not in unfit_saved}
            where = {k: v for k, v in (where or {}).items() if held.where.get(k) not in unfit_saved}
        rng = random.Random(_seed(source, action, request, today, base, given, fixed))
        # "Bump the budget up by another 10k": a plain amount is in the record's currency.
        stated = stated.priced_in(str((base or {}).get("currency") or ""))
        ctx = Context(stated, today, rng, self.data, self.places, user, requester)
        act = _Act(
            action, source, recipe, ctx, base, given, fixed, where, match, held, saved, made,
            requester, others, sample, makes, expects_base, answered, unread, unfit_saved,
        )  # fmt: skip
        return _as_answered(self.recipes, act, self._outcome(act))

    # --- the steps of an action -------------------------------------------------

    def _outcome(self, act: _Act) -> Outcome:
        refused = _refused_up_front(act)
        if refused is not None:
            return refused
        if act.action == "create":
            return self._create(act)
        if act.action == "find":
            return self._find(act)
        if act.action == "update":
            return self._update(act)
        raise ValueError(f"unknown action '{act.action}'; one of: find, create, update")

    def _create(self, act: _Act) -> Outcome:
        recipe, ctx, held = act.recipe, act.ctx, act.held
        missing = self.making.pointed_back(ctx, held, act.given, act.saved)
        if missing:
            return Outcome(None, recipe.noun, message=missing)
        refused = recipe.not_the_users(ctx) if act.requester else None
        if refused:
            # Refused for what the request says, not for anything saved: no hand-off.
            unused = sorted({*held.given.values(), *held.where.values()})
            return Outcome(None, recipe.noun, message=refused, set_aside=unused)
        return self.making.create(recipe, ctx, act.given, act.fixed, held.given, act.made)

    def _find(self, act: _Act) -> Outcome:
        recipe, ctx, made, given = act.recipe, act.ctx, act.made, act.given
        if act.requester and made is not None and act.base is None:
            if recipe.changes_made(made, ctx) and (
                changed := changed_made(recipe, ctx, made, given, recipe.stated(ctx), act.fixed)
            ):
                # The user's own record this agent worked on here, changed ("move it to January
                # 4" after a leave request: the same days off, from the 4th).
                return changed
            if states_nothing_else(made, recipe.stated(ctx), recipe.worded_fields):
                # The user's own record this agent worked on here is the one a request that
                # names no other means ("Get me a new one" after the lost phone: that phone, not
                # a laptop). What the earlier request said of it ("on Monday") is said anew
                # from this one.
                kept = {k: v for k, v in made.items() if k not in PHRASES}
                return Outcome(kept, recipe.noun)
        outcome = self.finding.find(
            recipe, ctx, act.base, act.where, act.match, act.action,
            requester=act.requester, expects_base=act.expects_base, held=act.held, given=given,
            sample=act.sample,
        )  # fmt: skip
        if outcome.record is None and act.makes and makeable(recipe, ctx, outcome):
            # Made as the agent's own kind of record: a credit note's bill is one we owe
            # (``direction: payable``), not an invoice we issued.
            own = {
                k: v
                for k, v in clean(act.where).items()
                if k not in act.held.where and isinstance(v, str | int | float)
            }
            fixed = {**own, **act.fixed}
            outcome = self.making.create(recipe, ctx, given, fixed, act.held.given, None)
            asked = recipe.asked(ctx)
            if outcome.record is not None and asked is not None:
                # Made as typed: the id or the name asked for is the new record's.
                outcome.record[asked.field] = asked.value
        if outcome.record is not None:
            # What the conversation holds beyond the record's own fields rides along, so
            # the answer can name it ("for the Lisbon trip").
            for key, value in given.items():
                outcome.record.setdefault(key, value)
        return outcome

    def _update(self, act: _Act) -> Outcome:
        recipe, ctx = act.recipe, act.ctx
        if asks_how_it_is(ctx.stated.text):
            # "Is INV-000318 still unpaid?" to the agent that chases it: the invoice as it is,
            # answered, and nothing sent or changed.
            outcome = self.finding.find(
                recipe, ctx, act.base, act.where, act.match, "find",
                requester=act.requester, held=act.held,
            )  # fmt: skip
            if outcome.record is not None:
                outcome.answer = recipe.standing(outcome.record)
            return outcome
        return self.changing.update(
            recipe, ctx, act.base, act.given, act.fixed, act.where, act.match, act.requester,
            act.held, makes=act.makes,
        )  # fmt: skip

    # --- what runs ask of the world besides actions ------------------------------

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
        return asks_about(made, request, recipe.stated(ctx), recipe.worded_fields)

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
            if asked is None or same(record.get(asked.field), asked.value):
                continue
            if says_instead(request, record.get(asked.field), asked.value):
                continue
            named = self.finding.identified(recipe, asked)
            if named is not None:
                found[variable] = named
        return found


def _refused_up_front(act: _Act) -> Outcome | None:
    """What no action works from, whatever it is: a value that could not be read, or a
    saved record that says it has none of what the agent works on."""
    recipe = act.recipe
    unset_by = unset(act.held, act.where) if act.action != "create" else None
    if act.unread and act.action in ("create", "update"):
        # "twenty" is twenty; "test" as a distance is no distance: asked again, not made up.
        return Outcome(None, recipe.noun, message=unreadable(act.unread, act.answered))
    if unset_by and recipe.asked(act.ctx) is None:
        # The saved record says it has none (an internal IT ticket has no customer), and
        # the request names none: looking one up by anything else would present another
        # as its own.
        return Outcome(
            None,
            recipe.noun,
            message=f"The {unset_by} saved in this conversation has no {recipe.noun}, so "
            "there is none to work on.",
        )
    return None


def _as_answered(recipes: Mapping[str, Recipe], act: _Act, outcome: Outcome) -> Outcome:
    """The outcome as the agent gets it: refused when its record is not one the agent
    works on, with the phrases its answer inserts and what the request stated."""
    recipe, ctx = act.recipe, act.ctx
    if outcome.record is not None and act.action == "find":
        outcome = outside(recipe, agents_kind(act.where, act.held), outcome)
        differs = recipe.differs(outcome.record, ctx) if outcome.record is not None else None
        if differs:
            outcome = Outcome(None, outcome.kind, message=differs, set_aside=outcome.set_aside)
    own = recipe.own(outcome.record, ctx) if act.others and outcome.record is not None else None
    if own:
        outcome = Outcome(None, outcome.kind, message=own, set_aside=outcome.set_aside)
    if act.saved:
        # Also when nothing was found: the reason is that the saved record is over (a
        # supplier's prices from a customer's NDA), not that its values match nothing.
        outcome = closed(recipes, act.source, act.held, act.saved, outcome)
    outcome.set_aside = sorted({*outcome.set_aside, *act.unfit})
    stated = ctx.stated
    if outcome.record is not None:
        for key, value in recipe.phrased(outcome.record, ctx.today, stated).items():
            outcome.record.setdefault(key, value)
        outcome.record.setdefault("when", when_phrase(stated))
        outcome.record.setdefault("to", to_phrase(stated))
        outcome.record.setdefault("for", for_phrase(stated, outcome.record))
    outcome.stated = stated.summary()
    return outcome


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
    if not recipe.at_trip or not (THERE.search(request) or _FOR_THE_TRIP.search(request)):
        return today
    trip = (saved or {}).get("trip", ("", {}))[1]
    start = text_date(trip.get("start_date")) if isinstance(trip, dict) else None
    if start is None or start <= today:
        return today
    return start - timedelta(days=1)


def _seed(source: str, action: str, request: str, today: date, *parts: Any) -> int:
    text = json.dumps(
        [source, action, request, today.isoformat(), *parts], sort_keys=True, default=str
    )
    return int.from_bytes(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:8], "big")
