"""A price or stock question is about the product it names: the catalogue's product of
that kind (an "ergonomic chair" is a chair, not an ergonomic mouse), or none when the
catalogue has nothing by that name, never another product."""

from __future__ import annotations

import pytest
from handoff_journeys import answer_of

AGENT = "CheckProductListPrice"


@pytest.mark.parametrize(
    ("request_text", "product"),
    [
        ("How much do we charge for the X200 scanner?", "X200 Scanner"),
        ("Is the ergonomic chair available and what does it cost?", "Office Chair"),
        ("What's the price of the Flux Office Chair?", "Flux Office Chair"),
    ],
)
def test_the_price_given_is_the_named_products(deployment, user, request_text, product) -> None:
    text = answer_of(deployment, user, AGENT, request_text, None)
    assert text.split(" (SKU-")[0].endswith(product) and " lists at " in text, text


def test_a_product_the_catalogue_lacks_is_not_priced_as_another(deployment, user) -> None:
    request_text = "What is the list price of the A4 label printer and do we have it in stock?"
    text = answer_of(deployment, user, AGENT, request_text, None)
    assert text.startswith("I found no product named A4 Label Printer"), text
    assert "lists at" not in text


def test_a_count_of_something_the_catalogue_lacks_finds_none(deployment, user) -> None:
    # Not the product whose SKU number matches the count (SKU-00200).
    text = "Raise a purchase order for 200 reams of paper from Nordwind Logistics"
    answer = answer_of(deployment, user, "SourceMaterialsForOrder", text, None)
    assert answer.startswith("I found no product named Paper."), answer
