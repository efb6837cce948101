"""The small agent account of the HTTP tests: six agents that reach every result code.

BookTrip asks and then saves ``conv.trip``; FileExpenses reads it (a hand-off); IssueRefund
fails on purpose and QuarterlyReport breaks (calls a missing function). Tests of the server
use these instead of the generated 200-agent account, so a change of content never breaks them.
"""

from __future__ import annotations

from pathlib import Path

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


def write_account(folder: Path) -> Path:
    """The agent files of ``AGENTS``, one per agent, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in AGENTS.items():
        (folder / f"{name}.yaml").write_text(text.lstrip(), encoding="utf-8")
    return folder
