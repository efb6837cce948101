"""``agents-catalog generate`` and ``schema``: outputs, and clear refusals of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents_catalog.cli import main
from agents_catalog.loader import load_account


def test_generate_writes_loadable_agents(tmp_path: Path, capsys) -> None:
    out = tmp_path / "acc"
    assert main(["generate", "--count", "12", "--seed", "5", "--out", str(out)]) == 0
    assert len(load_account(out)) == 12
    assert "wrote 12 agents" in capsys.readouterr().out


@pytest.mark.parametrize("count", ["0", "199", "-3"])
def test_out_of_range_count_is_refused_and_writes_nothing(tmp_path: Path, capsys, count) -> None:
    out = tmp_path / "acc"
    assert main(["generate", "--count", count, "--out", str(out)]) == 2
    assert "--count must be between 1 and 198" in capsys.readouterr().err
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_non_empty_folder_is_kept_unless_forced(tmp_path: Path, capsys) -> None:
    out = tmp_path / "acc"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    assert main(["generate", "--count", "3", "--out", str(out)]) == 2
    assert "not empty" in capsys.readouterr().err
    assert (out / "keep.txt").read_text() == "mine"
    assert main(["generate", "--count", "3", "--out", str(out), "--force"]) == 0
    assert not (out / "keep.txt").exists() and len(list(out.glob("*.yaml"))) == 3


def test_forced_regeneration_keeps_hand_written_agents_and_refuses_to_replace_one(
    tmp_path: Path, capsys
) -> None:
    out = tmp_path / "acc"
    out.mkdir()
    mine = "# hand-written: kept\nname: Mine\n"
    (out / "Mine.yaml").write_text(mine)
    assert main(["generate", "--count", "3", "--out", str(out), "--force"]) == 0
    assert "wrote 3 agents" in capsys.readouterr().out
    assert (out / "Mine.yaml").read_text() == mine and len(list(out.glob("*.yaml"))) == 4
    taken = next(p.name for p in out.glob("*.yaml") if p.name != "Mine.yaml")
    (out / taken).write_text(mine)
    assert main(["generate", "--count", "3", "--out", str(out), "--force"]) == 2
    assert f"would replace hand-written {taken}" in capsys.readouterr().err
    assert (out / taken).read_text() == mine


def test_non_numeric_count_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["generate", "--count", "many", "--out", str(tmp_path / "x")])
    assert exit_info.value.code == 2


def test_schema_is_published_json_schema(capsys) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"].endswith("2020-12/schema")
    assert {"name", "title", "tag", "description", "main"} <= set(schema["required"])


def test_validate_reports_file_and_line_of_every_problem(tmp_path: Path, capsys) -> None:
    (tmp_path / "bad.yaml").write_text(
        "name: X\ntitle: t\ntag: Travel\ndescription: d\nmain:\n  - llm: {prompt: chat}\n"
    )
    (tmp_path / "worse.yaml").write_text("name: [unclosed\n")
    assert main(["validate", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:1:7" in err and "bad.yaml:3:6" in err and "bad.yaml:6:10" in err
    assert "worse.yaml:2:" in err
    assert "Traceback" not in err


def test_missing_folder_is_one_clear_line(tmp_path: Path, capsys) -> None:
    assert main(["validate", str(tmp_path / "nope")]) == 2
    assert "not a readable folder" in capsys.readouterr().err
