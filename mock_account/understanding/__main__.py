"""`python -m mock_account.understanding "text" [--today YYYY-MM-DD] [--names FILE] [--describe]`:
print the facts of one request as JSON (or as a short summary). Exit 2 on bad arguments."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .extract import extract_facts
from .facts import describe


def _date(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {value!r}") from None


def _names(value: str) -> dict[str, list[str]]:
    """A JSON file {"customer": ["Riddle Logistics Inc.", ...], ...}."""
    try:
        data: Any = json.loads(Path(value).read_text(encoding="utf-8"))
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot read {value}: {exc.strerror}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise argparse.ArgumentTypeError(f"{value} is not JSON: {exc}") from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, list) and all(isinstance(n, str) for n in v)
        for k, v in data.items()
    ):
        raise argparse.ArgumentTypeError(f"{value} must map each kind to a list of names")
    return data


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mock_account.understanding",
        description="Print the facts a request states (dates, places, amounts, ids...) as JSON.",
    )
    parser.add_argument("text", nargs="+", help="the request (several words are joined)")
    parser.add_argument(
        "--today",
        type=_date,
        default=None,
        help="the day relative dates count from (default: the real date)",
    )
    parser.add_argument(
        "--names", type=_names, default=None, help='JSON file {"customer": [names...], ...}'
    )
    parser.add_argument("--describe", action="store_true", help="a short summary instead of JSON")
    args = parser.parse_args(argv)
    text = " ".join(args.text)
    # The command line is the one place that may read the clock; the extractor never does.
    today = args.today or dt.date.today()
    facts = extract_facts(text, today, names=args.names)
    if args.describe:
        print(describe(facts))
    else:
        print(json.dumps(facts.to_dict(), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
