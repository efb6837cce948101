"""``python -m mock_account.cli``: the ``mock-account`` command."""

import sys

from mock_account.cli.commands import main

sys.exit(main())
