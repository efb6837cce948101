"""``loadtests bench``: stages and baselines per size, ratios, JSON, clear usage errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from loadtests.baselines import SqliteRawTable
from loadtests.bench import RESTORE_COLUMNS, SAVE_COLUMNS
from loadtests.cli import main
from mock_account.stores.sqlite import SqliteStore


def test_bench_prints_stages_and_ratios_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "bench.json"
    code = main(
        ["bench", "--sizes", "1KB,16KB", "--iterations", "4", "--json", str(target), "--peers"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "SAVE" in out and "RESTORE" in out and "save/raw upsert" in out
    assert "peer LangGraph SQLite checkpointer" in out
    result = json.loads(target.read_text())
    assert [r["label"] for r in result["results"]] == ["1KB", "16KB"]
    assert result["store"]["kind"] == "sqlite"
    for row in result["results"]:
        assert row["iterations"] == 4
        assert set(row["stages_us"]) == {*SAVE_COLUMNS, *RESTORE_COLUMNS}
        assert all(stage["p50_us"] > 0 for stage in row["stages_us"].values())
        ratios = row["ratios"]
        assert ratios["save_over_raw_upsert"] > 0 and 0 < ratios["encrypt_share_of_save"] < 1
        assert f"{ratios['save_over_raw_upsert']:.2f}x" in out
        assert f"{ratios['save_p99_over_raw_upsert_p99']:.2f}x" in out
        # The floor adds the bare JSON calls to the raw baselines, so it is always above them.
        assert 0 < ratios["save_over_floor"] < ratios["save_over_raw_upsert"]
        assert 0 < ratios["restore_over_floor"] < ratios["restore_over_raw_read_decrypt"]
        assert f"{ratios['save_over_floor']:.2f}x" in out
        # The floor against the raw operations alone: above 1 (it adds the bare JSON calls),
        # and the harness's own ratio is that floor times its ratio over the floor.
        for floor, over_floor, over_raw in (
            ("floor_save_over_raw_upsert", "save_over_floor", "save_over_raw_upsert"),
            (
                "floor_restore_over_raw_read_decrypt",
                "restore_over_floor",
                "restore_over_raw_read_decrypt",
            ),
        ):
            assert ratios[floor] > 1
            assert ratios[floor] * ratios[over_floor] == pytest.approx(ratios[over_raw], rel=0.02)
            assert f"{ratios[floor]:.2f}x" in out
        assert 0 < ratios["raw_aesgcm_share_of_save"] < 1
        assert f"{ratios['raw_aesgcm_share_of_save'] * 100:.1f}%" in out


def test_bench_on_the_memory_store(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--sizes", "1KB", "--iterations", "2", "--store", "memory://"]) == 0
    assert "Python dict" in capsys.readouterr().out


def exit_code(argv: list[str]) -> int:
    """``main``'s exit code, whether it returns it or argparse exits with it."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["bench", "--sizes", "huge"], "invalid size"),
        (["bench", "--iterations", "0"], "at least 1"),
        (["bench", "--store", "ftp://x", "--iterations", "1", "--sizes", "1KB"], "unknown scheme"),
    ],
)
def test_bad_bench_usage_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = exit_code(argv)
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_peers_are_opened_skipped_or_reported_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from loadtests import peers

    @contextmanager
    def broken(folder: Path, state: dict, synchronous: str) -> Iterator[peers.PeerOps]:
        raise RuntimeError("API changed")
        yield  # pragma: no cover

    closed: list[str] = []

    @contextmanager
    def working(folder: Path, state: dict, synchronous: str) -> Iterator[peers.PeerOps]:
        try:
            yield (lambda: None), (lambda: state)
        finally:
            closed.append("working")

    monkeypatch.setattr(
        peers,
        "PEERS",
        {
            "ok": ("Working peer", "json", working),
            "bad": ("Broken peer", "json", broken),
            "absent": ("Absent peer", "no_such_module_here.sub", working),
        },
    )
    with ExitStack() as stack:
        opened, lines = peers.open_peers(stack, tmp_path, {"x": 1})
        assert set(opened) == {"ok"} and opened["ok"][0] == "Working peer"
        assert opened["ok"][1][1]() == {"x": 1}
        assert not closed
    assert closed == ["working"]
    assert lines == [
        "peer Broken peer: failed (RuntimeError: API changed)",
        "peer Absent peer: skipped (no_such_module_here.sub is not installed)",
    ]


