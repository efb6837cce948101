"""The capacity model: its arithmetic on given inputs, reading measured figures, the command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from loadtests.capacity import (
    ENTRY_BYTES,
    CapacityError,
    Limits,
    Measured,
    Workload,
    build_result,
    format_plan,
    main,
    plan_capacity,
    read_measured,
)

MEASURED = Measured(
    run_us=4000.0,
    restore_us=500.0,
    save_us=500.0,
    store_saves_per_s=1000.0,
    store_restores_per_s=4000.0,
    stored_bytes=16_384,
)
LIMITS = Limits(cores=8, storage_bytes=1024**4)  # 1 TB


def test_demand_follows_users_and_peak_factor() -> None:
    plan = plan_capacity(Workload(users=3600, followups_per_hour=10, state_kb=16), MEASURED, LIMITS)

    assert plan["average_followups_per_s"] == pytest.approx(10.0)
    assert plan["peak_followups_per_s"] == pytest.approx(30.0)  # default peak factor 3
    assert plan["store_ops_per_s"] == pytest.approx(60.0)  # 1 restore + 1 save per follow-up
    assert plan["restores_per_s"] == plan["saves_per_s"] == pytest.approx(30.0)


def test_processes_come_from_per_process_throughput_at_target_utilisation() -> None:
    # 5000 us per follow-up: 200 follow-ups/s per process, 140 at 70 %.
    workload = Workload(users=36_000, followups_per_hour=10, state_kb=16)
    plan = plan_capacity(workload, MEASURED, LIMITS)

    assert plan["per_followup_us"] == pytest.approx(5000.0)
    assert plan["per_process_followups_per_s"] == pytest.approx(200.0)
    assert plan["peak_followups_per_s"] == pytest.approx(300.0)
    assert plan["server_processes"] == 3  # ceil(300 / 140)
    cores = plan["resources"][0]
    assert cores["resource"] == "server cores"
    assert cores["need"] == pytest.approx(1.5)  # 300 / 200 cores busy
    assert cores["capacity_at_target"] == pytest.approx(5.6)  # 8 cores x 0.7
    assert cores["users_supported"] == int(36_000 * 5.6 / 1.5)

    busier = plan_capacity(
        Workload(users=36_000, followups_per_hour=10, state_kb=16, target_utilisation=0.5),
        MEASURED,
        LIMITS,
    )
    assert busier["server_processes"] == 3  # ceil(300 / 100)
    assert (
        plan_capacity(
            Workload(users=36_001, followups_per_hour=10, state_kb=16, target_utilisation=0.5),
            MEASURED,
            LIMITS,
        )["server_processes"]
        == 4
    )


def test_store_capacity_combines_saves_and_restores() -> None:
    plan = plan_capacity(Workload(users=3600, followups_per_hour=10, state_kb=16), MEASURED, LIMITS)
    # One follow-up takes 1/1000 s of saving and 1/4000 s of restoring: 800 follow-ups/s.
    assert plan["store_followups_per_s"] == pytest.approx(800.0)
    store = plan["resources"][1]
    assert store["capacity_at_target"] == pytest.approx(560.0)
    assert store["utilisation_of_target"] == pytest.approx(30.0 / 560.0)
    assert store["users_supported"] == int(3600 * 560.0 / 30.0)


def test_storage_is_retained_conversations_times_state_size() -> None:
    workload = Workload(
        users=1000,
        followups_per_hour=5,
        state_kb=16,
        active_hours=8,
        turns_per_conversation=4,
        retention_days=30,
        overhead=1.5,
    )
    plan = plan_capacity(workload, MEASURED, LIMITS)

    assert plan["conversations_per_day"] == pytest.approx(1000 * 5 * 8 / 4)
    assert plan["conversations_retained"] == pytest.approx(10_000 * 30)
    assert plan["bytes_per_conversation"] == pytest.approx((16_384 + ENTRY_BYTES) * 1.5)
    assert plan["storage_bytes"] == pytest.approx(300_000 * (16_384 + ENTRY_BYTES) * 1.5)


def test_the_resource_supporting_fewest_users_runs_out_first() -> None:
    workload = Workload(users=10_000, followups_per_hour=6, state_kb=16)
    cheap_store = Measured(**{**MEASURED.__dict__, "store_saves_per_s": 40.0})
    plan = plan_capacity(workload, cheap_store, LIMITS)
    assert plan["runs_out_first"] == "store throughput"
    supported = {r["resource"]: r["users_supported"] for r in plan["resources"]}
    assert plan["users_at_first_limit"] == min(supported.values()) == supported["store throughput"]

    tiny_disk = plan_capacity(workload, MEASURED, Limits(cores=64, storage_bytes=1024**3))
    assert tiny_disk["runs_out_first"] == "storage"
    one_core = plan_capacity(workload, MEASURED, Limits(cores=1, storage_bytes=1024**5))
    assert one_core["runs_out_first"] == "server cores"


# -- measured figures from files -----------------------------------------------------------------


def _writers_json(path: Path) -> Path:
    cell = {"saves_per_s": 0.0, "p50_us": 1.0, "p99_us": 2.0, "errors": 0, "saves": 1}
    data = {
        "state_kb": 16,
        "stored_bytes": 16_426,
        "cells": [
            {
                "store": "sqlite",
                "threads": 1,
                "single": {**cell, "saves_per_s": 900.0},
                "batch": {**cell, "saves_per_s": 800.0},
                "gain": 0.89,
            },
            {
                "store": "sqlite",
                "threads": 8,
                "single": {**cell, "saves_per_s": 1000.0},
                "batch": {**cell, "saves_per_s": 2500.0},
                "gain": 2.5,
            },
            {
                "store": "redis",
                "threads": 8,
                "single": {**cell, "saves_per_s": 5000.0},
                "batch": {**cell, "saves_per_s": 9000.0, "errors": 3},
                "gain": 1.8,
            },
        ],
    }
    path.write_text(json.dumps(data))
    return path


def _bench_json(path: Path) -> Path:
    def result(size: int, read: float, restore: float, save: float) -> dict:
        return {
            "size": size,
            "stored_bytes": size + 40,
            "stages_us": {
                "read": {"p50_us": read},
                "restore": {"p50_us": restore},
                "save": {"p50_us": save},
            },
        }

    data = {
        "store": {"kind": "sqlite"},
        "results": [result(1024, 50.0, 100.0, 200.0), result(32_768, 250.0, 500.0, 1000.0)],
    }
    path.write_text(json.dumps(data))
    return path


def test_writers_json_gives_the_best_error_free_cell_of_the_store(tmp_path: Path) -> None:
    path = _writers_json(tmp_path / "writers.json")

    figures, sources = read_measured([path], 16_384, "sqlite")
    assert figures == {"store_saves_per_s": 2500.0, "stored_bytes": 16_426}
    assert "8 threads, batching" in sources["store_saves_per_s"]

    figures, _ = read_measured([path], 16_384, "redis")
    assert figures["store_saves_per_s"] == 5000.0  # the batching cell had failed saves
    with pytest.raises(CapacityError, match="no cells of store 'postgres'"):
        read_measured([path], 16_384, "postgres")


def test_bench_json_is_interpolated_to_the_state_size(tmp_path: Path) -> None:
    path = _bench_json(tmp_path / "bench.json")
    halfway = (1024 + 32_768) // 2

    figures, sources = read_measured([path], halfway, None)

    assert figures["restore_us"] == pytest.approx(300.0)
    assert figures["save_us"] == pytest.approx(600.0)
    assert figures["store_restores_per_s"] == pytest.approx(1e6 / 150.0)
    assert figures["stored_bytes"] == halfway + 40
    assert sources["save_us"].startswith("bench sqlite")


def test_first_file_giving_a_figure_wins(tmp_path: Path) -> None:
    writers = _writers_json(tmp_path / "writers.json")
    bench = _bench_json(tmp_path / "bench.json")
    figures, sources = read_measured([writers, bench], 16_384, "sqlite")
    assert figures["stored_bytes"] == 16_426 and sources["stored_bytes"].startswith("writers")
    figures, sources = read_measured([bench, writers], 16_384, "sqlite")
    assert sources["stored_bytes"].startswith("bench")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "cannot read it as JSON"),
        ('{"something": 1}', "not writers, bench or capacity JSON"),
        ('{"results": [{"size": 1}]}', "unexpected content"),
    ],
)
def test_unusable_measured_file_is_a_clear_error(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "m.json"
    path.write_text(content)
    with pytest.raises(CapacityError, match=message):
        read_measured([path], 16_384, None)


# -- the command ---------------------------------------------------------------------------------


def _capacity_json(tmp_path: Path) -> Path:
    """A capacity result to feed back: every figure given, so nothing is sampled."""
    result = build_result(
        Workload(users=1, followups_per_hour=1, state_kb=16), MEASURED, LIMITS, {}
    )
    path = tmp_path / "previous.json"
    path.write_text(json.dumps(result))
    return path


def test_command_prints_the_plan_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out" / "capacity.json"
    code = main(
        [
            "--users",
            "36000",
            "--followups-per-hour",
            "10",
            "--state-kb",
            "16",
            "--measured",
            str(_capacity_json(tmp_path)),
            "--cores",
            "8",
            "--storage-gb",
            "1024",
            "--json",
            str(out),
        ]
    )

    assert code == 0
    text = capsys.readouterr().out
    assert "peak follow-ups/s" in text and "300.0" in text
    assert "server processes needed: 3" in text
    assert "runs out first: store throughput" in text
    saved = json.loads(out.read_text())
    assert saved["plan"]["server_processes"] == 3
    assert saved["measured"]["run_us"] == 4000.0
    assert saved["workload"]["peak_factor"] == 3.0


@pytest.mark.parametrize(
    "argv",
    [
        ["--followups-per-hour", "1", "--state-kb", "16"],
        ["--users", "0", "--followups-per-hour", "1", "--state-kb", "16"],
        ["--users", "10", "--followups-per-hour", "x", "--state-kb", "16"],
        ["--users", "10", "--followups-per-hour", "1", "--state-kb", "16", "--peak-factor", "0.5"],
        [
            "--users",
            "10",
            "--followups-per-hour",
            "1",
            "--state-kb",
            "16",
            "--target-utilisation",
            "1.5",
        ],
    ],
    ids=["no-users", "zero-users", "bad-rate", "peak-below-1", "utilisation-above-1"],
)
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_unusable_measured_file_exits_2_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    code = main(
        ["--users", "10", "--followups-per-hour", "1", "--state-kb", "16", "--measured", str(bad)]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("loadtests capacity: --measured") and "Traceback" not in err


def test_postgres_figures_without_a_url_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["--users", "10", "--followups-per-hour", "1", "--state-kb", "16", "--store", "postgres"]
    )
    assert code == 2
    assert "give its URL" in capsys.readouterr().err


def test_plan_text_names_every_resource() -> None:
    result = build_result(
        Workload(users=100, followups_per_hour=2, state_kb=4),
        MEASURED,
        LIMITS,
        {name: "given" for name in Measured.__dataclass_fields__},
    )
    text = format_plan(result)
    for resource in ("server cores", "store throughput", "storage"):
        assert resource in text
    assert not math.isinf(result["plan"]["resources"][0]["utilisation_of_target"])


def test_figures_the_files_lack_are_sampled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import loadtests.capacity as capacity

    asked: list[tuple[str | None, int]] = []

    def fake_store(url: str | None, state_bytes: int, progress: object) -> dict[str, float]:
        asked.append((url, state_bytes))
        return {
            "restore_us": 1.0,
            "save_us": 2.0,
            "store_restores_per_s": 3.0,
            "store_saves_per_s": 4.0,
            "stored_bytes": 5,
        }

    monkeypatch.setattr(capacity, "sample_store", fake_store)
    monkeypatch.setattr(capacity, "sample_run_us", lambda: 6.0)
    writers = _writers_json(tmp_path / "writers.json")

    measured, sources = capacity.gather_measured([writers], 16_384, "sqlite", lambda _: None)

    assert asked == [(None, 16_384)]  # a temporary SQLite file
    assert measured == Measured(
        run_us=6.0,
        restore_us=1.0,
        save_us=2.0,
        store_saves_per_s=2500.0,
        store_restores_per_s=3.0,
        stored_bytes=16_426,
    )
    assert sources["store_saves_per_s"].startswith("writers")
    assert sources["restore_us"] == "in-process sample, temporary SQLite file"
