"""What an agent made in a conversation is not made twice: asked again for the same thing
(a follow-up that matched no other agent goes back to it), it says what it already made
instead of billing the order or booking the trip a second time; asked for something else,
it makes that."""

from __future__ import annotations

import pytest
from handoff_journeys import routed_answer, run_agent, state_of

from mock_account.world.recipe import shown_money

ORDER = "Our customer Orion Retail wants 20 standing desks"
TRIP = "Book me a flight to Lisbon on 14 December, back on the 18th"


def test_a_question_after_an_invoice_does_not_bill_the_order_twice(deployment, user) -> None:
    placed = run_agent(deployment, user, "PlaceCustomerOrder", ORDER, None)
    convid = placed.convid
    agent, billed = routed_answer(deployment, user, "Invoice them for that order", convid)
    assert agent == "CreateCustomerInvoice" and billed.startswith("I raised invoice"), billed
    conv = state_of(deployment, user, convid)["conv"]
    invoice, order = conv["invoice"], conv["order"]
    assert order["currency"] == "GBP" and invoice["amount"] == order["total"]
    # "pay" names no agent clearly: the follow-up goes back to the invoicing agent.
    agent, again = routed_answer(deployment, user, "When will they pay?", convid)
    assert agent == "CreateCustomerInvoice"
    assert again.startswith(
        # In the British customer's pounds, as their order is.
        f"Invoice {invoice['number']} to Orion Retail for "
        f"{shown_money(order['total'], 'GBP')} is already raised in this "
        f"conversation, due on {invoice['due_date']}, so I did not bill it twice."
    ), again
    assert state_of(deployment, user, convid)["conv"]["invoice"] == invoice


def test_the_same_trip_asked_again_is_not_booked_twice(deployment, user) -> None:
    booked = run_agent(deployment, user, "BookBusinessFlight", TRIP, None)
    trip = state_of(deployment, user, booked.convid)["conv"]["trip"]
    again = run_agent(deployment, user, "BookBusinessFlight", TRIP, booked.convid)
    assert again.parts[0]["text"].startswith(
        f"Your trip to Lisbon (2026-12-14 to 2026-12-18) is already booked on flight "
        f"{trip['flight']} in this conversation, so I did not book it twice"
    ), again.parts
    assert state_of(deployment, user, booked.convid)["conv"]["trip"] == trip
    # Another destination is another trip.
    porto = run_agent(
        deployment, user, "BookBusinessFlight", "Book me a flight to Porto", booked.convid
    )
    assert porto.parts[0]["text"].startswith("I booked flight"), porto.parts
    assert state_of(deployment, user, booked.convid)["conv"]["trip"]["destination"] == "Porto"


def test_a_hotel_asked_for_after_a_flight_is_booked_by_the_hotel_agent(deployment, user) -> None:
    booked = run_agent(deployment, user, "BookBusinessFlight", TRIP, None)
    agent, text = routed_answer(deployment, user, "I also need a hotel there", booked.convid)
    assert agent == "BookHotelStay"
    assert "in Lisbon" in text and "from 2026-12-14 to 2026-12-18" in text, text


def test_a_question_about_a_ticket_opens_no_second_ticket(deployment, user) -> None:
    opened = run_agent(deployment, user, "ReportBrokenLaptop", "My laptop screen is cracked", None)
    ticket = state_of(deployment, user, opened.convid)["conv"]["ticket"]
    agent, text = routed_answer(deployment, user, "When will it arrive?", opened.convid)
    assert agent == "ReportBrokenLaptop"
    assert text.startswith(
        f"Ticket {ticket['id']} ({ticket['priority']} priority) is already "
        f"open in this conversation, assigned to {ticket['assignee']}"
    ), text
    assert state_of(deployment, user, opened.convid)["conv"]["ticket"] == ticket
    # Another problem is another ticket.
    other = run_agent(
        deployment, user, "ReportBrokenLaptop", "My keyboard is broken too", opened.convid
    )
    assert other.parts[0]["text"].startswith("I opened repair ticket"), other.parts


