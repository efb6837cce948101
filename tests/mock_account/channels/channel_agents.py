"""The small agent account of the channel tests: agents that remember facts about a sender."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class Clock:
    """A clock that ticks a millisecond per reading and can be moved on."""

    def __init__(self) -> None:
        self.base = T0
        self._ticks = itertools.count()

    def __call__(self) -> datetime:
        return self.base + timedelta(milliseconds=next(self._ticks))

    def advance(self, **delta: float) -> None:
        self.base += timedelta(**delta)


AGENTS = {
    "RememberMyName": """
name: RememberMyName
title: Remember my name
tag: support
description: Remember the name I tell you, so you can greet me by my name later.
examples: ["please remember that my name is Ada", "remember my name"]
main:
  - var: {name: user.name, value: "{sys.inputs.name}"}
  - var: {name: conv.note, value: {said: "{sys.query}"}}
  - output: "I will remember that you are {user.name} (on {sys.channel})."
  - end: {}
""",
    "GreetMe": """
name: GreetMe
title: Greet me by my name
tag: support
description: Say hello and greet me by my name if you know it.
examples: ["hello there, do you know who I am", "say hello to me"]
main:
  - if:
      when: {exists: user.name}
      then: [{output: "Hello again {user.name}, on {sys.channel} as {sys.identity}."}]
      else: [{output: "Hello, I do not know your name yet (on {sys.channel})."}]
  - end: {}
""",
    "TrackParcel": """
name: TrackParcel
title: Track my parcel delivery
tag: support
description: Track where my parcel delivery is and when the courier arrives.
examples: ["where is my parcel", "track my parcel delivery please"]
main:
  - var: {name: conv.parcel, value: {asked: "{sys.query}"}}
  - output: "Your parcel is on its way."
  - end: {}
""",
    "HugeMemory": """
name: HugeMemory
title: Store a huge note
tag: support
description: Store an enormous oversized note about me forever.
examples: ["store an enormous oversized note about me"]
main:
  - var: {name: user.blob, value: "{sys.inputs.blob}"}
  - output: "stored"
  - end: {}
""",
}


def write_channel_account(folder: Path) -> Path:
    for name, text in AGENTS.items():
        (folder / f"{name}.yaml").write_text(text.lstrip(), encoding="utf-8")
    return folder
