"""What is wrong with a workflow, and the one error a workflow file operation raises.

`Problem` is a frozen, plain-data report: a severity ("error" blocks a run, "warning" does not), a
stable machine code, a plain sentence naming the node / edge / field by title and id, and where it
is (node id, edge id, field path such as ``params.temperature`` or ``nodes[3].role``).

`WorkflowFileError` carries the problems that stopped a load, save or paste; ``str()`` gives a
readable multi-line message. Loading a workflow raises nothing else, whatever the input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]

_MAX_LISTED = 20


@dataclass(frozen=True, slots=True)
class Problem:
    severity: Severity
    code: str
    message: str
    node_id: str | None = None
    edge_id: str | None = None
    field: str | None = None

    def __str__(self) -> str:
        return f"{self.severity}: {self.message}"


def error(code: str, message: str, *, node_id: str | None = None, edge_id: str | None = None,
          field: str | None = None) -> Problem:
    return Problem("error", code, message, node_id, edge_id, field)


def warning(code: str, message: str, *, node_id: str | None = None, edge_id: str | None = None,
            field: str | None = None) -> Problem:
    return Problem("warning", code, message, node_id, edge_id, field)


class WorkflowFileError(Exception):
    """A workflow document could not be read, written or pasted; `problems` says why and where."""

    def __init__(self, source: str, problems: list[Problem], *, action: str = "read") -> None:
        self.source = source
        self.problems = list(problems)
        self.action = action
        super().__init__(source, self.problems)

    def __str__(self) -> str:
        head = f"Cannot {self.action} workflow {self.source}:"
        lines = [f"  - {p.message}" for p in self.problems[:_MAX_LISTED]]
        if len(self.problems) > _MAX_LISTED:
            lines.append(f"  ... and {len(self.problems) - _MAX_LISTED} more problem(s)")
        return "\n".join([head, *lines])


def file_error(source: str, code: str, message: str, *, field: str | None = None,
               action: str = "read") -> WorkflowFileError:
    """A `WorkflowFileError` holding one error."""
    return WorkflowFileError(source, [error(code, message, field=field)], action=action)