def test_a_question_about_a_declared_incident_asks_nothing_again(deployment, user) -> None:
    declared = run_agent(
        deployment, user, "DeclareProductionIncident",
        "The checkout page is down for all customers, sev1", None,
    )  # fmt: skip
    incident = state_of(deployment, user, declared.convid)["conv"]["incident"]
    result = deployment.account.exec_agent(
        user, "DeclareProductionIncident", {"query": "What's the status?"}, declared.convid
    )
    assert result.result_code == "success", result.ask_input
    assert result.parts[0]["text"].startswith(
        f"Incident {incident['id']} ({incident['service']}, sev1), declared in this "
        f"conversation, is {incident['status']}, so I did not declare it twice"
    ), result.parts


HIRED = "We hired Kwame Varga as a data analyst, he starts on 4 January"


def test_a_new_hires_laptop_is_theirs_and_not_reserved_twice(deployment, user) -> None:
    # A device is held in no conversation variable: what the agent made is its own last record.
    first = run_agent(deployment, user, "SetUpNewHireEquipment", HIRED, None)
    text = first.parts[0]["text"]
    assert " for Kwame Varga " in text and "for their first day on 2027-01-04." in text
    tag = text.split()[2]
    again = run_agent(deployment, user, "SetUpNewHireEquipment", "Order him a laptop", first.convid)
    assert again.parts[0]["text"].startswith(f"Kwame Varga already has {tag} ")
    mine = run_agent(deployment, user, "SetUpNewHireEquipment", "I need a laptop too", first.convid)
    assert f" for {user.name} " in mine.parts[0]["text"]


def test_access_for_him_is_not_given_to_the_user(deployment, user) -> None:
    first = run_agent(deployment, user, "SetUpNewHireEquipment", HIRED, None)
    access = deployment.account.exec_agent(
        user, "RequestAppAccess", {"query": "Give him access to Salesforce"}, first.convid
    )
    while access.result_code == "ask":
        access = deployment.account.exec_agent(
            user,
            "RequestAppAccess",
            {"systems": ["Salesforce"], "reason": "new role"},
            access.convid,
        )
    text = access.parts[0]["text"]
    assert text.startswith("Who is it for? Tell me their name") and user.name not in text


@pytest.mark.parametrize(
    ("request_text", "asked"),
    [
        ("Order him a laptop", "Who is it for? Tell me their name"),
        (
            "Set up equipment and an email account for the person we just hired",
            "Who is the new starter? Tell me their name",
        ),
    ],
)
def test_a_new_starters_laptop_nobody_names_is_asked_for(
    deployment, user, request_text, asked
) -> None:
    result = run_agent(deployment, user, "SetUpNewHireEquipment", request_text, None)
    text = result.parts[0]["text"]
    assert text.startswith(asked) and user.name not in text, text
    assert "reserved" not in text, text


def test_a_follow_up_about_the_lost_phone_is_about_that_phone(deployment, user) -> None:
    lost = run_agent(deployment, user, "ReportLostDevice", "I lost my company phone", None)
    first = lost.parts[0]["text"]
    assert "(iPhone" in first or "(Pixel" in first or "(Galaxy" in first, first
    tag = first.split()[2]
    again = run_agent(deployment, user, "ReportLostDevice", "Get me a new one", lost.convid)
    assert again.parts[0]["text"].startswith(f"I locked {tag} "), again.parts
    laptop = run_agent(deployment, user, "ReportLostDevice", "I lost my laptop too", lost.convid)
    text = laptop.parts[0]["text"]
    assert text.startswith("I locked AST-") and tag not in text.split(" (")[0], text


