"""A customer's new contact is reached at their own address: "the new contact is Jane Doe"
changes the email with the name (at the company's domain), unless the request gives one."""

from __future__ import annotations

from handoff_journeys import answer_of, last_tool_result, run_agent, state_of


def _changed(deployment, user, text: str) -> tuple[str, dict]:
    result = run_agent(deployment, user, "UpdateCustomerContact", text, None)
    record = last_tool_result(state_of(deployment, user, result.convid), "UpdateCustomerContact")
    return result.parts[0]["text"], record


def test_a_new_contact_gets_their_own_email_at_the_companys_domain(deployment, user) -> None:
    before = deployment.account.engine.data.lookup(
        "customers", where={"name": "Wayne Enterprises"}
    )[0]
    answer, record = _changed(
        deployment, user, "Add Jane Doe at Wayne Enterprises as a new contact"
    )
    domain = before["email"].rpartition("@")[2]
    assert (record["contact"], record["email"]) == ("Jane Doe", f"jane.doe@{domain}")
    assert before["email"] not in answer
    assert f"the contact on file is now Jane Doe at jane.doe@{domain}" in answer, answer


def test_an_email_the_request_gives_is_the_one_kept(deployment, user) -> None:
    text = "The new contact at Wayne Enterprises is Jane Doe, jane@wayne-ent.example"
    _, record = _changed(deployment, user, text)
    assert (record["contact"], record["email"]) == ("Jane Doe", "jane@wayne-ent.example")


def test_a_person_at_a_customer_who_is_not_its_contact_is_not_replaced_by_it(
    deployment, user
) -> None:
    agent = "UpdateMarketingPreferences"
    text = "Jane Doe at Wayne Enterprises asked us to stop sending her promotions"
    # "Marketing preferences for Rebecca Nguyen (…) at Wayne Enterprises are updated."
    answer = answer_of(deployment, user, agent, text, None)
    assert answer.startswith(
        "Jane Doe is not a contact of Wayne Enterprises on file (its contact is Rebecca Nguyen), "
        "so I changed nothing."
    ), answer
    same = answer_of(
        deployment,
        user,
        agent,
        "Rebecca Nguyen at Wayne Enterprises wants no more promotions",
        None,
    )
    assert same.startswith("Marketing preferences for Rebecca Nguyen "), same