def test_peers_run_inside_the_interleaved_loop_and_a_failing_one_is_dropped(
    tmp_path: Path,
) -> None:
    from loadtests.bench import _bench_size
    from loadtests.pipeline import StatePipeline
    from loadtests.states import parse_size

    calls: list[str] = []

    def fails_later() -> None:
        calls.append("flaky")
        if calls.count("flaky") > 3:
            raise OSError("disk gone")

    peers = {
        "steady": ("Steady", (lambda: calls.append("steady"), lambda: None)),
        "flaky": ("Flaky", (fails_later, lambda: None)),
    }
    with SqliteStore(tmp_path / "bench.db") as store:
        raw = SqliteRawTable(tmp_path, "NORMAL")
        try:
            result = _bench_size(StatePipeline(store), raw, parse_size("1KB"), 6, 2, peers)
        finally:
            raw.close()
    label, saves, restores = result.peers["steady"]
    assert label == "Steady" and len(saves) == len(restores) == 6  # warm-up samples dropped
    assert len(result.samples["save"]) == 6
    assert result.peer_failures == {"flaky": "OSError: disk gone"}
    assert calls.count("flaky") == 4  # not called again once it failed


def test_peers_are_compared_with_the_harness_per_percentile() -> None:
    from loadtests.bench import _compare_peers, _peer_ratio_lines

    row = {
        "label": "16KB",
        "stages_us": {
            "save": {"p50_us": 100.0, "p99_us": 400.0},
            "restore": {"p50_us": 50.0, "p99_us": 200.0},
            # Floors: save 10 + 5 + 35 = 50 µs, restore 5 + 20 = 25 µs.
            "raw_dumps": {"p50_us": 10.0, "p99_us": 20.0},
            "raw_encrypt": {"p50_us": 5.0, "p99_us": 9.0},
            "raw_upsert": {"p50_us": 35.0, "p99_us": 90.0},
            "raw_read_decrypt": {"p50_us": 5.0, "p99_us": 9.0},
            "raw_loads": {"p50_us": 20.0, "p99_us": 40.0},
        },
        "peers": {
            "x": {
                "label": "Peer X",
                "save": {"p50_us": 250.0, "p99_us": 400.0},
                "restore": {"p50_us": 25.0, "p99_us": 800.0},
            }
        },
    }
    _compare_peers(row)
    assert row["peers"]["x"]["over_harness"] == {
        "save_p50": 2.5,
        "save_p99": 1.0,
        "restore_p50": 0.5,
        "restore_p99": 4.0,
    }
    assert row["peers"]["x"]["over_floor"] == {"save_p50": 5.0, "restore_p50": 1.0}
    assert _peer_ratio_lines(row) == [
        "  16KB peer Peer X / harness: save p50 2.50x p99 1.00x; restore p50 0.50x p99 4.00x; "
        "over the floor: save p50 5.00x, restore p50 1.00x"
    ]


def test_the_sqlite_raw_baseline_checkpoints_as_the_store_does(tmp_path: Path) -> None:
    raw = SqliteRawTable(tmp_path, "NORMAL")
    store = SqliteStore(tmp_path / "store.db", synchronous="NORMAL")
    try:
        pragma = "PRAGMA wal_autocheckpoint"
        # Neither checkpoints in its commits: both leave it to their background thread.
        assert raw._conn.execute(pragma).fetchone() == (0,)
        with store._db.write() as conn:
            assert conn.execute(pragma).fetchone() == (0,)
        assert raw._checkpoints is not None and store._db._checkpoints is not None
        raw.upsert("k", b"blob")
        assert raw.read("k") == b"blob"
    finally:
        store.close()
        raw.close()
    assert not list(tmp_path.glob("raw_baseline.db*"))
