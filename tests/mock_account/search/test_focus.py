"""What search reads of a request: not the reasons given after an edit, not what it rejects, and
an edit only through the thing it edits."""

from __future__ import annotations

import pytest

from agents_catalog.loader import default_account_dir, load_account
from mock_account.search import SearchIndex
from mock_account.search.focus import Edit, edited, focus


@pytest.fixture(scope="module")
def agents():
    return {agent.name: agent for agent in load_account(default_account_dir())}


@pytest.fixture(scope="module")
def index(agents) -> SearchIndex:
    return SearchIndex.build(list(agents.values()))


@pytest.mark.parametrize(
    ("request_text", "read"),
    [
        # A reason after the edit names other things than the one edited.
        ("Make it a van, our field team brings a lot of kit", "Make it a van"),
        ("Bump it to 40 licences, the support team wants in too", "Bump it to 40 licences"),
        # What an edit rejects is not asked for.
        ("Send it to the Leeds depot rather than the office", "Send it to the Leeds depot"),
    ],
)
def test_reasons_and_rejected_alternatives_are_not_searched(request_text: str, read: str) -> None:
    assert focus(request_text).text == read


@pytest.mark.parametrize(
    "request_text",
    [
        # What follows a question says what it is about.
        "could I get Visio on my laptop? I'm taking over the floor plans and they're all in vsd",
        "I need 12 monitors for the Porto team, about 300 EUR each, they're not in the catalogue",
        # What "it" is was said before the ask.
        "the finance team keeps hitting this, please raise it as a defect",
    ],
)
def test_other_requests_are_read_whole(request_text: str) -> None:
    assert focus(request_text).text == request_text


def test_a_change_that_names_nothing_new_and_an_ask_about_it_lean_on_the_conversation() -> None:
    # "instead" with nothing named: a change of what was asked before.
    assert focus("The client wants 40 instead.").edit == Edit(())
    assert focus("Okay, let's have it start on the 9th instead, I'm travelling").edit == Edit(())
    assert focus("Book the train instead.").edit is None
    # A new value said before the edit of "it" is that edit's value, not news about another
    # thing ("5 years" is no thing).
    assert focus("They asked for 5 years instead, change it.").edit == Edit(())
    # A value corrected is a change of what was asked before.
    assert focus("Sorry, I misread the receipt, the total was actually 196.40.").edit == Edit(())
    assert focus("The receipt was actually lost in the taxi.").edit is None
    # News that one of theirs moved, said of "her", "his" or "their" thing.
    assert focus("Her start date just moved to the 11th of January.").edit == Edit(())
    assert focus("His flight got moved to Friday").edit == Edit(())
    assert focus("The office moved to Tampines last year.").edit is None
    assert focus("Correction, it's 3 terminals, not 2.").edit == Edit(())
    assert focus("Sorry, I meant the 12th.").edit == Edit(())
    # What was asked, taken back: news after it does not say what "it" is.
    taken_back = "Scratch that, support is flooded with complaints. Kill it completely."
    assert focus(taken_back).edit == Edit(())
    # An ask about "it" is explained by what follows it, not about it.
    assert focus("Stop it. Finance flagged the pricing in the copy.").text == "Stop it."


def test_an_ask_that_names_its_object_weighs_as_much_as_its_context() -> None:
    said = focus("Kestrel Foods says their portal shows errors. Open an urgent case for them.")
    assert said.ask == "Open an urgent case for them."
    # An ask about "it", or with a vague verb, leans on its context instead.
    assert focus("The invoice total is wrong. Can you fix it?").ask is None
    assert focus("v3.2 broke checkout twenty minutes ago, put 3.1 back").ask is None


def test_an_edit_is_read_with_its_object() -> None:
    assert edited("Move the webinar to Friday at 10") == Edit(("webinar",))
    assert edited("Change the end of that booking to the 9th") == Edit(("end", "booking"))
    assert edited("please push my Oslo trip back a week") == Edit(("oslo", "trip"))
    # "it", "that", and a person's own thing: nothing named here.
    assert edited("Raise it to 90,000 EUR") == Edit(())
    assert edited("Push his start date back to March") == Edit(())
    assert edited("Book a flight to Oslo") is None


def test_search_goes_by_what_an_edit_edits(index: SearchIndex, agents) -> None:
    # An edit of "it" names no agent: the follow-up goes back to the one that answered.
    assert index.search("Make it an estate car instead, we carry a lot of samples") == []
    assert index.search("Push her transfer back to 1 March.") == []
    # "the demo" is a demo: no agent that never mentions one, however well "move" fits it.
    hits = index.search("Move the demo to 16:00 on the same day.")
    assert hits and hits[0].agent_name == "BookProductDemo"
    for hit in hits:
        agent = agents[hit.agent_name]
        said = " ".join((agent.title, agent.description, *agent.examples)).lower()
        assert "demo" in said, hit.agent_name


