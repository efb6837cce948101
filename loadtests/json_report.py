"""Writing a command's result as JSON beside what it prints (``--json PATH``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def write_json(path: Path | None, result: Any, command: str) -> bool:
    """Write ``result`` to ``path`` (nothing without one); ``False``, with the reason on stderr
    under the command's name, when the file cannot be written."""
    if path is None:
        return True
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result, indent=2) + "\n")
    except OSError as exc:
        print(f"loadtests {command}: cannot write {path}: {exc}", file=sys.stderr)
        return False
    return True
