"""A customer opened in the conversation is who the form said: in the country of its contact's
address or of its sales region, quoted in its currency, named on its orders, and described
when asked about. Before, a customer opened for EMEA at a .de address was in Singapore (the
user's office), quoted in Singapore dollars, and its order was "for CUS-23671"."""

from __future__ import annotations

import pytest
from handoff_journeys import run_agent, state_of

from mock_account.world.recipe import USD_PER_UNIT, shown_money

OPEN = "Set up Nova Robotics as a new customer"


def _opened(deployment, user, email: str, region: str = "EMEA") -> tuple[str, dict]:
    account = deployment.account
    asked = account.exec_agent(user, "OpenNewCustomerAccount", {"query": OPEN}, None)
    answers = {"company_name": "Nova Robotics", "region": region, "contact_email": email}
    opened = account.exec_agent(user, "OpenNewCustomerAccount", answers, asked.convid)
    assert opened.success, opened.error
    return opened.convid, state_of(deployment, user, opened.convid)["conv"]["customer"]


@pytest.mark.parametrize(
    ("email", "region", "country"),
    [
        ("lena.vogel@novarobotics.de", "EMEA", "Germany"),
        ("lena.vogel@novarobotics.se", "North America", "Sweden"),  # the address says more
        ("lena.vogel@novarobotics.com", "Latin America", "Brazil"),
        ("lena.vogel@novarobotics.io", "North America", "United States"),  # .io is no place
    ],
)
def test_a_new_customer_is_where_its_address_or_region_says(
    deployment, user, email: str, region: str, country: str
) -> None:
    _, customer = _opened(deployment, user, email, region)
    assert customer["country"] == country and customer["contact"] == "Lena Vogel"


def test_a_customer_opened_here_is_quoted_in_its_currency_and_named_on_its_order(
    deployment, user
) -> None:
    convid, customer = _opened(deployment, user, "lena.vogel@novarobotics.de")
    run_agent(deployment, user, "CreateSalesQuote", "Get me a quote for 5 laptops for them", convid)
    quote = state_of(deployment, user, convid)["conv"]["quote"]
    assert quote["currency"] == "EUR" and quote["customer"] == "Nova Robotics"
    placed = run_agent(deployment, user, "PlaceCustomerOrder", "Turn it into an order", convid)
    assert placed.parts[0]["text"].startswith("Order ORD-"), placed.parts
    assert (
        f" for Nova Robotics is placed: 5 x Laptop for {shown_money(quote['total'], 'EUR')}"
        in (placed.parts[0]["text"])
    )


def test_asked_about_it_the_account_opened_says_who_it_is(deployment, user) -> None:
    convid, customer = _opened(deployment, user, "lena.vogel@novarobotics.de")
    text = run_agent(
        deployment, user, "OpenNewCustomerAccount", "Who is their contact?", convid
    ).parts[0]["text"]
    assert text.startswith(
        f"The customer account {customer['id']} for Nova Robotics is the one in this "
        "conversation, with Lena Vogel (lena.vogel@novarobotics.de) as its contact, in Germany"
    ), text


def test_goods_the_catalogue_lacks_are_priced_as_such_and_alike_everywhere(
    deployment, user
) -> None:
    # A laptop was priced like any unknown thing (76 SGD), and each agent drew its own price.
    one = run_agent(deployment, user, "CreateSalesQuote", "Get me a quote for 20 laptops", None)
    two = run_agent(deployment, user, "CreateSalesQuote", "Price 3 laptops for us", None)
    first = state_of(deployment, user, one.convid)["conv"]["quote"]
    second = state_of(deployment, user, two.convid)["conv"]["quote"]
    assert first["sku"] == second["sku"] and first["price"] == second["price"]
    usd = first["price"] * USD_PER_UNIT.get(first["currency"], 1.0)
    assert 840 <= usd <= 2420, first  # 850 to 2,400 dollars, as prices are rounded
