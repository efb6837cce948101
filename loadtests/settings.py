"""Settings of the Locust users, read from environment variables (Locust passes no arguments).

LOADTEST_TOKENS_FILE      bearer tokens, one per line, taken in turn by the users
LOADTEST_TOKEN            one bearer token (default: the first mock user's token; see
                          ``loadtests.identities``)
LOADTEST_SEED             seed of the mock users, to find that token (default 7)
LOADTEST_AGENTS_DIR       the agent folder whose examples and hand-off graph plan the journeys
                          (default: the embedded account)
LOADTEST_INSECURE         1: do not verify the server's TLS certificate (default: verify)
LOADTEST_THINK_MIN/MAX    seconds an HTTP user waits between tasks (default 0.5 / 2.0)
LOADTEST_THINK_MIN_MS/MAX_MS  milliseconds an in-process user waits (default 0 / 50)
LOADTEST_WEIGHT_<TASK>    task weights: ConversationUser JOURNEY (8), STREAM (1: the journey
                          with stream: true), LIST (2), PIN (1), RENAME (1), DELETE (1);
                          StateStoreUser SAVE, RESTORE (1, 1);
                          CryptoUser ENCRYPT, DECRYPT (1, 1)
LOADTEST_MAX_FOLLOWUPS    follow-ups per journey, at most (default 3)
LOADTEST_EXEC_RATE_PER_USER  execAgent calls per second each HTTP user paces itself to
                          (default 0: unpaced; ``loadtests run --rate R`` sets R / users)
LOADTEST_STORE_URL        store of StateStoreUser (default: a temporary SQLite file)
LOADTEST_STATE_SIZES      state sizes of StateStoreUser and CryptoUser (1KB,16KB,256KB,1MB)
LOADTEST_RANDOM_SEED      seed of the users' choices (default: random)
"""

from __future__ import annotations

import os
from pathlib import Path

from loadtests.states import parse_size

DEFAULT_SIZES = "1KB,16KB,256KB,1MB"
AGENTS_DIR_ENV = "LOADTEST_AGENTS_DIR"
INSECURE_ENV = "LOADTEST_INSECURE"
# Set by ``loadtests run`` for its Locust processes (``locust_support``).
HISTOGRAMS_FILE_ENV = "LOADTEST_HISTOGRAMS_FILE"
AGENT_RUNS_FILE_ENV = "LOADTEST_AGENT_RUNS_FILE"
WORKERS_ENV = "LOADTEST_WORKERS"


class SettingsError(ValueError):
    """An environment variable holds a value the users cannot use."""


def env_float(name: str, default: float, minimum: float = 0.0) -> float:
    text = os.environ.get(name)
    if text is None or not text.strip():
        return default
    try:
        value = float(text)
    except ValueError as exc:
        raise SettingsError(f"{name} must be a number, got {text!r}") from exc
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum:g}, got {value:g}")
    return value


def env_int(name: str, default: int, minimum: int = 0) -> int:
    return int(env_float(name, default, minimum))


def weight(task: str, default: int) -> int:
    return env_int(f"LOADTEST_WEIGHT_{task.upper()}", default)


def think_time() -> tuple[float, float]:
    low = env_float("LOADTEST_THINK_MIN", 0.5)
    high = env_float("LOADTEST_THINK_MAX", 2.0)
    if high < low:
        raise SettingsError(f"LOADTEST_THINK_MAX ({high:g}) is below LOADTEST_THINK_MIN ({low:g})")
    return low, high


def exec_rate_per_user() -> float:
    return env_float("LOADTEST_EXEC_RATE_PER_USER", 0.0)


def state_sizes() -> list[int]:
    text = os.environ.get("LOADTEST_STATE_SIZES") or DEFAULT_SIZES
    try:
        return [parse_size(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise SettingsError(f"LOADTEST_STATE_SIZES: {exc}") from exc


def agents_dir() -> Path | None:
    """The agent folder that plans the journeys; ``None``: the embedded account."""
    text = os.environ.get(AGENTS_DIR_ENV, "").strip()
    return Path(text) if text else None


def tls_insecure() -> bool:
    """Whether the users skip the verification of the server's TLS certificate."""
    return os.environ.get(INSECURE_ENV, "").strip().lower() in ("1", "true", "yes")


def random_seed() -> int | None:
    text = os.environ.get("LOADTEST_RANDOM_SEED")
    return None if not text else env_int("LOADTEST_RANDOM_SEED", 0)


def check_settings() -> None:
    """Read every setting once, so a bad value is reported before any process starts."""
    think_time()
    exec_rate_per_user()
    state_sizes()
    for task in (
        "journey",
        "list",
        "pin",
        "stream",
        "rename",
        "delete",
        "save",
        "restore",
        "encrypt",
        "decrypt",
    ):
        weight(task, 1)
    for name in (
        "LOADTEST_MAX_FOLLOWUPS",
        "LOADTEST_SEED",
        "LOADTEST_THINK_MIN_MS",
        "LOADTEST_THINK_MAX_MS",
    ):
        env_int(name, 0)
    random_seed()
