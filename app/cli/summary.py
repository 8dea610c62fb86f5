"""The final summary of a `triadic run`: status, totals, per-node table, verdicts, outputs, ids.

Invariant: reads only the `RunBoard` (folded from the run's events) and the run result's figures;
prints with rich so tables fit the terminal, and plain text when stdout is not a terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rich.console import Console
from rich.table import Table

from app.cli import fmt
from app.cli.board import RunBoard

_STATUS_STYLE = {"succeeded": "bold green", "failed": "bold red", "cancelled": "bold magenta",
                 "budget_exceeded": "bold yellow", "interrupted": "bold magenta"}


if TYPE_CHECKING:
    from engine.runtime import RunResult


def node_table(board: RunBoard) -> Table:
    table = Table(title="Nodes", title_justify="left", pad_edge=False)
    table.add_column("node", min_width=12, overflow="fold")
    for column in ("role", "state", "runs", "round", "calls", "tools", "tokens in/out", "cost", "time"):
        table.add_column(column, no_wrap=True)
    for row in board.rows.values():
        state = row.state + (f" (attempt {row.attempt})" if row.attempt > 1 else "")
        table.add_row(f"{row.title} ({row.node_id})", row.role, state, str(row.executions),
                      str(row.round), str(row.llm_calls), str(row.tool_calls),
                      fmt.tokens(row.tokens_in, row.tokens_out), fmt.cost(row.cost_usd),
                      fmt.duration(row.duration_s))
    return table


class Verdict(Protocol):
    """What the verdict table reads: a `VerdictIssued` event or a stored `VerdictRecord`."""

    @property
    def node_id(self) -> str: ...
    @property
    def subject_node_id(self) -> str: ...
    @property
    def decision(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def round(self) -> int: ...
    @property
    def reasons(self) -> Sequence[str]: ...


def verdict_table(verdicts: Iterable[Verdict]) -> Table:
    table = Table(title="Verdicts", title_justify="left", pad_edge=False)
    for column in ("judge", "subject", "decision", "score", "round", "first reason"):
        table.add_column(column, no_wrap=column != "first reason", min_width=12 if column == "first reason" else None)
    for v in verdicts:
        reason = fmt.one_line(v.reasons[0], 160) if v.reasons else ""
        table.add_row(v.node_id, v.subject_node_id, v.decision, f"{v.score:.2f}", str(v.round), reason)
    return table


def print_summary(board: RunBoard, db_path: Path, *, console: Console | None = None,
                  brief: bool = False) -> None:
    out = console or fmt.console()
    style = _STATUS_STYLE.get(board.status, "bold")
    out.print(f"[{style}]{board.status}[/] — {board.workflow_name} — {fmt.duration(board.duration_s)}, "
              f"tokens in/out {fmt.tokens(board.tokens_in, board.tokens_out)}, cost {fmt.cost(board.cost_usd)}",
              soft_wrap=True)
    if board.reason:
        out.print(f"reason: {fmt.safe(board.reason)}", markup=False, soft_wrap=True)
    for problem in board.problems:  # a trace that is not complete is said even in brief
        if not brief or problem.startswith("not recorded"):
            out.print(f"problem: {fmt.safe(problem)}", markup=False, soft_wrap=True)
    if not brief:
        out.print(node_table(board))
        if board.verdicts:
            out.print(verdict_table(board.verdicts))
    if board.contracts is not None:  # said even in brief: a broken contract is the run's outcome too
        from engine.contracts import results_from_event

        for result in results_from_event(board.contracts):
            out.print(f"contract {result.line()}", markup=False, soft_wrap=True)
    for name, value in board.outputs.items():
        out.print(f"output {name}:", markup=False)
        out.print(fmt.text(value), markup=False, soft_wrap=True)
    out.print(f"run id: {board.run_id}", markup=False, soft_wrap=True)
    out.print(f"db: {db_path}", markup=False, soft_wrap=True)


def report_not_recorded(result: RunResult, db_path: Path, *, as_json: bool) -> None:
    """The last word of a run whose trace is incomplete: a JSON object (--json) on stdout, and always a
    final `problem:` line on stderr (exit code 3, see cmd_run)."""
    import json
    import sys

    lost = result.recording_errors
    if as_json:
        print(json.dumps({"kind": "recording_incomplete", "run_id": result.run_id, "status": result.status,
                          "problems": lost[:20], "problem_count": len(lost), "db": str(db_path)}), flush=True)
    print(f"triadic: problem: the run {result.status} but its trace in {db_path} is incomplete — "
          f"{len(lost)} problem(s) recording it; first: {lost[0]}", file=sys.stderr, flush=True)
