"""The check / rules / graph subcommands: output and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from checker_samples import HEADER, HR_AGENT, VALID_AGENT

from agents_catalog.check_cli import main
from agents_catalog.checker import RULES

WARNING_ONLY = HEADER + "  - output: '{conv.trip.destinaton}'\n"
ERROR = HEADER + "  - output: '{conv.trips.destination}'\n"


@pytest.fixture
def account(tmp_path: Path) -> Path:
    """A two-agent account whose hand-offs are complete (trip <-> employee)."""
    folder = tmp_path / "account"
    folder.mkdir()
    (folder / "trip.yaml").write_text(VALID_AGENT, encoding="utf-8")
    (folder / "hr.yaml").write_text(HR_AGENT, encoding="utf-8")
    return folder


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_clean_account_exits_0_and_prints_only_the_summary(account: Path, capsys) -> None:
    assert main(["check", str(account), "--account", str(account)]) == 0
    out = capsys.readouterr()
    assert out.out == "2 files checked, 0 errors, 0 warnings, 0 info\n"
    assert out.err == ""


def test_error_exits_1(tmp_path: Path, account: Path, capsys) -> None:
    path = write(tmp_path, "bad.yaml", ERROR)
    assert main(["check", path, "--account", str(account)]) == 1
    assert "error NS003" in capsys.readouterr().out


def test_fail_on_decides_which_severity_fails(tmp_path: Path, account: Path, capsys) -> None:
    path = write(tmp_path, "warn.yaml", WARNING_ONLY)
    assert main(["check", path, "--account", str(account)]) == 0
    assert main(["check", path, "--account", str(account), "--fail-on", "warning"]) == 1
    assert main(["check", path, "--account", str(account), "--fail-on", "info"]) == 1
    assert (
        main(["check", path, "--account", str(account), "--ignore", "NS004", "--fail-on", "info"])
        == 0
    )
    capsys.readouterr()


def test_select_limits_the_rules(tmp_path: Path, account: Path, capsys) -> None:
    path = write(tmp_path, "bad.yaml", ERROR)
    assert main(["check", path, "--account", str(account), "--select", "NS008,NS009"]) == 0
    assert capsys.readouterr().out.startswith("1 file checked, 0 errors")


def test_json_format_on_stdout(tmp_path: Path, account: Path, capsys) -> None:
    path = write(tmp_path, "bad.yaml", ERROR)
    assert main(["check", path, "--account", str(account), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [f["rule"] for f in data["findings"]] == ["NS003"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["check", "{tmp}/missing.yaml"], "no such file or folder"),
        (["check", "{tmp}/empty"], "no agent files"),
        (
            ["check", "{good}", "--scheme", "{tmp}/missing-scheme.yaml"],
            "cannot read the naming scheme",
        ),
        (["check", "{good}", "--scheme", "{tmp}/broken-scheme.yaml"], "broken-scheme.yaml:2"),
        (["check", "{good}", "--account", "{tmp}/nowhere"], "account folder not found"),
        (["check", "{good}", "--select", "NS999"], "unknown rule 'NS999'"),
        (["rules", "NS999"], "unknown rule 'NS999'"),
        (["graph", "--account", "{tmp}/nowhere"], "account folder not found"),
    ],
)
def test_bad_usage_exits_2_with_one_line(
    tmp_path: Path, capsys, argv: list[str], message: str
) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "broken-scheme.yaml").write_text("prompts: [unclosed\n", encoding="utf-8")
    good = write(tmp_path, "good.yaml", VALID_AGENT)
    args = [a.format(tmp=tmp_path, good=good) for a in argv]
    assert main(args) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert message in out.err and out.err.count("\n") == 1 and "Traceback" not in out.err


def test_argparse_errors_exit_2(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["check", "x.yaml", "--format", "xml"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_invalid_and_non_utf8_files_are_findings(tmp_path: Path, capsys) -> None:
    broken = write(tmp_path, "broken.yaml", "name: [\n")
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"name: Caf\xe9\n")
    assert main(["check", broken, str(latin), "--account", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "broken.yaml:2:1: error NS011 not valid YAML" in out
    assert "latin.yaml:1:1: error NS011 file is not UTF-8 text" in out


def test_rules_lists_and_documents(capsys) -> None:
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].split()[:3] == ["NS001", "error", "unknown-prompt"]
    assert len(listing) == len(RULES)
    assert main(["rules", "variable-schema"]) == 0
    doc = capsys.readouterr().out
    assert doc.startswith("NS005 variable-schema (error)")
    assert "Why it matters:" in doc and "Fix:" in doc


def test_graph_formats(account: Path, capsys) -> None:
    assert main(["graph", "--account", str(account), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variables"]["trip"] == {
        "writers": ["BookBusinessTrip"],
        "readers": ["BookBusinessTrip", "FindColleague"],
    }
    assert data["variables"]["vendor"] == {"writers": [], "readers": []}
    assert ["FindColleague", "employee", "BookBusinessTrip"] in data["edges"]
    assert main(["graph", "--account", str(account), "--format", "dot"]) == 0
    dot = capsys.readouterr().out
    assert dot.startswith("digraph handoffs {") and '"FindColleague" -> "conv.employee";' in dot
    assert main(["graph", "--account", str(account)]) == 0
    text = capsys.readouterr().out
    assert "conv.employee\n  written by: FindColleague\n  read by:    BookBusinessTrip\n" in text


def test_module_runs_as_a_script(tmp_path: Path, account: Path) -> None:
    path = write(tmp_path, "bad.yaml", ERROR)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agents_catalog.check_cli",
            "check",
            path,
            "--account",
            str(account),
            "--format",
            "github",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith(f"::error file={path},line=7,col=14,title=NS003::")
