"""Data shared by the request-understanding tests: a pinned today and a small business."""

from __future__ import annotations

import datetime as dt

# A Monday; December and January dates around it exercise the year roll-over.
TODAY = dt.date(2026, 11, 30)

NAMES: dict[str, list[str]] = {
    "customer": [
        "Riddle Logistics Inc.",
        "Smith Foods GmbH",
        "Berlin Analytics",
        "Hoffmann Media",
        "Nguyen, Lopez and Clark",
        "Price Robotics S.A.",
    ],
    "vendor": ["Acme Supplies Ltd", "Riddle Logistics GmbH", "Delgado Telecom Group"],
    "employee": ["Anna Schmidt", "John Price", "María López"],
    "candidate": ["Priya Natarajan"],
    "product": ["Aero Office Chair", "Nova Webcam", "Pulse 27-inch Monitor"],
    "service": ["Checkout API", "Payments gateway"],
}