def test_a_question_is_told_apart_from_a_request_put_as_one() -> None:
    assert focus("Has the Halvard invoice been paid yet?").question
    assert focus("The build is red again. Which commit broke it?").question
    assert not focus("Can you book me a flight to Oslo?").question
    assert not focus("How do I claim my mileage?").question
    assert not focus("Chase Halvard about their invoice").question


def test_a_question_goes_to_an_agent_that_answers_before_one_that_acts(index, agents) -> None:
    hits = index.search("Which release has the fix for the login timeout bug TCK-000123?")
    assert hits and not agents[hits[0].agent_name].acts, hits[:3]
    # Put as a request, the same words go to the agent that acts on them.
    hits = index.search("Ship a hotfix for the login timeout bug TCK-000123")
    assert hits and agents[hits[0].agent_name].acts, hits[:3]


def test_an_imperative_of_doing_is_told_apart_from_one_of_reading() -> None:
    assert focus("Lumen Clinics says their portal is down. Open a case for them.").doing == "open"
    assert focus("Please register Greenleaf as a new supplier").doing == "register"
    assert focus("Show me this week's SLA breaches").doing is None
    assert focus("Has the Halvard invoice been paid yet?").doing is None


def test_something_to_be_done_goes_to_an_agent_that_acts_before_one_that_reports(
    index, agents
) -> None:
    # The backlog report speaks of open cases by priority; opening one is another agent's job.
    hits = index.search("Open a high-priority case for them.")
    assert hits and hits[0].agent_name == "OpenSupportCase", hits[:3]
    hits = index.search("Please register Greenleaf Facility Services as a new supplier, UEN 2019K")
    assert hits and agents[hits[0].agent_name].acts, hits[:3]
    # Asked to be shown, the same queue goes to the agent that reports on it.
    hits = index.search("Show me the high-priority cases open in the queue")
    assert hits and not agents[hits[0].agent_name].acts, hits[:3]


def test_an_edit_is_for_an_agent_that_acts_or_one_about_what_it_edits(index, agents) -> None:
    # Only an agent that merely mentions a "base" (a customer base) would match: none does,
    # so the follow-up goes back to the agent that answered.
    assert index.search("She came back with a counter. Raise the base to 102000.") == []
    hits = index.search("Change my seat to an aisle")
    assert hits and hits[0].agent_name == "ChooseFlightSeat", hits[:3]
    assert all(agents[h.agent_name].acts or "seat" in h.agent_title.lower() for h in hits), hits


def test_a_verb_before_of_is_a_noun_not_an_ask() -> None:
    read = focus("Change of plan, HR says his last day is now Friday the 18th. Bring it forward.")
    assert read.doing == "bring"
    assert read.edit == Edit(())


def test_a_verb_with_no_subject_after_it_opens_news_not_a_question() -> None:
    # "should be back around 1pm" is news whose subject was left out, not a correction of "it"
    read = focus("Teams is down. let everyone know to use Zoom for now, should be back around 1pm")
    assert read.edit is None
    assert read.doing == "let"
    assert focus("should we tell the customers?").question


def test_an_id_before_an_edit_of_them_says_what_them_is() -> None:
    read = focus("PO-55102 with Zhenhua Components is late again. push them")
    assert read.edit is None


def test_a_question_of_where_a_thing_stands_asks_for_its_status() -> None:
    assert focus("Greenleaf is on the phone about CS-48812 — where's it at?").status
    assert focus("did the dispute go through?").status
    assert focus("any update on the Lisbon trip?").status
    assert not focus("where is the Lisbon office?").status
    assert not focus("book me a flight to Lisbon").status


@pytest.mark.parametrize(
    ("text", "side"),
    [
        ("get me three quotes for 60 office chairs", "buy"),
        ("ask for offers from several dealers for a forklift", "buy"),
        ("Send out an RFQ for packaging", "buy"),
        ("Pacifica Retail want a quote for 250 scanners", "sell"),
        ("they called: Lakeside Dental needs 10 more desks", "sell"),
        ("prepare a quote for our client in Lyon", "sell"),
        ("I need 20 standing desks for the Lyon team", None),
        ("book me a flight to Lyon", None),
    ],
)
def test_the_side_of_a_trade_a_request_is_on(text: str, side: str | None) -> None:
    assert focus(text).side == side


