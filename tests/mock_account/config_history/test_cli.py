"""``mock-account config``: show, save (file and stdin), list, diff, restore, clone, refusals."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from fixture_agents import write_account

from mock_account.cli.commands import main


@pytest.fixture
def options(tmp_path: Path) -> list[str]:
    account = write_account(tmp_path / "account")
    return ["--data-dir", str(tmp_path / "data"), "--account-dir", str(account), "--search", "bm25"]


def _show(options: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["config", "show", "OpenTicket", "--json", *options]) == 0
    return json.loads(capsys.readouterr().out)


def test_save_list_diff_restore(
    options: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = _show(options, capsys)
    assert shown["version"] == "1.0.0"
    description = dict(shown["sections"]["description"], title="Open a damage ticket")
    file = tmp_path / "description.json"
    file.write_text(json.dumps(description))
    assert main(["config", "save", "OpenTicket", "description", str(file), *options]) == 0
    assert "saved description as revision 1 (version 1.0.1)" in capsys.readouterr().out
    assert main(["config", "list", "OpenTicket", "--section", "description", *options]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[1].split()[:3] == ["*", "1", "edit"] and listed[2].split()[:2] == ["0", "file"]
    assert main(["config", "diff", "OpenTicket", "description", "0", *options]) == 0
    assert '+  "title": "Open a damage ticket"' in capsys.readouterr().out
    assert main(["config", "restore", "OpenTicket", "description", "0", *options]) == 0
    assert "revision 2" in capsys.readouterr().out
    assert _show(options, capsys)["sections"]["description"]["title"] == "Open a support ticket"


def test_stdin_unchanged_and_refusals(
    options: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = _show(options, capsys)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(shown["sections"]["asks"])))
    assert main(["config", "save", "OpenTicket", "asks", "-", *options]) == 0
    assert "unchanged (revision 0, nothing saved)" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("title: ''\n"))
    assert main(["config", "save", "OpenTicket", "description", "-", *options]) == 1
    assert "not a valid agent" in capsys.readouterr().err
    assert main(["config", "restore", "OpenTicket", "commands", "4", *options]) == 1
    assert "keeps no version 4" in capsys.readouterr().err
    assert main(["config", "show", "Nobody", *options]) == 1
    assert "no agent named 'Nobody'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["config", "save", "OpenTicket", "settings", "-", *options])
    assert usage.value.code == 2


def test_clone(options: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "clone", "OpenTicket", "OpenTicketCopy", *options]) == 0
    assert "saved description, commands, asks, workflow as revision 1" in capsys.readouterr().out
    assert main(["config", "clone", "OpenTicket", "OpenTicketCopy", *options]) == 1
    assert "already an agent" in capsys.readouterr().err