def test_a_device_refused_as_made_already_is_still_not_reserved_again(deployment, user) -> None:
    # The run that said "did not reserve a second laptop" made nothing; the laptop made before
    # it is still the one this agent made here, so a later question does not reserve another.
    agent = "SetUpNewHireEquipment"
    first = run_agent(deployment, user, agent, "Order a laptop for Tomas Novak", None)
    made = first.parts[0]["text"]
    assert made.startswith("I reserved AST-"), made
    tag = made.split()[2]
    for query in ("Set up his accounts", "When does he start?"):
        again = run_agent(deployment, user, agent, query, first.convid)
        assert again.parts[0]["text"].startswith(f"Tomas Novak already has {tag} ("), (
            query,
            again.parts,
        )


def test_a_question_after_a_requisition_names_what_it_holds(deployment, user) -> None:
    agent = "CreatePurchaseRequisition"
    raised = run_agent(deployment, user, agent, "We need 20 office chairs for the new office", None)
    made = raised.parts[0]["text"]
    assert made.startswith("I raised a purchase requisition for 20 x "), made
    chair, total = made.split(" x ", 1)[1].split(" at about ")
    again = run_agent(deployment, user, agent, "When will they arrive?", raised.convid)
    assert again.parts[0]["text"].startswith(
        f"That is already done in this conversation: 20 x {chair}, {total.split(' and ')[0]} in "
        "all. I did not do it twice"
    ), again.parts


def test_a_question_after_a_claim_says_where_the_claim_stands(deployment, user) -> None:
    agent = "SubmitExpenseClaim"
    claimed = run_agent(deployment, user, agent, "I paid 45 EUR for a taxi on 3 November", None)
    claim = state_of(deployment, user, claimed.convid)["conv"]["expense"]
    again = run_agent(deployment, user, agent, "Who approves it?", claimed.convid)
    assert again.parts[0]["text"].startswith(
        f"Your {claim['category']} claim {claim['id']} of 45 EUR from 2026-11-03 is already "
        "submitted in this conversation and waits for your manager's approval"
    ), again.parts
    assert state_of(deployment, user, claimed.convid)["conv"]["expense"] == claim


def test_a_room_asked_for_again_is_described_and_how_to_change_it_said(deployment, user) -> None:
    agent = "BookHotelStay"
    request = "Book me a hotel in London from 8 to 10 December"
    booked = run_agent(deployment, user, agent, request, None)
    room = booked.parts[0]["text"]
    assert room.startswith("I reserved a room at "), room
    hotel = room.removeprefix("I reserved a room at ").split(" in London")[0]
    again = run_agent(deployment, user, agent, request, booked.convid)
    assert again.parts[0]["text"].startswith(
        f"A room at {hotel} in London from 2026-12-08 to 2026-12-10 (2 nights at "
    ), again.parts
    # A stay is changed by saying how (``test_moved_bookings``), not booked a second time.
    assert 'To change it, say how: "move it to the 18th"' in again.parts[0]["text"]


def test_an_incident_asked_for_it_again_is_not_declared_twice(deployment, user) -> None:
    agent = "DeclareProductionIncident"
    text = "We rolled back the payments service deploy because checkout latency spiked"
    declared = run_agent(deployment, user, agent, text, None)
    incident = state_of(deployment, user, declared.convid)["conv"]["incident"]
    # It asked the form again and declared a second incident, for a service picked at
    # random ("Email delivery").
    again = deployment.account.exec_agent(
        user, agent, {"query": "Open an incident for it"}, declared.convid
    )
    assert again.result_code == "success" and again.ask_input is None, again.ask_input
    assert again.parts[0]["text"].startswith(
        f"Incident {incident['id']} ({incident['service']}, {incident['severity']}), declared in "
        "this conversation, is investigating, so I did not declare it twice"
    ), again.parts
    assert state_of(deployment, user, declared.convid)["conv"]["incident"] == incident
    # Another outage is another incident.
    other = run_agent(
        deployment, user, agent, "The search service is down for everyone", declared.convid
    )
    assert other.parts[0]["text"].startswith("I declared incident "), other.parts


