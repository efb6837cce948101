"""Forms over email and IM: a sender answers an agent's form by replying in words."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from mock_account.channels.replies import answers_from_reply, questions
from mock_account.deployment import AccountConfig, Deployment, build_deployment

TODAY = dt.date(2026, 11, 30)
PAPERWORK = [
    {"name": "legal_name", "type": "str", "label": "Your legal name"},
    {"name": "start_date", "type": "str", "label": "Your start date (YYYY-MM-DD)"},
    {
        "name": "contract_signed",
        "type": "chooseOne",
        "label": "Have you signed your contract?",
        "options": ["yes", "no"],
    },
]
EQUIPMENT = [
    {"name": "laptop", "type": "chooseOne", "label": "Which laptop?", "options": ["mac", "linux"]},
    {
        "name": "remote",
        "type": "chooseOne",
        "label": "Will you work remotely?",
        "options": ["yes", "no"],
    },
]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            "My legal name is Ann Lee, I start on 7 December and I signed the contract",
            {"legal_name": "Ann Lee", "start_date": "2026-12-07", "contract_signed": "yes"},
        ),
        (
            "Your legal name: Ann Lee\nYour start date: 2026-12-07\n"
            "Have you signed your contract? (yes / no): Yes",
            {"legal_name": "Ann Lee", "start_date": "2026-12-07", "contract_signed": "yes"},
        ),
        (
            "Legal name is Ann Lee. I have not signed the contract yet",
            {"legal_name": "Ann Lee", "contract_signed": "no"},
        ),
        ("Thanks, talk soon", {}),
    ],
)
def test_answers_are_read_from_what_the_reply_says(reply: str, expected: dict) -> None:
    assert answers_from_reply(PAPERWORK, reply, TODAY) == expected


def test_choices_are_the_options_the_reply_names_and_nothing_is_guessed() -> None:
    assert answers_from_reply(EQUIPMENT, "A Mac please; I will work remotely", TODAY) == {
        "laptop": "mac",
        "remote": "yes",
    }
    assert answers_from_reply(EQUIPMENT, "Linux, and I won't be working remotely", TODAY) == {
        "laptop": "linux",
        "remote": "no",
    }
    # Two laptops named: which one is not said, so it is asked again.
    assert answers_from_reply(EQUIPMENT, "mac or linux, I don't mind", TODAY) == {}
    address = [{"name": "shipping_address", "type": "text", "label": "Shipping address"}]
    assert answers_from_reply(address, "My shipping address is 12 Rue Cler, Paris.", TODAY) == {
        "shipping_address": "12 Rue Cler, Paris"
    }


def test_the_questions_are_one_line_each_with_their_options() -> None:
    text = questions({"message": "Onboarding: equipment.", "inputs": EQUIPMENT})
    assert text.splitlines() == [
        "Onboarding: equipment.",
        "Reply with one line per answer:",
        "Which laptop (mac / linux): ",
        "Will you work remotely (yes / no): ",
    ]


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    built = build_deployment(
        AccountConfig(data_dir=tmp_path, store_url="memory://", search="bm25", today="2026-11-30")
    )
    yield built
    built.close()


def test_an_email_sender_moves_through_onboarding_by_replying(deployment: Deployment) -> None:
    admin = deployment.users.users[0]

    def email(text: str) -> object:
        return deployment.channels.deliver(
            admin, channel="email", sender="ann.lee@example.org", query=text
        )

    asked = email("I just joined, what's left in my onboarding?")
    assert asked.result.result_code == "ask"
    assert asked.result.agent_name == "CompleteNewHireOnboarding"
    assert "Your legal name: " in asked.reply.splitlines()
    vague = email("Thanks, talk soon")
    assert vague.result.result_code == "ask" and vague.answered == {}
    assert vague.reply.startswith("Please answer 'Your legal name'.")
    answered = email("My legal name is Ann Lee, I start on 7 December and I signed the contract")
    assert answered.resumed and answered.result.convid == asked.result.convid
    assert answered.answered == {
        "legal_name": "Ann Lee",
        "start_date": "2026-12-07",
        "contract_signed": "yes",
    }
    assert answered.result.result_code == "success"
    assert "stage Equipment" in answered.reply
    owner = f"email:{answered.identity}"
    progress = deployment.workflows.view(admin.account, owner, "new_hire_onboarding")  # type: ignore[union-attr]
    assert progress["stage"] == "equipment"
    assert progress["values"]["legal_name"] == "Ann Lee"
    # The same person on IM is another identity, at the start of their own onboarding.
    on_im = deployment.channels.deliver(
        admin,
        channel="im",
        sender="slack:U0ANN",
        query="I just joined, what's left in my onboarding?",
    )
    assert on_im.result.result_code == "ask" and "Your legal name: " in on_im.reply


def test_a_buyer_takes_a_supplier_to_approval_by_email_in_parts(deployment: Deployment) -> None:
    """Answers given over several replies add up; the last stage proposes the welcome email,
    which waits for the administrator's approval under the sender's identity."""
    admin = deployment.users.users[0]

    def email(text: str) -> object:
        return deployment.channels.deliver(
            admin, channel="email", sender="buyer@example.org", query=text
        )

    go_on = "Continue the onboarding of our supplier"
    assert email(go_on).result.agent_name == "CompleteSupplierOnboarding"
    partly = email("The supplier name is Meridian Optics")
    assert partly.result.result_code == "ask"
    assert partly.reply.startswith("Please answer 'Tax id'.")
    rest = email("tax id DE123456789, contact email sales@meridian.example")
    assert rest.answered == {
        "supplier_name": "Meridian Optics",
        "tax_id": "DE123456789",
        "contact_email": "sales@meridian.example",
    }
    assert "stage Due diligence" in rest.reply
    email(go_on)
    checked = email("Our liability cover is 5,000,000 EUR and the sanctions screening is clear")
    assert checked.answered == {"insurance_cover": 5_000_000, "sanctions_clear": "yes"}
    email(go_on)
    assert "stage Approved" in email("IBAN: DE89370400440532013000").reply
    email(go_on)
    done = email("Approve it, my email is mario.hernandez@acme.example")
    assert "Still open: nothing." in done.reply
    assert "The welcome email waits for your approval" in done.reply
    owner = f"email:{done.identity}"
    [action] = deployment.actions.list(admin.account, owner)  # type: ignore[union-attr]
    assert action["status"] == "awaitingApproval"
    assert action["payload"]["to"] == "sales@meridian.example"
    assert "DE123456789" in action["payload"]["body"]


def test_a_reply_reads_the_conversation_once(
    deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state read to see whether a form waits is the one the run goes on from."""
    admin = deployment.users.users[0]
    vault = deployment.account.vault
    reads: list[str] = []
    restore = vault.restore

    def counted(account: str, owner: str, convid: str) -> object:
        reads.append(convid)
        return restore(account, owner, convid)

    monkeypatch.setattr(vault, "restore", counted)
    asked = deployment.channels.deliver(
        admin, channel="email", sender="ann.lee@example.org", query="What's left in my onboarding?"
    )
    assert asked.result.result_code == "ask" and reads == []
    answered = deployment.channels.deliver(
        admin,
        channel="email",
        sender="ann.lee@example.org",
        query="My legal name is Ann Lee, I start on 7 December and I signed the contract",
    )
    assert answered.result.result_code == "success"
    assert reads == [asked.result.convid]