def test_several_quotes_for_one_thing_are_asked_of_suppliers(index: SearchIndex) -> None:
    hits = index.search("get me three quotes for 60 ergonomic office chairs")
    assert hits[0].agent_name == "RequestSupplierQuotes", hits[:3]
    hits = index.search("Pacifica Retail want a quote for 250 TX-400 scanners, valid a month")
    assert hits[0].agent_name == "CreateSalesQuote", hits[:3]


def test_not_going_on_with_a_contract_asks_to_end_it(index: SearchIndex) -> None:
    hits = index.search("send them notice that we're not renewing, we're moving to HubSpot")
    assert hits[0].agent_name == "TerminateContract", hits[:3]
    # Asked about, not renewing is a question of the term.
    hits = index.search("when does the Contoso agreement end? by when must we say we won't renew?")
    assert hits[0].agent_name == "CheckContractExpiry", hits[:3]


def test_a_value_added_to_a_field_of_it_edits_that_field(index: SearchIndex) -> None:
    read = edited("add USD 8,000 to its budget")
    assert read == Edit(("budget",)) and read.valued
    hits = index.search("add USD 8,000 to its budget")
    # The agent named for the thing edited, not one whose work only touches it.
    assert hits[0].agent_name == "ChangeCampaignBudget", hits[:3]


def test_back_to_an_earlier_version_is_a_rollback(index: SearchIndex) -> None:
    assert "roll back to 3.14.1" in focus("errors are spiking, go back to 3.14.1").text
    hits = index.search("error rate is spiking since that went out, go back to 3.14.1")
    assert hits[0].agent_name == "RollBackDeployment", hits[:3]


def test_news_of_a_delivery_and_a_flight_number_name_their_agents(index: SearchIndex) -> None:
    hits = index.search("update: they turned up this morning, but only 34 of the 40")
    assert hits[0].agent_name == "RecordGoodsReceipt", hits[:3]
    hits = index.search("is SQ322 to London tonight on time?")
    assert hits[0].agent_name == "TrackFlightStatus", hits[:3]
    read = focus("The Lindqvist deal closed! Lindqvist Bygg AB wants 120 SmartHub X3 units.")
    assert read.side == "sell"


def test_giving_it_a_value_edits_that_field_of_it(index: SearchIndex) -> None:
    read = edited("give it a budget of SGD 30,000")
    assert read == Edit(("budget",)) and read.valued
    # Giving someone something is no edit.
    assert edited("give them access to Figma") is None
    assert edited("give her a call") is None
    hits = index.search("give it a budget of SGD 30,000")
    assert hits[0].agent_name == "ChangeCampaignBudget", hits[:3]


def test_a_verb_and_its_particle_change_it() -> None:
    # "Take it up to 25%", "turn it off": an edit of what was asked before, naming nothing.
    assert focus("Metrics look clean, take it up to 25%.").edit == Edit(())
    assert focus("Scratch that, support is seeing signup loops. Turn it off.").edit == Edit(())
    assert focus("Dial that back to 5%").edit == Edit(())
    # A thing of its own is no edit of "it".
    assert focus("Take the day off tomorrow").edit is None


def test_wanting_a_number_alone_changes_what_was_asked() -> None:
    assert focus("They've come back and want 300 now.").edit == Edit(())
    assert focus("She needs 5.").edit == Edit(())
    assert focus("Acme wants 40 chairs").edit is None


def test_what_is_not_wanted_is_not_searched(index: SearchIndex) -> None:
    read = focus("They don't want a replacement, they'd rather return it for a refund.")
    assert "replacement" not in read.text
    hits = index.search("They don't want a replacement, they'd rather return it for a refund.")
    assert hits[0].agent_name == "StartProductReturn", hits[:3]


def test_a_flight_typed_apart_and_a_percentage_off_name_their_agents(index: SearchIndex) -> None:
    hits = index.search("Is SQ 638 tonight on time?")
    assert hits[0].agent_name == "TrackFlightStatus", hits[:3]
    hits = index.search("Their procurement is pushing back, can we give them 12% off?")
    assert hits[0].agent_name == "ApproveOrderDiscount", hits[:3]
    hits = index.search("Need quotes from at least 3 suppliers for 200 ergonomic chairs.")
    assert hits[0].agent_name == "RequestSupplierQuotes", hits[:3]


