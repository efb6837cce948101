"""Who the simulated users are: the bearer tokens they send, and keeping those tokens out of sight.

A run against a real account gives one token per line in a file (``loadtests run --tokens FILE``,
``LOADTEST_TOKENS_FILE`` in the Locust processes); the users take them in turn, across every
worker process, so the load is many users' and not one's. ``LOADTEST_TOKEN`` gives a single
token; without either, every user is the embedded account's first mock user.

A token is a secret: no message of this module quotes one, and :func:`redact` takes them out of
any text a server sent back before it goes into a report.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from loadtests.settings import env_int

TOKENS_FILE_ENV = "LOADTEST_TOKENS_FILE"
TOKEN_ENV = "LOADTEST_TOKEN"
SEED_ENV = "LOADTEST_SEED"
REDACTED = "[token]"
# Far above any bearer token in use; a longer line is a file of something else.
MAX_TOKEN_CHARS = 4096


class IdentityError(ValueError):
    """The tokens cannot be used (the message never quotes a token)."""


def read_tokens_file(path: Path) -> list[str]:
    """The tokens of a file: one per line; blank lines and lines starting with ``#`` are skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise IdentityError(f"{path}: the tokens file is not UTF-8 text") from exc
    except OSError as exc:
        raise IdentityError(
            f"{path}: cannot read the tokens file: {exc.strerror or exc.__class__.__name__}"
        ) from exc
    tokens = []
    for number, line in enumerate(text.splitlines(), start=1):
        token = line.strip()
        if not token or token.startswith("#"):
            continue
        if any(character.isspace() for character in token):
            raise IdentityError(
                f"{path}, line {number}: a token has no spaces in it; give one token per line"
            )
        if len(token) > MAX_TOKEN_CHARS:
            raise IdentityError(
                f"{path}, line {number}: longer than {MAX_TOKEN_CHARS} characters, not a token"
            )
        tokens.append(token)
    if not tokens:
        raise IdentityError(f"{path}: no token in it; give one bearer token per line")
    return tokens


@functools.cache
def bearer_tokens() -> tuple[str, ...]:
    """The tokens of this run, read once per process (generating the mock users takes a while)."""
    file = os.environ.get(TOKENS_FILE_ENV)
    if file:
        return tuple(read_tokens_file(Path(file)))
    token = os.environ.get(TOKEN_ENV, "").strip()
    if token:
        return (token,)
    from mock_account.users import UserDirectory

    return (UserDirectory.generate(env_int(SEED_ENV, 7)).tokens()[0].token,)


def token_for(user_number: int) -> str:
    """The token of the run's ``user_number``-th simulated user: the tokens taken in turn."""
    tokens = bearer_tokens()
    return tokens[user_number % len(tokens)]


def redact(text: str) -> str:
    """``text`` with every token of this run replaced by ``[token]``."""
    for token in bearer_tokens():
        text = text.replace(token, REDACTED)
    return text
