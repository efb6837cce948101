"""What the three console scripts share: the parser, the error line and the exit codes.

``agents-catalog``, ``mock-account`` and ``loadtests`` (and their sub-tools) all answer bad usage
with one line and exit 2, and turn the errors they expect into one line on stderr and exit 2;
0 means fine, 1 that a check or a threshold failed. It lives in the lowest package, since the
other two import this one.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """argparse that reports bad usage on one line (no usage block) and exits 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def run(prog: str, args: argparse.Namespace, expected: tuple[type[BaseException], ...]) -> int:
    """``args.func(args)``; an ``expected`` error becomes ``prog: message`` and exit 2."""
    try:
        return int(args.func(args))
    except expected as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return EXIT_USAGE


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from exc
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value
