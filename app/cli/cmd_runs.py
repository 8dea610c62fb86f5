"""`triadic runs`: a table of past runs, newest first (id prefix, workflow, status, start, duration,
tokens, cost, lineage: "replay of <id>" / "fork of <id> @ seq N"), as a tree: a replay or fork listed
with its source comes right under it, indented. `--workflow` keeps the runs whose workflow name or id
matches (case-insensitive)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from rich.table import Table

from app.cli import fmt
from app.cli.errors import EXIT_OK
from app.cli.store_access import open_store

if TYPE_CHECKING:
    from engine.store import RunSummary

ID_PREFIX = 12


def _matches(run: RunSummary, wanted: str) -> bool:
    names = (run.workflow_name, run.workflow_id)
    return any(wanted.casefold() == str(n).casefold() for n in names if n)


def lineage(run: RunSummary) -> str:
    if run.replay_of:
        return f"replay of {run.replay_of[:ID_PREFIX]}"
    if run.fork_of:
        return f"fork of {run.fork_of[:ID_PREFIX]} @ seq {run.fork_at_seq}"
    return ""


def as_tree(runs: list[RunSummary]) -> list[tuple[int, RunSummary]]:
    """(depth, run) in listing order, each replay / fork right under its source when that is listed."""
    listed = {run.id for run in runs}
    children: dict[str, list[RunSummary]] = {}
    for run in runs:
        parent = run.replay_of or run.fork_of
        if parent in listed:
            children.setdefault(str(parent), []).append(run)
    out: list[tuple[int, RunSummary]] = []

    def visit(run: RunSummary, depth: int) -> None:
        out.append((depth, run))
        for child in children.get(run.id, []):
            visit(child, depth + 1)

    for run in runs:
        if (run.replay_of or run.fork_of) not in listed:
            visit(run, 0)
    return out


def execute(args: argparse.Namespace) -> int:
    store, path = open_store(args.db, must_exist=True)
    try:
        if args.workflow:
            runs = [r for r in store.list_runs(limit=1_000_000) if _matches(r, args.workflow)][: args.limit]
        else:
            runs = list(store.list_runs(limit=args.limit))
    finally:
        store.close()
    console = fmt.console()
    if not runs:
        scope = f" of workflow {args.workflow!r}" if args.workflow else ""
        console.print(f"no runs{scope} in {path}", markup=False)
        return EXIT_OK
    table = Table(title=f"Runs in {path}", title_justify="left", pad_edge=False)
    for column in ("run", "workflow", "status", "started", "duration", "tokens in/out", "cost", "lineage"):
        table.add_column(column, no_wrap=column not in ("workflow", "lineage"))
    for depth, run in as_tree(runs):
        table.add_row(("  " * (depth - 1) + "└ " if depth else "") + run.id[:ID_PREFIX], run.workflow_name or run.workflow_id, run.status,
                      fmt.when(run.started_at), fmt.duration(run.duration_s),
                      fmt.tokens(run.tokens_in, run.tokens_out), fmt.cost(run.cost_usd), lineage(run))
    console.print(table)
    return EXIT_OK