def test_an_edit_of_it_to_a_count_of_units_changes_an_order(index: SearchIndex) -> None:
    assert focus("bump that to 55 units").edit == Edit(("units",))
    hits = index.search("bump that to 55 units")
    assert hits[0].agent_name == "AmendOpenOrder", hits[:3]
    # A count of something else is left to the conversation.
    assert index.search("raise it to 12 seats") == []


def test_the_verb_a_request_wants_done_names_its_agent(index: SearchIndex) -> None:
    said = (
        "I want to claim a client dinner with the Halvorsen Marine folks at Burnt Ends on "
        "3 December, total was SGD 486."
    )
    assert focus(said).doing == "claim"
    assert index.search(said)[0].agent_name == "SubmitExpenseClaim"
    # A verb that says how, not what, names no agent alone.
    assert focus("I want to change invoices.amount to numeric in MySQL").doing is None


def test_news_of_a_thing_done_is_for_the_agent_that_deals_with_it(index: SearchIndex) -> None:
    said = "My TR 280 to Ho Chi Minh City tonight just got cancelled and I have a meeting there."
    assert focus(said).done == "cancelled"
    assert index.search(said)[0].agent_name == "RebookCancelledFlight"
    # Asked to do it, the agent that does it.
    assert focus("My flight got cancelled, cancel the hotel too").doing == "cancel"


def test_whoever_wants_a_quote_from_us_buys() -> None:
    assert focus("Had a call with Meridian Foods - they want a quote for 150 seats").side == "sell"


def test_a_list_of_counted_goods_asks_for_them_to_be_ordered(index: SearchIndex) -> None:
    said = "25 reams of A3 paper and 6 packs of sticky notes for the 4th floor by Friday."
    assert focus(said).text.endswith(" order")
    assert index.search(said)[0].agent_name == "OrderOfficeSupplies"
    # A count of nights, days or money is no list of goods.
    assert not focus("3 nights in Osaka from the 14th").text.endswith(" order")
    assert not focus("12 grand for the offsite, is that within budget?").text.endswith(" order")


def test_get_with_a_thing_names_what_to_get(index: SearchIndex) -> None:
    said = "We need 80 standing desks in Jurong. Get quotes from four vendors, due 12 Jan."
    assert focus(said).ask == "Get quotes from four vendors"
    assert index.search(said)[0].agent_name == "RequestSupplierQuotes"
    # "get" with no thing after it still says little.
    assert focus("Our printer is jammed again, get it fixed today").ask is None


def test_the_same_again_for_someone_else_names_no_agent(index: SearchIndex) -> None:
    # What was done before, for another: the agent that did it goes on.
    for said in ("Send the same to their finance lead, mei@orbis.sg", "Do the same for Priya"):
        assert focus(said).edit == Edit(()), said
        assert index.search(said) == [], said


def test_a_thing_left_behind_is_lost_and_a_redo_asks_again(index: SearchIndex) -> None:
    said = "Left my work Pixel 8 in a taxi last night, asset tag SG-MOB-1182."
    assert index.search(said)[0].agent_name == "ReportLostDevice"
    said = "They came back wanting 40 licences instead - redo the quote please."
    assert focus(said).doing == "redo"
    assert index.search(said)[0].agent_name == "CreateSalesQuote"


def test_a_records_noun_before_its_reference_is_no_ask(index: SearchIndex) -> None:
    said = "The delivery to Harbourside Clinic came with a smashed monitor - order SO-61290."
    assert focus(said).doing is None
    assert index.search(said)[0].agent_name == "ReportDamagedDelivery"
    # "order" with a count is still an order to place, and an imperative keeps its reference.
    assert focus("order 20 chairs for the Penang office").doing == "order"
    assert focus("cancel ORD-000123 please").doing == "cancel"


def test_an_edit_is_of_the_last_words_of_its_object_and_of_a_record_named() -> None:
    said = "bump the linkedin year end sale campaign to 12k"
    assert focus(said).edit == Edit(("end", "sale", "campaign"), True)
    assert focus("On order SO-77120, drop the X2 scanners from 30 units to 24").on_record
    assert not focus("Make it an SUV instead").on_record


def test_going_out_to_several_vendors_is_buying() -> None:
    assert focus("We need to go out to at least three vendors for 40 desks").side == "buy"


def test_the_whole_of_what_was_asked_and_news_of_ones_day_moved_name_no_agent() -> None:
    for said in (
        "ok push the whole thing a week later",
        "move the lot to Friday",
        "Update: his last working day has been brought forward to the 11th.",
    ):
        assert focus(said).edit == Edit(()), said
    # The whole of a thing named is that thing.
    assert focus("move the entire offsite to March").edit == Edit(("entire", "offsite"))
