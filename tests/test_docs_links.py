"""The documentation points at things that exist.

- every relative link and image of ``README.md``, ``CHANGELOG.md`` and ``docs/*.md`` resolves to
  a file of the repository, and a ``#anchor`` to a heading of the page it names;
- every package, module or file path ``docs/architecture.md`` names exists;
- the import map of ``docs/architecture.md`` is the one the code has (every ``import`` of every
  module, at module level or inside a function, between the packages it lists).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ARCHITECTURE = DOCS / "architecture.md"
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.glob("*.md"))]
PACKAGES = ("mock_account", "agents_catalog", "demo_app", "loadtests")
TOP_DIRS = (*PACKAGES, "tests", "docs")

_FENCE = re.compile(r"^(```|~~~)")
_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_CODE_SPAN = re.compile(r"`([^`]+)`")


def _prose(text: str) -> list[str]:
    """The lines of a Markdown text outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, code marks and punctuation dropped, spaces as -."""
    text = re.sub(r"[`*_]|\[|\]\([^)]*\)", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    anchors: set[str] = set()
    for line in _prose(page.read_text(encoding="utf-8")):
        if match := re.match(r"#{1,6}\s+(.*)", line):
            slug, n = _slug(match.group(1)), 1
            while slug in anchors:  # a repeated heading gets -1, -2...
                slug, n = f"{_slug(match.group(1))}-{n}", n + 1
            anchors.add(slug)
    return anchors


def _links() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        if not page.exists():
            continue
        for line in _prose(page.read_text(encoding="utf-8")):
            for target in _LINK.findall(_CODE_SPAN.sub("", line)):
                if not re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, mailto:...
                    found.append((str(page.relative_to(ROOT)), target))
    return found


LINKS = _links()


def test_the_pages_exist_and_link_somewhere() -> None:
    missing = [str(page.relative_to(ROOT)) for page in PAGES if not page.exists()]
    assert missing == []
    assert len(LINKS) > 10


@pytest.mark.parametrize(("page", "target"), LINKS, ids=[f"{p}->{t}" for p, t in LINKS])
def test_relative_link_resolves(page: str, target: str) -> None:
    path, _, anchor = target.partition("#")
    resolved = (ROOT / page).parent / path if path else ROOT / page
    assert resolved.exists(), f"{page}: {target} names no file ({resolved.relative_to(ROOT)})"
    resolved = resolved.resolve()
    assert resolved.is_relative_to(ROOT), f"{page}: {target} leaves the repository"
    if anchor and resolved.suffix == ".md":
        assert anchor in _anchors(resolved), f"{page}: {target}: no heading #{anchor} there"


def _layout_paths(text: str) -> list[str]:
    """The paths of the layout tree: entries at column 0 (from the root) and 2 (under the last
    entry at column 0), and the file and folder names in each entry's description (next to
    the entry when it is a file, under it when it is a folder)."""
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    paths: list[str] = []
    top = ""
    entry_dir = ""
    for line in block.splitlines()[1:]:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        head, _, description = line.strip().partition("  ")
        if indent in (0, 2):
            names = [name.strip() for name in head.split(",") if name.strip()]
            base = "" if indent == 0 else top
            entries = [base + name for name in names]
            if indent == 0:
                top = entries[0]
            paths += entries
            last = entries[-1]
            entry_dir = last if last.endswith("/") else last.rpartition("/")[0] + "/"
        else:
            description = line
        for name in re.findall(r"[\w*./-]*[\w*]\.(?:py|yaml)\b|[\w*-]+/(?![\w*])", description):
            paths.append(name if name.startswith(TOP_DIRS) else entry_dir + name)
    return paths


def _spans(text: str) -> list[str]:
    """Code spans of the prose that are paths of the repository (a folder, a module, a file)."""
    spans = []
    for line in _prose(text):
        for span in _CODE_SPAN.findall(line):
            if re.fullmatch(r"[\w.*-]+(/[\w.*-]*)+|[\w-]+\.(py|toml|yaml|md)", span):
                spans.append(span)
    return spans


def _import_map(text: str) -> dict[str, set[str]]:
    if "<!-- import-map -->" not in text:
        return {}
    block = text.split("<!-- import-map -->", 1)[1].split("<!-- /import-map -->", 1)[0]
    graph: dict[str, set[str]] = {}
    source = ""
    for line in block.splitlines():
        if "->" in line:  # a package and what it imports...
            source, _, targets = line.partition("->")
            source = source.strip()
        elif source and line.startswith(" "):  # ...continued on the next lines
            targets = line
        else:
            continue
        graph.setdefault(source, set()).update(t.strip() for t in targets.split(",") if t.strip())
    return graph


def _map_names(text: str) -> list[str]:
    return [name for names in _import_map(text).items() for name in (names[0], *names[1])]


def _exists(path: str) -> bool:
    path = path.rstrip("/")
    if "*" in path:
        return any(ROOT.glob(path))
    return (ROOT / path).exists() or (ROOT / f"{path}.py").exists()


_ARCH_TEXT = ARCHITECTURE.read_text(encoding="utf-8") if ARCHITECTURE.exists() else ""
ARCH_PATHS = sorted(
    set(_layout_paths(_ARCH_TEXT) + _spans(_ARCH_TEXT) + _map_names(_ARCH_TEXT))
    if _ARCH_TEXT
    else set()
)


def test_architecture_names_paths() -> None:
    assert "mock_account/world/" in ARCH_PATHS
    assert len(ARCH_PATHS) > 40


@pytest.mark.parametrize("path", ARCH_PATHS)
def test_architecture_path_exists(path: str) -> None:
    assert _exists(path), f"docs/architecture.md names {path}, which does not exist"


def _unit(module: str) -> str:
    """``mock_account.api.routes`` -> ``mock_account/api``; another package -> its name."""
    parts = module.split(".")
    return "/".join(parts[:2]) if parts[0] == "mock_account" and len(parts) > 1 else parts[0]


def _code_map() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            here = name if path.name == "__init__.py" else name.rpartition(".")[0]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
                if isinstance(node, ast.Import):
                    targets = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    if node.level:
                        base = here.split(".")[: len(here.split(".")) - node.level + 1]
                        targets = [".".join([*base, *([node.module] if node.module else [])])]
                    else:
                        targets = [node.module or ""]
                else:
                    continue
                for target in targets:
                    if target.split(".")[0] in PACKAGES and _unit(target) != _unit(name):
                        graph.setdefault(_unit(name), set()).add(_unit(target))
    return graph


def test_the_import_map_is_the_code_s() -> None:
    documented = _import_map(_ARCH_TEXT)
    assert documented, "docs/architecture.md has no import map between <!-- import-map --> marks"
    actual = _code_map()
    differences = {
        unit: {
            "in the code, not on the map": sorted(
                actual.get(unit, set()) - documented.get(unit, set())
            ),
            "on the map, not in the code": sorted(
                documented.get(unit, set()) - actual.get(unit, set())
            ),
        }
        for unit in sorted(set(actual) | set(documented))
        if actual.get(unit, set()) != documented.get(unit, set())
    }
    assert differences == {}
