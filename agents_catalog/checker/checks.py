"""Every check of one file that needs nothing but the file and the scheme.

Order: YAML problems (nothing else can be checked), the agent's own fields on the raw
data, the agent format, then prompts and conversation variables. The raw-data checks
are written to tolerate malformed data, so a file with a format error still gets its
naming findings in the same run.
"""

from __future__ import annotations

from .context import FileCheck
from .conventions import check_conventions
from .fields import check_format, check_own_fields
from .findings import Finding
from .prompts import check_prompts
from .source import SourceFile
from .values import CompiledScheme
from .variables import check_variables
from .workflows import check_workflows


def check_file(source: SourceFile, scheme: CompiledScheme) -> list[Finding]:
    """The findings of one parsed file (before suppressions and rule selection)."""
    check = FileCheck(source, scheme)
    if source.problem is not None:
        problem = source.problem
        check.add_at("NS011", problem.line, problem.column, problem.message)
        return check.findings
    data = source.data
    if not isinstance(data, dict):
        check.add_at("NS011", 1, 1, "an agent file is a YAML mapping (name, title, tag, ...)")
        return check.findings
    check_own_fields(check, data)
    check_format(check, data)
    check_prompts(check, data)
    check_variables(check, data)
    check_workflows(check, data)
    check_conventions(check, data)
    return check.findings
