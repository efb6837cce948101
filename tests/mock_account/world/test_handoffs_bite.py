"""The hand-off suite bites: a reader whose conv.* read is removed fails it.

In a temporary copy of the account, each reader below loses what its data command takes
from the saved variable (its `base`, `given` and `where` entries over conv.*); the same
journeys that pass on the real account must then report the reader.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from handoff_journeys import pinned_deployment, run_journey

# (writer, variable, reader): one per way a reader takes a saved value.
MUTATED = [
    ("BookBusinessFlight", "trip", "SubmitExpenseClaim"),  # given: currency, date of the trip
    ("DeclareProductionIncident", "incident", "AnnounceItOutageToStaff"),  # base: the incident
    ("LookUpCustomerAccount", "customer", "ChaseOverdueInvoice"),  # where: the customer's bills
    ("PlaceCustomerOrder", "order", "ReportDamagedDelivery"),  # fixed: the order in the ticket
    ("FindColleagueInDirectory", "employee", "BookTravelForColleague"),  # given: home office
]
ACCOUNT = Path(__file__).resolve().parents[3] / "agents_catalog" / "account"


def _strip_reads(value, variable: str):
    """The value without the entries that refer to conv.<variable>."""
    marker = f"{{conv.{variable}"
    if isinstance(value, dict):
        return {
            k: _strip_reads(v, variable)
            for k, v in value.items()
            if not (isinstance(v, str) and marker in v)
        }
    if isinstance(value, list):
        return [_strip_reads(v, variable) for v in value]
    return value


def _mutate(folder: Path, reader: str, variable: str) -> None:
    path = folder / f"{reader}.yaml"
    agent = yaml.safe_load(path.read_text(encoding="utf-8"))
    for command in agent["main"]:
        if "data" in command:
            command["data"] = _strip_reads(command["data"], variable)
    path.write_text(yaml.safe_dump(agent, sort_keys=False), encoding="utf-8")


@pytest.fixture(scope="module")
def journeys(tmp_path_factory):
    base = tmp_path_factory.mktemp("bite")
    intact = pinned_deployment(base / "intact")
    folder = base / "account"
    shutil.copytree(ACCOUNT, folder)
    for _writer, variable, reader in MUTATED:
        _mutate(folder, reader, variable)
    mutated = pinned_deployment(base / "mutated", account_dir=folder)
    yield intact, mutated
    intact.close()
    mutated.close()


@pytest.mark.parametrize(("writer", "variable", "reader"), MUTATED)
def test_a_reader_without_its_conv_read_fails_the_suite(journeys, writer, variable, reader):
    intact, mutated = journeys
    user = next(u for u in intact.users.users if u.account == "acme")
    assert run_journey(intact, user, writer, reader, variable).problems == []
    caught = run_journey(mutated, user, writer, reader, variable).problems
    assert caught, f"removing {reader}'s read of conv.{variable} went unnoticed"
