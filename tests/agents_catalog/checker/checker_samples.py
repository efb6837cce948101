"""Sample agent texts shared by the checker tests (imported by name, not a fixture)."""

from __future__ import annotations

from agents_catalog.checker import select_rules

# Six header lines: the first command of `main` is on line 7.
HEADER = """\
name: BookBusinessTrip
title: Book a business trip
tag: travel
description: Books flights and hotels for business trips.
version: "1.0.0"
main:
"""

VALID_AGENT = """\
name: BookBusinessTrip
title: Book a business trip
tag: travel
description: Books flights and hotels for business trips.
examples: [I need to fly to Berlin next Tuesday]
version: "1.0.0"
main:
  - prompt:
      {name: chat, scope: conversation, system: "You book business trips.", user: "{sys.query}"}
  - data: {source: flights, match: "{sys.query}", into: record, prompt: chat}
  - var:
      name: conv.trip
      value:
        {destination: "{record.destination}", start_date: "{record.start_date}",
         end_date: "{record.end_date}"}
  - if:
      when: {exists: conv.employee}
      then: [{var: {name: traveller, value: "{conv.employee.name}"}}]
  - llm: {prompt: chat, reply: "Booked {conv.trip.destination}."}
  - output: "{result}"
  - end: {}
"""

# Writes conv.employee and reads conv.trip: with it, VALID_AGENT's hand-offs are complete.
HR_AGENT = """\
name: FindColleague
title: Find a colleague
tag: hr
description: Finds a colleague in the directory.
main:
  - prompt: {name: chat, user: "{sys.query}"}
  - data: {source: employees, match: "{sys.query}", into: record}
  - var: {name: conv.employee, value: {id: "{record.id}", name: "{record.name}"}}
  - llm: {prompt: chat, reply: "Found {record.name}; trip {conv.trip.destination}."}
  - end: {}
"""

# Rules that need nothing but the file (the hand-off rules depend on the account), less the
# ones about a whole agent (the standard prompt, an agreed variable for the trip its name is
# about), which the samples' fragments would trip: they have tests of their own.
LOCAL_RULES = select_rules(None, "NS006,NS007,NS027,NS028")
