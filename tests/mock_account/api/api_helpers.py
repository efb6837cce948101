"""Shared by the HTTP API tests: the small agent account and a few conversation steps."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from mock_account.deployment import Deployment
from mock_account.users import User

AGENTS = {
    "BookTrip": """
name: BookTrip
title: Book a business trip
tag: travel
description: Book a flight for a business trip to a city, with the seat you prefer.
examples: ["I need to fly to Berlin next week for the client workshop", "book a trip to Paris"]
main:
  - prompt: {name: chat, user: "{sys.query}"}
  - ask:
      message: Which seat do you prefer?
      inputs:
        - {name: seat, type: chooseOne, label: Seat, options: [aisle, window]}
        - {name: note, type: text, label: Note for the travel desk, default: none}
  - var: {name: conv.trip, value: {destination: Berlin, seat: "{answers.seat}"}}
  - llm:
      prompt: chat
      reply: "Booked your trip to {conv.trip.destination}, {conv.trip.seat} seat."
  - output: "{result}"
  - end: {}
""",
    "FileExpenses": """
name: FileExpenses
title: File travel expenses
tag: finance
description: File the travel expenses of a trip as an expense claim.
examples: ["file my travel expenses for that trip"]
main:
  - prompt: {name: chat, user: "{sys.query}"}
  - if:
      when: {exists: conv.trip}
      then:
        - llm: {prompt: chat, reply: "Expenses filed for your trip to {conv.trip.destination}."}
      else: [{llm: {prompt: chat, reply: "Which trip are these expenses for?"}}]
  - var: {name: conv.expense, value: {trip: "{conv.trip.destination}"}}
  - output: "{result}"
  - end: {}
""",
    "InvoiceStatus": """
name: InvoiceStatus
title: Show the status of an invoice
tag: finance
description: Show the status of the open invoice of a customer.
examples: ["what's the status of the open invoice for that customer"]
main:
  - prompt: {name: chat, user: "{sys.query}"}
  - llm: {prompt: chat, reply: "The open invoice is due at the end of the month."}
  - output: "{result}"
  - end: {}
""",
    "OpenTicket": """
name: OpenTicket
title: Open a support ticket
tag: support
description: Open a support ticket for a customer whose order arrived damaged.
examples: ["open a ticket because the customer's order arrived damaged"]
main:
  - prompt: {name: chat, user: "{sys.query}"}
  - llm: {prompt: chat, reply: "Ticket opened."}
  - output: "{result}"
  - end: {}
""",
    "IssueRefund": """
name: IssueRefund
title: Issue a refund
tag: sales
description: Issue a refund of a payment to a customer.
examples: ["refund the last payment of my customer"]
main:
  - fail: {message: "Refunds need a manager's approval ({sys.query})."}
""",
    "QuarterlyReport": """
name: QuarterlyReport
title: Build the quarterly report
tag: sales
description: Build the quarterly sales report with revenue figures.
examples: ["build the quarterly sales report"]
main:
  - var: {name: conv.report, value: {quarter: Q3}}
  - func: {name: missing_function}
""",
}

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def write_account(folder: Path) -> Path:
    """The agent files above, one per agent, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in AGENTS.items():
        (folder / f"{name}.yaml").write_text(text.lstrip(), encoding="utf-8")
    return folder


def ticking_clock() -> Callable[[], datetime]:
    """A clock that moves one second per reading, so "most recent first" is well defined."""
    ticks = itertools.count()
    return lambda: START + timedelta(seconds=next(ticks))


def token_of(deployment: Deployment, user: User) -> str:
    return next(t.token for t in deployment.users.tokens() if t.user == user)


TRIP = "I need to fly to Berlin next week for the client workshop"


def start_trip(client: TestClient | httpx.Client, seat: str = "aisle") -> str:
    """Ask BookTrip, answer its question; the convid of the finished conversation."""
    asked = client.post(
        "/api/exec/execAgent", json={"agentName": "BookTrip", "inputs": {"query": TRIP}}
    ).json()
    assert asked["resultCode"] == "ask", asked
    done = client.post(
        "/api/exec/execAgent",
        json={"agentName": "BookTrip", "convid": asked["convid"], "inputs": {"seat": seat}},
    ).json()
    assert done["resultCode"] == "success", done
    return str(done["convid"])


def new_conversation(client: TestClient, query: str = "show the open invoice status") -> str:
    reply = client.post(
        "/api/exec/execAgent", json={"agentName": "InvoiceStatus", "inputs": {"query": query}}
    ).json()
    assert reply["resultCode"] == "success", reply
    return str(reply["convid"])
