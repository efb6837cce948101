"""Run the conformance check over files, folders or a text, and build the report.

    report = check_paths(["agents/"], account_dir=default_account_dir())
    report = check_text(yaml_text, "pasted.yaml", account=load_account_index(folder))

Each file is read and parsed once, even when it is also part of the account. Bad usage
and unreadable input raise InputError (the CLI exits 2 with its message).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..scheme import NamingScheme, load_scheme
from .account import AccountIndex, check_duplicate_names, check_handoffs
from .checks import check_file
from .findings import Finding, Report
from .rules import BY_ID
from .source import InputError, SourceFile, parse_source, read_source
from .suppressions import is_suppressed, parse_suppressions
from .values import CompiledScheme

AGENT_SUFFIXES = (".yaml", ".yml")

SchemeLike = NamingScheme | CompiledScheme | None


def _compiled(scheme: SchemeLike) -> CompiledScheme:
    if isinstance(scheme, CompiledScheme):
        return scheme
    return CompiledScheme(scheme if scheme is not None else load_scheme())


def _folder_files(folder: Path) -> list[Path]:
    found = []
    for path in folder.rglob("*"):
        hidden = any(part.startswith(".") for part in path.relative_to(folder).parts)
        if path.suffix in AGENT_SUFFIXES and not hidden and path.is_file():
            found.append(path)
    return sorted(found)


def discover(paths: Iterable[str | Path], allow_empty: bool = False) -> list[Path]:
    """Agent files named by ``paths`` (files as given, folders searched for *.yaml/*.yml)."""
    found: list[Path] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = _folder_files(path)
            if not files and not allow_empty:
                raise InputError(f"no agent files (*.yaml, *.yml) in {raw}")
        elif path.is_file():
            files = [path]
        elif path.exists():
            raise InputError(f"not a file or folder: {raw}")
        else:
            raise InputError(f"no such file or folder: {raw}")
        for file in files:
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                found.append(file)
    return found


def _key(path: Path) -> str:
    return str(path.resolve())


def load_account_index(
    directory: str | Path, cache: dict[str, SourceFile] | None = None
) -> AccountIndex:
    """Who writes and reads each variable in an account folder (``cache``: key -> parsed)."""
    folder = Path(directory)
    if not folder.is_dir():
        raise InputError(f"account folder not found: {directory}")
    index = AccountIndex()
    for path in discover([folder], allow_empty=True):
        key = _key(path)
        source = cache.get(key) if cache else None
        index.add(key, (source or read_source(path)).refs)
    return index


def check_sources(
    sources: list[tuple[str, SourceFile]],
    scheme: SchemeLike = None,
    account: AccountIndex | None = None,
    rules: frozenset[str] | None = None,
) -> Report:
    """Check parsed files (``(key, source)``) against the scheme and the account."""
    compiled = _compiled(scheme)
    index = account.copy() if account is not None else AccountIndex()
    for key, source in sources:
        index.add(key, source.refs)
    enabled = rules if rules is not None else frozenset(BY_ID)
    found: list[Finding] = []
    for _, source in sources:
        found.extend(check_file(source, compiled))
        found.extend(check_handoffs(source, compiled, index))
    found.extend(check_duplicate_names([s for _, s in sources], compiled))
    suppressions = {source.name: parse_suppressions(source.text) for _, source in sources}
    kept = [
        f
        for f in found
        if f.rule_id in enabled and not is_suppressed(f, suppressions.get(f.file, {}))
    ]
    return Report.build([source.name for _, source in sources], kept)


def check_paths(
    paths: Iterable[str | Path],
    scheme: SchemeLike = None,
    account_dir: str | Path | None = None,
    rules: frozenset[str] | None = None,
) -> Report:
    """Check agent files and folders; ``account_dir`` None means only the files checked."""
    compiled = _compiled(scheme)
    files = discover(paths)
    sources = [(_key(path), read_source(path)) for path in files]
    account = None
    if account_dir is not None:
        account = load_account_index(account_dir, dict(sources))
    return check_sources(sources, compiled, account, rules)


def check_text(
    text: str,
    filename: str = "<agent>",
    scheme: SchemeLike = None,
    account: AccountIndex | None = None,
    rules: frozenset[str] | None = None,
) -> Report:
    """Check one agent given as text (a pasted or uploaded file)."""
    return check_sources(
        [(f"text:{filename}", parse_source(text, filename))], scheme, account, rules
    )
