"""An id typed in another padding than the account's ("ORD-20931" for ORD-020931) is said back
as it was typed: the person can find it in the answer."""

from __future__ import annotations

from datetime import date

from handoff_journeys import answer_of

from mock_account.business.data import BusinessData
from mock_account.world import understand_request


def test_an_id_keeps_the_form_it_was_typed_in() -> None:
    stated = understand_request(BusinessData(seed=7))(
        "Rush ORD-20931 and check order #42", date(2026, 12, 7)
    )
    assert stated.ids_of("ORD") == ("ORD-020931", "ORD-000042")
    assert stated.typed_id("ORD-020931") == "ORD-20931"
    # A noun and a number is said in the account's own form.
    assert stated.typed_id("ORD-000042") == "ORD-000042"


def test_an_order_the_account_lacks_is_named_as_typed(deployment, user) -> None:
    said = answer_of(
        deployment,
        user,
        "ExpediteCustomerOrder",
        "ORD-20931 has to arrive by Friday. Rush it.",
        None,
    )
    assert "ORD-20931" in said, said
    assert "ORD-020931" not in said, said
