"""Loading a workflow file for the CLI, with every problem reported as one line naming its location.

Invariant: whatever the file holds, the caller gets a `Workflow` or a `CliError` whose message lists
each problem as `FILE: severity: message [node ..., edge ..., field ...] (code)`; never a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.errors import CliError

if TYPE_CHECKING:
    from engine.graph.model import Workflow


def problem_line(source: str, problem: Any) -> str:
    """One line for a `Problem` (duck-typed: severity, code, message, node_id, edge_id, field)."""
    where = [f"{label} {value}" for label, value in (
        ("node", getattr(problem, "node_id", None)),
        ("edge", getattr(problem, "edge_id", None)),
        ("field", getattr(problem, "field", None)),
    ) if value]
    location = f" [{', '.join(where)}]" if where else ""
    code = getattr(problem, "code", "")
    suffix = f" ({code})" if code else ""
    severity = getattr(problem, "severity", "error")
    return f"{source}: {severity}: {getattr(problem, 'message', problem)}{location}{suffix}"


def problem_lines(source: str, problems: Iterable[Any]) -> list[str]:
    return [problem_line(source, p) for p in problems]


def errors_of(problems: Iterable[Any]) -> list[Any]:
    return [p for p in problems if getattr(p, "severity", "error") == "error"]


def load(path: str) -> Workflow:
    """Load a workflow file or raise `CliError` listing why it cannot be read."""
    from engine.graph.format import WorkflowFileError, load_workflow

    try:
        return load_workflow(Path(path))
    except WorkflowFileError as exc:
        lines = problem_lines(path, exc.problems) or [f"{path}: error: {exc}"]
        raise CliError("\n".join(lines)) from None