def test_a_question_that_starts_with_can_i_opens_no_second_ticket(deployment, user) -> None:
    agent = "ReportBrokenLaptop"
    opened = run_agent(deployment, user, agent, "My laptop screen is cracked", None)
    ticket = state_of(deployment, user, opened.convid)["conv"]["ticket"]
    # No agent lends laptops: the follow-up goes back to the repair agent, which opened a
    # second repair ticket for the same screen.
    routed, _ = deployment.account.route(
        user, "Can I get a loaner while it's repaired?", opened.convid
    )
    assert routed == agent
    again = run_agent(
        deployment, user, agent, "Can I get a loaner while it's repaired?", opened.convid
    )
    assert again.parts[0]["text"].startswith(
        f"Ticket {ticket['id']} ({ticket['priority']} priority) is already open in this "
        "conversation"
    ), again.parts
    assert state_of(deployment, user, opened.convid)["conv"]["ticket"] == ticket


def test_accessories_ordered_by_the_number_are_ordered_and_recalled_as_many(
    deployment, user
) -> None:
    agent = "OrderDeskAccessories"
    ordered = run_agent(deployment, user, agent, "Order 3 monitors for Anna Kowalski", None)
    text = ordered.parts[0]["text"]
    # It said "I ordered the accessory" for three monitors.
    assert text.startswith("I ordered 3 monitors (") and " for Anna Kowalski, tracked as AST-" in (
        text
    ), text
    again = run_agent(deployment, user, agent, "When will they arrive?", ordered.convid)
    assert again.parts[0]["text"].startswith("The 3 monitors for Anna Kowalski ("), again.parts
    one = run_agent(deployment, user, agent, "I'd like a second monitor for my desk", None)
    assert one.parts[0]["text"].startswith("I ordered a monitor ("), one.parts


def test_more_of_what_was_ordered_changes_the_order(deployment, user) -> None:
    agent = "OrderDeskAccessories"
    ordered = run_agent(deployment, user, agent, "Order 3 monitors", None)
    said = ordered.parts[0]["text"]
    model, tag = said.split(" (")[1].split(")")[0], said.split("tracked as ")[1].rstrip(".")
    # "Add 5 more" ordered one monitor more, under a new tag.
    routed, text = routed_answer(deployment, user, "Add 5 more", ordered.convid)
    assert routed == agent
    assert text.startswith(
        f"I changed your order as asked: 8 monitors ({model}) for {user.name}, tracked as {tag}."
    ), text
    routed, text = routed_answer(deployment, user, "Make it 6", ordered.convid)
    assert text.startswith(f"I changed your order as asked: 6 monitors ({model})"), text


def test_an_incident_made_a_sev1_is_the_same_incident_at_sev1(deployment, user) -> None:
    agent = "DeclareProductionIncident"
    declared = deployment.account.exec_agent(
        user, agent, {"query": "Declare a sev2 incident: the customer portal is slow"}, None
    )
    assert declared.result_code == "ask", declared.parts
    answered = deployment.account.exec_agent(
        user,
        agent,
        {"severity": "sev2", "impact": "Portal pages take 30 s to load"},
        declared.convid,
    )
    incident = state_of(deployment, user, answered.convid)["conv"]["incident"]
    for request_text in ("Upgrade it to sev1", "Make it a sev1"):
        # "Upgrade" went to the flight seat agent ("Which trip?"), "Make it a sev1" to the
        # supplier quotes; back at this agent, it asked the form again for a second incident.
        routed, _ = deployment.account.route(user, request_text, answered.convid)
        assert routed == agent, (request_text, routed)
    raised = deployment.account.exec_agent(
        user, agent, {"query": "Make it a sev1"}, answered.convid
    )
    assert raised.result_code == "success" and raised.ask_input is None, raised.ask_input
    text = raised.parts[0]["text"]
    # Said as the change it is: "I declared incident … and opened the incident channel" read
    # as a second incident.
    assert text.startswith(
        f"Incident {incident['id']} for Customer portal is now at severity sev1; the incident "
        "channel stays open."
    ), text
    # What is broken is what was said of it, not the request that raised it.
    assert "What is broken: Portal pages take 30 s to load." in text, text
    assert state_of(deployment, user, answered.convid)["conv"]["incident"] == {
        **incident,
        "severity": "sev1",
    }
    # A sev1 on another service is another incident.
    other = run_agent(
        deployment, user, agent, "Declare a sev1 incident for the VPN gateway too", answered.convid
    )
    assert " for VPN gateway at severity sev1" in other.parts[0]["text"], other.parts


