"""``loadtests scale``: tiny sizes on every store, the owner grown through the vault, the
temporary places removed, and bad input refused on one line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import psycopg
import pytest
import redis
from server_stores import POSTGRES_URL, REDIS_URL, opened_store

import loadtests.scale as scale
from loadtests import store_targets
from loadtests.cli import main
from loadtests.pipeline import BENCH_ACCOUNT, BENCH_OWNER
from loadtests.states import build_state
from loadtests.store_targets import StoreTarget
from mock_account.stores import open_store

SERVERS = ("--postgres-url", POSTGRES_URL, "--redis-url", REDIS_URL)


def scale_run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``loadtests scale``, usage errors included."""
    try:
        code = main(["scale", *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def table_rows(text: str) -> list[list[str]]:
    """The cells of the lines that start with a store's name."""
    stores = ("memory", "sqlite", "postgres", "redis")
    rows = [line.split() for line in text.splitlines()]
    return [cells for cells in rows if cells and cells[0] in stores]


def check_result(text: str, result_file: Path, stores: list[str]) -> None:
    """Every store measured at 10 and 100 conversations, and its growth from one to the other."""
    table, _, growth = text.partition("growth: at 100 conversations ÷ at 10")
    assert growth, text
    assert [row[:2] for row in table_rows(table)] == [
        [store, size] for store in stores for size in ("10", "100")
    ]
    assert [row[0] for row in table_rows(growth)] == stores
    result = json.loads(result_file.read_text())
    assert result["sizes"] == [10, 100] and result["state_bytes"] == 2048
    for store in result["stores"]:
        for row in store["rows"]:
            for operation in ("save", "restore", "list"):
                assert row[operation]["p99_us"] >= row[operation]["p50_us"] > 0
        first, last = store["rows"]
        assert store["growth"]["save_p50"] == pytest.approx(
            last["save"]["p50_us"] / first["save"]["p50_us"], abs=0.006
        )
        assert set(store["growth"]) == {
            f"{operation}_{p}" for operation in ("save", "restore", "list") for p in ("p50", "p99")
        }


def test_tiny_sizes_on_the_embedded_stores_print_a_table_and_growth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scale.json"
    args = ("--stores", "memory,sqlite", "--sizes", "100,10", "--steps", "5")
    code, text, err = scale_run(capsys, *args, "--state-size", "2KB", "--json", str(out))
    assert code == 0, err
    check_result(text, out, ["memory", "sqlite"])
    assert "sqlite: growing to 100 conversations" in err  # the sizes in order, smallest first


def left_behind(backend: str, url: str) -> bool:
    """Whether the PostgreSQL schema or the Redis key prefix that ``url`` names still exists."""
    options = dict(parse_qsl(urlsplit(url).query))
    if backend == "postgres":
        with psycopg.connect(POSTGRES_URL, connect_timeout=5) as conn:
            found = conn.execute(
                "SELECT count(*) FROM pg_namespace WHERE nspname = %s", (options["schema"],)
            ).fetchone()
        return bool(found and found[0])
    client = redis.Redis.from_url(REDIS_URL)
    try:
        return next(client.scan_iter(match=f"{options['prefix']}:*", count=500), None) is not None
    finally:
        client.close()


@contextmanager
def recorded_targets(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[StoreTarget]]:
    """The places ``loadtests scale`` made, to look for them once it is done."""
    made: list[StoreTarget] = []
    original = store_targets.store_target

    @contextmanager
    def recording(*args: object, **kwargs: object) -> Iterator[StoreTarget]:
        with original(*args, **kwargs) as target:  # type: ignore[arg-type]
            made.append(target)
            yield target

    monkeypatch.setattr(store_targets, "store_target", recording)
    yield made


@pytest.mark.parametrize("backend", ["postgres", "redis"])
def test_tiny_sizes_on_a_server_store_leave_nothing_behind(
    backend: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with opened_store(backend, tmp_path, "scale"):  # the server answers (else skip; CI: fail)
        pass
    out = tmp_path / "scale.json"
    args = ("--stores", backend, "--sizes", "10,100", "--steps", "5", "--state-size", "2KB")
    with recorded_targets(monkeypatch) as made:
        code, text, err = scale_run(capsys, *args, *SERVERS, "--json", str(out))
    assert code == 0, err
    check_result(text, out, [backend])
    assert made and all(target.url.startswith(backend) for target in made)
    for target in made:  # the run's schema or prefix is gone
        assert not left_behind(backend, target.url)


def test_the_owner_grows_through_the_vault_and_is_measured_at_each_size() -> None:
    config = scale.ScaleConfig(stores=["memory"], sizes=[5, 40], steps=3)
    store = open_store("memory://")
    owner = scale._Owner(store, build_state(2048), config)
    try:
        owner.grow(5)
        owner.grow(40)
        entries = list(store.iter_entries(BENCH_ACCOUNT))
        assert len(entries) == 40 == len(set(owner.convids))
        assert {(e.owner, e.state_version) for e in entries} == {(BENCH_OWNER, 1)}
        samples = owner.measure(3)
        assert {name: len(values) for name, values in samples.items()} == {
            "save": 3,
            "restore": 3,
            "list": 3,
        }
        # Warm-up and measured saves are follow-ups of stored conversations: none was added.
        entries = list(store.iter_entries(BENCH_ACCOUNT))
        assert len(entries) == 40
        assert sum(e.state_version - 1 for e in entries) == scale.WARMUP_STEPS + 3
        state, _ = owner.pipeline.restore(owner.convids[0])
        assert state == build_state(2048)
    finally:
        owner.close()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--stores", "sqlite,mysql"], "unknown store 'mysql'"),
        (["--sizes", "1000,lots"], "expected whole numbers of conversations"),
        (["--sizes", "0"], "a size is 1 to 1,000,000"),
        (["--steps", "many"], "expected a whole number"),
        (["--state-size", "huge"], "invalid size 'huge'"),
        (
            ["--stores", "postgres", "--postgres-url", "postgresql://postgres@127.0.0.1:1/test"],
            "postgres: cannot open the store",
        ),
        (
            ["--stores", "redis", "--redis-url", "redis://127.0.0.1:1/0"],
            "redis: cannot open the store",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text, err = scale_run(capsys, *args)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert text == ""
