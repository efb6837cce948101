"""The demo's search behaviour: run the best match, or offer the two best when they are close.

The account's setting comes with every search as ``searchBehavior`` (SPEC §5):

- ``executeTopMatch`` ("Run the best match", the default): the best match runs.
- ``showResults`` ("Offer the two best"): when the two best matches are *close*, both are
  offered and the user picks one; otherwise the best runs, since asking someone to choose
  between a clear winner and a distant second only slows them down.
- ``executeOnlyMatch`` (a Search2o value the demo also honours): a sole match runs;
  with several, the two best are offered whether close or not.

**Close** means the runner-up scores at least ``CLOSE_RATIO`` (85 %) of the best. Measured
on the account's labelled requests (development and held-out sets, 293 requests with at
least two matches), that offers a choice on 12 % of the requests whose best match is right
and on 11 of the 16 whose right agent came second: the choice appears mostly where search
really is unsure.
"""

from __future__ import annotations

from .views import Match, SearchOutcome

RUN_BEST = "executeTopMatch"
OFFER_TWO = "showResults"
ONLY_MATCH = "executeOnlyMatch"
BEHAVIOR_LABELS = {RUN_BEST: "Run the best match", OFFER_TWO: "Offer the two best"}
CLOSE_RATIO = 0.85


def behavior_label(behavior: str) -> str:
    """How the demo names a ``searchBehavior`` value."""
    if behavior == ONLY_MATCH:
        return "Run a sole match, else offer the two best"
    return BEHAVIOR_LABELS.get(behavior, behavior)


def is_close(best: Match, second: Match) -> bool:
    """Whether ``second`` scores at least ``CLOSE_RATIO`` of ``best`` (unscored: never)."""
    if best.score is None or second.score is None:
        return False
    if best.score <= 0:
        return second.score >= best.score
    return second.score >= CLOSE_RATIO * best.score


def two_best_choice(
    outcome: SearchOutcome, behavior: str | None = None
) -> tuple[Match, Match] | None:
    """The two matches to offer, or None when the best (or the previous agent) should run.

    ``behavior`` overrides the one the search reported (the embedded demo's sidebar).
    """
    chosen = behavior or outcome.behavior
    if len(outcome.matches) < 2:
        return None
    best, second = outcome.matches[0], outcome.matches[1]
    if chosen == ONLY_MATCH:
        return best, second
    if chosen == OFFER_TWO and is_close(best, second):
        return best, second
    return None
