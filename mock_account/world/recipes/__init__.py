"""One recipe per data source: what a request states, and how the rest is filled."""

from __future__ import annotations

from ..recipe import Recipe
from .commercial import Campaigns, Contracts, Vendors
from .finance import Expenses, Invoices
from .operations import Assets, Incidents, Tickets
from .people import Candidates, Employees
from .sales import Customers, Orders, Products
from .travel import CarRentals, HotelStays, Trips

RECIPES: dict[str, Recipe] = {
    recipe.source: recipe
    for recipe in (
        Trips(),
        HotelStays(),
        CarRentals(),
        Expenses(),
        Invoices(),
        Customers(),
        Orders(),
        Products(),
        Employees(),
        Candidates(),
        Tickets(),
        Incidents(),
        Assets(),
        Contracts(),
        Vendors(),
        Campaigns(),
    )
}

__all__ = ["RECIPES"]
