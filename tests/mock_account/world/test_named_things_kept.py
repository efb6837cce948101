"""What a request names is what it gets: a brand or model the catalogue lacks is made as typed
or said to be missing, never swapped for a catalogue product; a reference that finds nothing
is said back; a plain amount is kept in the user's currency."""

from __future__ import annotations

from handoff_journeys import last_tool_result, run_agent, state_of


def test_a_brand_the_catalogue_lacks_is_bought_as_typed(deployment, user) -> None:
    agent = "CreatePurchaseRequisition"
    text = "Raise a purchase request for 12 Herman Miller Aeron chairs, around 2,100 each."
    result = run_agent(deployment, user, agent, text, None)
    item = last_tool_result(state_of(deployment, user, result.convid), agent)
    assert item["name"] == "Herman Miller Aeron Chair", item
    assert (item["quantity"], item["price"], item["total"]) == (12, 2100, 25200), item
    # Without a brand, the catalogue's own chair.
    result = run_agent(deployment, user, agent, "We need 20 office chairs", None)
    item = last_tool_result(state_of(deployment, user, result.convid), agent)
    assert "Office Chair" in item["name"], item


def test_a_named_product_the_catalogue_lacks_is_said_to_be_missing(deployment, user) -> None:
    text = "list price for the ProLink 9000 router? and do we have stock in SG"
    answer = run_agent(deployment, user, "CheckProductListPrice", text, None).parts[0]["text"]
    assert answer.startswith("I found no product named ProLink 9000."), answer


def test_a_reference_that_finds_nothing_is_said_back(deployment, user) -> None:
    text = "When does our MSA with Cloudfort Hosting renew? ref MSA-CF-2023-07"
    answer = run_agent(deployment, user, "CheckContractExpiry", text, None).parts[0]["text"]
    assert answer == "I found no contract with Cloudfort Hosting (MSA-CF-2023-07).", answer


def test_a_plain_budget_is_kept_in_the_users_currency(deployment, user) -> None:
    text = "Launch the 'Cloud Ready SEA' campaign on LinkedIn, starting 14 December, budget 35,000."
    launched = run_agent(deployment, user, "LaunchMarketingCampaign", text, None)
    campaign = state_of(deployment, user, launched.convid)["conv"]["campaign"]
    assert campaign["budget"] == 35000, campaign
    raised = run_agent(
        deployment,
        user,
        "ChangeCampaignBudget",
        "Leads are coming in cheap, bump the budget up by another 10k.",
        launched.convid,
    )
    after = state_of(deployment, user, raised.convid)["conv"]["campaign"]
    assert (after["budget"], after["currency"]) == (45000, campaign["currency"]), after


def test_a_relative_given_as_a_contact_is_not_whom_the_record_is_about(deployment, user) -> None:
    text = (
        "My home address will be 28 Jalan Kemuning #05-11, Singapore 769842. Please change my "
        "emergency contact to my sister, Mei Ling Goh, +65 9123 4477."
    )
    answer = run_agent(deployment, user, "UpdatePersonalDetails", text, None).parts[0]["text"]
    assert answer.startswith("Your personal details are updated"), answer
    assert "Mei Ling Goh" in answer and "769842" in answer, answer


def test_a_new_product_is_launched_as_typed(deployment, user) -> None:
    text = (
        "We're launching the Aurora X2 smart thermostat across Southeast Asia on 1 March 2027. "
        "Can you help me plan the go-to-market?"
    )
    answer = run_agent(deployment, user, "PlanProductLaunch", text, None).parts[0]["text"]
    assert answer.startswith("The go-to-market plan for Aurora X2 "), answer


def test_a_room_is_priced_in_its_citys_money_at_that_moneys_rate(deployment, user) -> None:
    text = "Book me a hotel in Jakarta from 18 to 22 December"
    result = run_agent(deployment, user, "BookHotelStay", text, None)
    room = last_tool_result(state_of(deployment, user, result.convid), "BookHotelStay")
    # A night in Jakarta costs hundreds of thousands of rupiah, not its dollar figure.
    assert room["currency"] == "IDR" and room["nightly_rate"] > 100_000, room
