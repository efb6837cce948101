"""The mock world: business records found, created and changed as requests say.

``World`` runs an agent's ``data`` action (find / create / update) over one recipe per
data source; ``Stated`` is what a request states, in the recipes' terms;
``named_options`` is which options of a form the request already names.
"""

from .choices import labelled_value, named_options, option_by_word
from .places import City, Gazetteer, gazetteer
from .recipe import Asked, Context, Recipe, first_sentence, fits, kind_of
from .stated import Money, Name, Place, Quantity, Stated
from .understand import understand_request
from .world import Held, Outcome, World, change_of, foreseen_refusal

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