def test_a_follow_up_that_says_nothing_broken_declares_no_second_incident(deployment, user) -> None:
    agent = "DeclareProductionIncident"
    text = "The checkout service is returning 500s for everyone, sev1"
    declared = run_agent(deployment, user, agent, text, None)
    incident = state_of(deployment, user, declared.convid)["conv"]["incident"]
    # It asked the form again ("What is broken: Let our customers know") for a second one.
    for follow_up in ("Let our customers know", "Who's on call?"):
        again = deployment.account.exec_agent(user, agent, {"query": follow_up}, declared.convid)
        assert again.result_code == "success" and again.ask_input is None, again.ask_input
        assert again.parts[0]["text"].startswith(f"Incident {incident['id']} "), again.parts
    assert state_of(deployment, user, declared.convid)["conv"]["incident"] == incident
    # Something else broken is another incident.
    other = deployment.account.exec_agent(
        user, agent, {"query": "The search service is down too"}, declared.convid
    )
    assert other.result_code == "ask", other.parts


def test_a_question_about_the_order_placed_here_says_what_it_is(deployment, user) -> None:
    placed = run_agent(deployment, user, "PlaceCustomerOrder", ORDER, None)
    order = state_of(deployment, user, placed.convid)["conv"]["order"]
    # It matches no agent by its words: the agent that placed the order answers.
    agent, text = routed_answer(deployment, user, "What did they order?", placed.convid)
    assert agent == "PlaceCustomerOrder"
    # It said "This conversation already has order ORD-…", and not what the order was.
    assert text.startswith(
        f"Order {order['id']} was placed in this conversation: {order['quantity']} x "
        f"{order['product']} for {shown_money(order['total'], order['currency'])}, "
        "status placed, so I did not place a second one"
    ), text
    assert state_of(deployment, user, placed.convid)["conv"]["order"] == order


def test_a_replacement_asked_after_a_damaged_delivery_opens_no_second_ticket(
    deployment, user
) -> None:
    opened = run_agent(
        deployment, user, "ReportDamagedDelivery", "Our order ORD-000021 arrived damaged", None
    )
    ticket = state_of(deployment, user, opened.convid)["conv"]["ticket"]
    agent, text = routed_answer(deployment, user, "Send them a replacement", opened.convid)
    # It went to the field technician agent ("Which customer?"); then, routed back here, it
    # opened a second ticket titled "Send them a replacement".
    assert agent == "ReportDamagedDelivery"
    assert text.startswith(f"Ticket {ticket['id']} (normal priority) is already open"), text
    assert state_of(deployment, user, opened.convid)["conv"]["ticket"] == ticket
    # Another problem is another ticket.
    other = run_agent(
        deployment,
        user,
        "ReportDamagedDelivery",
        "Also two chairs are missing from that delivery",
        opened.convid,
    )
    assert other.parts[0]["text"].startswith("I opened ticket "), other.parts


def test_a_new_hires_laptop_follows_the_start_date_moved(deployment, user) -> None:
    first = run_agent(
        deployment,
        user,
        "SetUpNewHireEquipment",
        "Aisha Rahman joins on the 4th of January, please get her a laptop",
        None,
    )
    said = "Her start date just moved to the 11th of January."
    agent, moved = routed_answer(deployment, user, said, first.convid)
    assert agent == "SetUpNewHireEquipment"
    tag = first.parts[0]["text"].split("reserved ", 1)[1].split(" ", 1)[0]
    assert moved.startswith(f"I reserved {tag} "), moved
    assert "first day on 2027-01-11" in moved, moved
