"""``python -m demo_app``: start the Streamlit demo (extra arguments go to ``streamlit run``)."""

from __future__ import annotations

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


def main(argv: list[str] | None = None) -> int:
    app = Path(__file__).resolve().parent / "app.py"
    sys.argv = [
        "streamlit",
        "run",
        str(app),
        *DEFAULTS,
        *(argv if argv is not None else sys.argv[1:]),
    ]
    return int(streamlit_cli.main() or 0)


if __name__ == "__main__":
    sys.exit(main())
