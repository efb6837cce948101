"""The account's naming scheme: standard prompt names and agreed conversation variables."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator

from .errors import SchemeError
from .yaml_lines import YamlProblem, load_with_lines

SCOPES = ("conversation", "agent", "local")


@dataclass(frozen=True)
class StandardPrompt:
    name: str
    scope: str
    description: str


@dataclass(frozen=True)
class AgreedVariable:
    name: str
    description: str
    schema: dict[str, Any]

    def errors(self, value: Any) -> list[tuple[str, str]]:
        """Schema violations of `value` as ``(json path, message)`` pairs, sorted."""
        validator = Draft202012Validator(
            self.schema, format_checker=Draft202012Validator.FORMAT_CHECKER
        )
        found = []
        for error in validator.iter_errors(value):
            path = "$" + "".join(
                f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path
            )
            found.append((path, error.message))
        return sorted(found)


@dataclass(frozen=True)
class NamingScheme:
    prompts: dict[str, StandardPrompt]
    variables: dict[str, AgreedVariable]
    source: str = field(default="<scheme>")

    def variable(self, name: str) -> AgreedVariable | None:
        return self.variables.get(name)


def default_scheme_path() -> Path:
    return Path(str(resources.files("agents_catalog") / "naming_scheme.yaml"))


def parse_scheme(text: str, source: str = "<scheme>") -> NamingScheme:
    """Parse a naming scheme; raise SchemeError naming the file, line and problem."""
    try:
        data, lines = load_with_lines(text)
    except YamlProblem as exc:
        raise SchemeError(f"{source}:{exc.line}: {exc.message}") from exc

    def fail(path: tuple, message: str) -> SchemeError:
        line = lines.get(path, (1, 1))[0]
        return SchemeError(f"{source}:{line}: {message}")

    if not isinstance(data, dict):
        raise fail((), "the naming scheme is a mapping with 'prompts' and 'variables'")
    unknown = set(data) - {"version", "prompts", "variables"}
    if unknown:
        raise fail((sorted(unknown)[0],), f"unknown field '{sorted(unknown)[0]}'")
    prompts: dict[str, StandardPrompt] = {}
    raw_prompts = data.get("prompts")
    if not isinstance(raw_prompts, dict) or not raw_prompts:
        raise fail(("prompts",), "'prompts' must map at least one prompt name to its scope")
    for name, spec in raw_prompts.items():
        if not isinstance(spec, dict) or spec.get("scope") not in SCOPES:
            raise fail(("prompts", name), f"prompt '{name}' needs a scope, one of {SCOPES}")
        prompts[str(name)] = StandardPrompt(
            str(name), spec["scope"], str(spec.get("description", ""))
        )
    variables: dict[str, AgreedVariable] = {}
    raw_vars = data.get("variables")
    if not isinstance(raw_vars, dict) or not raw_vars:
        raise fail(("variables",), "'variables' must map at least one variable to its schema")
    for name, spec in raw_vars.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("schema"), dict):
            raise fail(("variables", name), f"variable '{name}' needs a 'schema' mapping")
        if not spec.get("description"):
            raise fail(("variables", name), f"variable '{name}' needs a one-line 'description'")
        try:
            Draft202012Validator.check_schema(spec["schema"])
        except jsonschema.SchemaError as exc:
            raise fail(
                ("variables", name, "schema"), f"schema of '{name}' is not valid: {exc.message}"
            ) from exc
        variables[str(name)] = AgreedVariable(str(name), str(spec["description"]), spec["schema"])
    return NamingScheme(prompts, variables, source)


def load_scheme(path: str | Path | None = None) -> NamingScheme:
    path = Path(path) if path else default_scheme_path()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemeError(f"{path}: cannot read the naming scheme: {exc}") from exc
    return parse_scheme(text, str(path))
