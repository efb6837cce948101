"""The ``mock-account`` command: chat, users, serve, keys, sweep, config and the evaluations."""

from mock_account.cli.commands import build_parser, main

__all__ = ["build_parser", "main"]
