"""The mock business data (Faker, seeded) that agents look up with the ``data`` command."""

from mock_account.business.data import SOURCES, BusinessData

__all__ = ["SOURCES", "BusinessData"]
