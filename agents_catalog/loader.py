"""Load agent files: every problem reported with its file and line, never a traceback."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from .agent_format import AgentDefinition
from .errors import AgentFileError, Problem
from .yaml_lines import LineMap, YamlProblem, line_of, load_with_lines

MAX_AGENT_FILE_BYTES = 1_000_000


def default_account_dir() -> Path:
    """The generated 200-agent account shipped with the package (``agents_catalog/account``)."""
    return Path(str(resources.files("agents_catalog") / "account"))


def _field_path(loc: tuple) -> tuple:
    # pydantic puts the discriminator tag into `loc` (main.0.llm.llm.prompt); drop the
    # repeated tag so the path matches the YAML (main.0.llm.prompt).
    out: list = []
    for part in loc:
        if out and isinstance(part, str) and part == out[-1]:
            continue
        out.append(part)
    return tuple(out)


def _message(error: dict) -> str:
    kind = error.get("type", "")
    if kind == "extra_forbidden":
        return f"unknown field '{error['loc'][-1]}'"
    if kind == "missing":
        return f"missing required field '{error['loc'][-1]}'"
    return str(error.get("msg", "invalid value"))


def problems_from_validation(exc: ValidationError, lines: LineMap, filename: str) -> list[Problem]:
    problems = []
    for error in exc.errors():
        path = _field_path(tuple(error["loc"]))
        line, column = line_of(lines, path)
        dotted = ".".join(str(p) for p in path)
        problems.append(Problem(filename, line, column, _message(error), dotted))
    return problems


def parse_agent_text(text: str, filename: str = "<agent>") -> tuple[AgentDefinition, LineMap]:
    """Parse one agent file's text; raise AgentFileError listing every problem."""
    try:
        data, lines = load_with_lines(text)
    except YamlProblem as exc:
        raise AgentFileError([Problem(filename, exc.line, exc.column, exc.message)]) from exc
    if not isinstance(data, dict):
        raise AgentFileError(
            [Problem(filename, 1, 1, "an agent file is a YAML mapping (name, title, tag, ...)")]
        )
    try:
        return AgentDefinition.model_validate(data), lines
    except ValidationError as exc:
        raise AgentFileError(problems_from_validation(exc, lines, filename)) from exc


def read_agent_text(path: Path) -> str:
    """Read an agent file as text, with one clear problem when it cannot be read."""
    try:
        if path.stat().st_size > MAX_AGENT_FILE_BYTES:
            raise AgentFileError(
                [Problem(str(path), 1, 1, f"file is over {MAX_AGENT_FILE_BYTES} bytes")]
            )
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise AgentFileError([Problem(str(path), 1, 1, "file is not UTF-8 text")]) from exc
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise AgentFileError([Problem(str(path), 1, 1, f"cannot read file: {reason}")]) from exc


def load_agent_file(path: str | Path) -> AgentDefinition:
    path = Path(path)
    return parse_agent_text(read_agent_text(path), str(path))[0]


def agent_files(directory: str | Path) -> list[Path]:
    """The agent files of a folder, sorted (``*.yaml`` and ``*.yml``)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise AgentFileError([Problem(str(directory), 1, 1, "not a readable folder")])
    return sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def load_account(directory: str | Path) -> list[AgentDefinition]:
    """Every agent of a folder; raise AgentFileError with every problem of every file."""
    agents: list[AgentDefinition] = []
    problems: list[Problem] = []
    for path in agent_files(directory):
        try:
            agents.append(load_agent_file(path))
        except AgentFileError as exc:
            problems.extend(exc.problems)
    names: dict[str, int] = {}
    for agent in agents:
        names[agent.name] = names.get(agent.name, 0) + 1
    problems.extend(
        Problem(str(directory), 1, 1, f"agent name '{n}' is used by {c} files")
        for n, c in names.items()
        if c > 1
    )
    if problems:
        raise AgentFileError(problems)
    return agents
