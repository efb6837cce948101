"""A record named by its number and by the party it is with is worked on only when the two
agree: "Lakeside Dental was double charged on INV-000003" is not answered with a credit note
to Nordic Steel, whose invoice it is."""

from __future__ import annotations

from handoff_journeys import run_agent


def _of(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _invoice(deployment, number: str) -> dict:
    return deployment.account.engine.world.data.lookup("invoices", where={"number": number})[0]


def test_an_invoice_of_another_customer_is_not_corrected(deployment, user) -> None:
    invoice = _invoice(deployment, "INV-000003")
    customers = [c["name"] for c in deployment.account.engine.world.data.records("customers")]
    other = next(name for name in customers if name != invoice["party"] and " " in name)
    text = f"Customer {other} says they were double charged on invoice INV-000003"
    answer = run_agent(deployment, user, "CorrectInvoiceError", text, None)
    assert answer.parts[0]["text"].startswith(
        f"Invoice INV-000003 is {_of(invoice['party'])}, not {_of(other)}; tell me the number of"
    ), answer.parts
    # Said with its own customer, it is worked on.
    own = f"{invoice['party']} says they were double charged on invoice INV-000003"
    fixed = run_agent(deployment, user, "CorrectInvoiceError", own, answer.convid)
    assert fixed.parts[0]["text"].startswith("I issued a credit note against invoice INV-000003")


def test_a_question_about_a_saved_invoice_with_another_party_says_whose_it_is(
    deployment, user
) -> None:
    invoice = _invoice(deployment, "INV-000003")
    agent = "CheckInvoicePaymentStatus"
    first = run_agent(deployment, user, agent, "What is the status of invoice INV-000003?", None)
    assert first.parts[0]["text"].startswith("Invoice INV-000003 ("), first.parts
    customers = [c["name"] for c in deployment.account.engine.world.data.records("customers")]
    other = next(name for name in customers if name != invoice["party"] and " " in name)
    again = run_agent(
        deployment, user, agent, f"Is invoice INV-000003 from {other} paid?", first.convid
    )
    assert again.parts[0]["text"].startswith(
        f"Invoice INV-000003 is {_of(invoice['party'])}, not {_of(other)};"
    ), again.parts
