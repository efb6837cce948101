"""A lookup keeps what it found, by the name it was asked for, and says only what it shows.

Once an agent found the invoice the request named, the conversation is about that invoice:
"has it been paid yet?" answers for it instead of asking which one. A first name alone is the
person who has it. And no answer says "here are the variances" with none after it."""

from __future__ import annotations

import re

import pytest
from handoff_journeys import answer_of, run_agent, state_of

from agents_catalog.capabilities import VARIABLE_SOURCES, load_departments

CAPABILITIES = [c for d in load_departments() for c in d.capabilities]


def test_a_lookup_saves_the_record_it_found(deployment, user) -> None:
    result = run_agent(
        deployment,
        user,
        "MatchInvoiceToPurchaseOrder",
        "Accounts payable says INV-000412 doesn't match the PO, can you check?",
        None,
    )
    invoice = state_of(deployment, user, result.convid)["conv"]["invoice"]
    assert invoice["number"] == "INV-000412"
    name, _ = deployment.account.route(user, "Has it been paid yet?", result.convid)
    assert name == "CheckInvoicePaymentStatus"
    text = answer_of(deployment, user, name, "Has it been paid yet?", result.convid)
    assert text.startswith(f"Invoice INV-000412 (payable, {invoice['party']}) for")
    assert f" is {invoice['status']};" in text


@pytest.mark.parametrize(
    "capability",
    [c for c in CAPABILITIES if c.action == "find" and not c.requester],
    ids=lambda c: c.name,
)
def test_every_lookup_of_a_shared_kind_saves_it(capability) -> None:
    # The trip holds more than the flight a lookup finds, so no flight lookup rewrites it.
    shared = [v for v in capability.reads if v != "trip" and VARIABLE_SOURCES[v] == capability.data]
    assert set(shared) <= set(capability.writes)


def test_a_first_name_alone_is_the_person_who_has_it(deployment, user) -> None:
    text = answer_of(deployment, user, "SponsorWorkPermit", "Sponsor a work permit for Priya", None)
    assert text.startswith("Priya Sharma is at the interview stage for the Data Analyst role")
    assert "found no candidate" not in text


def test_a_full_name_nobody_has_is_still_not_found(deployment, user) -> None:
    text = answer_of(
        deployment, user, "SponsorWorkPermit", "Tiffany Martin needs a work permit", None
    )
    assert text.startswith("I found no candidate named Tiffany Martin.")


# "Here are the keyword ideas" must be followed by them (after a colon, in the same sentence).
_PROMISE = re.compile(r"\b(?:here (?:is|are)|listed|below|the following)\b[^.:;]*(?=[.;]|$)", re.I)


@pytest.mark.parametrize("capability", CAPABILITIES, ids=lambda c: c.name)
def test_no_answer_promises_what_it_does_not_show(capability) -> None:
    shown = re.sub(r"\{[^}]*\}", "X", capability.reply)  # a value's path is no full stop
    assert not _PROMISE.search(shown), capability.reply
