"""The mock world: business records found, created and changed as requests say.

``World`` runs an agent's ``data`` action (find / create / update) over one recipe per
data source: ``finding`` (the record a request names, the conversation holds, or the request
describes), ``making`` (a new record), ``changing`` (a change to one), ``refusals`` (why a
record is not worked on), ``reading`` (how a request reads: a question, or a request for
something), ``phrasing`` (the phrases an answer inserts). ``Stated`` is what a request states,
in the recipes' terms; ``named_options`` is which options of a form the request already names.
"""

from .choices import labelled_value, named_options, option_by_word
from .outcome import Held, Outcome
from .places import City, Gazetteer, gazetteer
from .recipe import Asked, Context, Recipe, first_sentence, fits, kind_of
from .refusals import change_of, foreseen_refusal
from .stated import Money, Name, Place, Quantity, Stated
from .understand import understand_request
from .world import World

__all__ = [
    "Asked",
    "City",
    "Context",
    "Gazetteer",
    "Held",
    "Money",
    "Name",
    "Outcome",
    "Place",
    "Quantity",
    "Recipe",
    "Stated",
    "World",
    "change_of",
    "first_sentence",
    "fits",
    "foreseen_refusal",
    "gazetteer",
    "kind_of",
    "labelled_value",
    "named_options",
    "option_by_word",
    "understand_request",
]
