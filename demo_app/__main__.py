"""``python -m demo_app``: start the Streamlit demo (extra arguments go to ``streamlit run``).

The retention options of ``mock-account serve`` apply to the embedded account too:
``--sweep-interval S`` / ``--no-sweep``, ``--free-days N|none``, ``--paid-days N|none``,
``--idempotency-hours H`` (handed to the app as the ``MOCK_ACCOUNT_*`` variables).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from streamlit.web import cli as streamlit_cli

# Headless: no first-run e-mail prompt on stdin, and the URL is printed to open.
# Loopback by default: the embedded account holds real conversations (pass
# --server.address 0.0.0.0 to share it), and Streamlit then skips its external-IP lookup.
DEFAULTS = [
    "--server.headless",
    "true",
    "--server.address",
    "127.0.0.1",
    "--browser.gatherUsageStats",
    "false",
    "--client.toolbarMode",
    "minimal",
]


def retention_environment(argv: list[str]) -> tuple[dict[str, str], list[str]]:
    """The variables the retention options among ``argv`` set, and the other arguments."""
    from mock_account.cli.server import add_retention_options
    from mock_account.deployment import (
        FREE_DAYS_ENV,
        IDEMPOTENCY_HOURS_ENV,
        PAID_DAYS_ENV,
        SWEEP_INTERVAL_ENV,
    )

    parser = argparse.ArgumentParser(prog="python -m demo_app", add_help=False)
    add_retention_options(parser)
    options, rest = parser.parse_known_args(argv)
    given = vars(options)
    env: dict[str, str] = {}
    if options.no_sweep:
        env[SWEEP_INTERVAL_ENV] = "off"
    elif options.sweep_interval is not None:
        env[SWEEP_INTERVAL_ENV] = repr(options.sweep_interval)
    for option, name in (("free_days", FREE_DAYS_ENV), ("paid_days", PAID_DAYS_ENV)):
        if option in given:
            env[name] = "none" if given[option] is None else repr(given[option])
    if options.idempotency_hours is not None:
        env[IDEMPOTENCY_HOURS_ENV] = repr(options.idempotency_hours)
    return env, rest


def main(argv: list[str] | None = None) -> int:
    app = Path(__file__).resolve().parent / "app.py"
    env, rest = retention_environment(list(argv if argv is not None else sys.argv[1:]))
    os.environ.update(env)
    sys.argv = ["streamlit", "run", str(app), *DEFAULTS, *rest]
    return int(streamlit_cli.main() or 0)


if __name__ == "__main__":
    sys.exit(main())
