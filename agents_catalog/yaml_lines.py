"""Safe YAML loading that remembers where each value came from.

``load_with_lines`` returns the data and a map from a path (a tuple of keys and
list indexes) to the 1-based ``(line, column)`` of the value at that path, so a
validation error on ``main.3.llm.prompt`` can name the line it is on. The text is
parsed once (with libyaml when PyYAML has it), and the walk is bounded so a file
whose aliases expand exponentially, or refer to themselves, is refused instead of
hanging the caller.
"""

from __future__ import annotations

from typing import Any

import yaml

Path = tuple[str | int, ...]
LineMap = dict[Path, tuple[int, int]]

MAX_YAML_VALUES = 100_000
MAX_YAML_DEPTH = 64
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlProblem(Exception):
    """The text is not valid YAML; carries the 1-based line and column."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def _walk(root: yaml.Node) -> LineMap:
    lines: LineMap = {}
    stack: list[tuple[yaml.Node, Path]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if len(lines) >= MAX_YAML_VALUES or len(path) > MAX_YAML_DEPTH:
            raise YamlProblem("the document is too large or too deeply nested", 1, 1)
        lines[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    stack.append((value, (*path, key.value)))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, (*path, index)) for index, item in enumerate(node.value))
    return lines


def load_with_lines(text: str) -> tuple[Any, LineMap]:
    """Parse one YAML document safely; raise YamlProblem with a line on bad YAML."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        lines = _walk(node) if node is not None else {}
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        raise YamlProblem(message or "not valid YAML", line, column) from exc
    except yaml.YAMLError as exc:
        raise YamlProblem(f"not valid YAML: {exc}", 1, 1) from exc
    except RecursionError as exc:
        raise YamlProblem("the document is nested too deeply", 1, 1) from exc
    except (ValueError, OverflowError, IndexError) as exc:
        # Raised while building a scalar the resolver accepted by its shape: an impossible
        # date (2001-02-30), an integer over Python's digit limit, or an explicit tag on
        # nothing ("!!int" alone: PyYAML reads past the empty text).
        raise YamlProblem(f"a value cannot be read: {exc}", 1, 1) from exc
    finally:
        loader.dispose()
    return data, lines


def line_of(lines: LineMap, path: Path) -> tuple[int, int]:
    """The line of the deepest known prefix of `path` (a missing key points at its parent)."""
    for end in range(len(path), -1, -1):
        found = lines.get(tuple(path[:end]))
        if found:
            return found
    return (1, 1)
