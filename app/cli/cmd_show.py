"""`triadic show RUN_ID`: one stored run in detail — summary, span tree with timings / tokens / cost,
verdicts, memory writes, when the run was paused and went on, outputs; `--events` dumps every event
as one JSON object per line (a pause is `"kind": "run_paused"`, with its `reason` and `node_id`). A unique
id prefix is accepted; an unknown or ambiguous id is a `CliError` naming the database."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from app.cli import fmt
from app.cli.errors import EXIT_OK, CliError
from app.cli.event_lines import hold_line
from app.cli.span_tree import build_tree
from app.cli.store_access import open_store
from app.cli.summary import verdict_table
from engine import events as ev

if TYPE_CHECKING:
    from engine.store import MemoryEntry, RunSummary


def execute(args: argparse.Namespace) -> int:
    store, path = open_store(args.db, must_exist=True)
    try:
        try:
            run = store.get_run(args.run_id)
        except (LookupError, ValueError) as exc:  # e.g. an ambiguous prefix
            raise CliError(f"run {args.run_id!r} in {path}: {exc}") from None
        if run is None:
            raise CliError(f"no run matches {args.run_id!r} in {path} (see 'triadic runs')")
        console = fmt.console()
        _print_summary(console, run, path)
        console.print(build_tree("spans", store.spans(run.id)))
        verdicts = list(store.verdicts(run.id))
        if verdicts:
            console.print(verdict_table(verdicts))
        writes = store.memory_writes(run.id)
        if writes:
            console.print(_memory_table(writes))
        holds = [e for e in store.iter_events(run.id, kinds=(ev.RunPaused.kind, ev.RunResumed.kind))
                 if isinstance(e, ev.RunPaused | ev.RunResumed)]
        if holds:
            console.print("Pauses:", markup=False)
            for hold in holds:
                console.print(f"  at {fmt.duration(hold.ts)}: {hold_line(hold)}", markup=False, soft_wrap=True)
        for checked in store.iter_events(run.id, kinds=(ev.ContractsChecked.kind,)):
            if isinstance(checked, ev.ContractsChecked):
                from engine.contracts import results_from_event

                for result in results_from_event(checked):
                    console.print(f"contract {result.line()}", markup=False, soft_wrap=True)
        for name, value in run.outputs.items():
            console.print(f"output {name}:", markup=False)
            console.print(fmt.text(value), markup=False, soft_wrap=True)
        if args.events:
            for event in store.iter_events(run.id):
                print(fmt.json_line(event.to_record()))
    finally:
        store.close()
    return EXIT_OK


def _print_summary(console: Console, run: RunSummary, path: Path) -> None:
    lines = [
        f"run {run.id}",
        f"workflow: {run.workflow_name or run.workflow_id} (version {run.workflow_hash[:12]})",
        f"status: {run.status}" + (f" — {run.reason}" if run.reason else ""),
        f"started: {fmt.when(run.started_at)}   finished: {fmt.when(run.finished_at)}   "
        f"duration: {fmt.duration(run.duration_s)}",
        f"tokens in/out: {fmt.tokens(run.tokens_in, run.tokens_out)}   cost: {fmt.cost(run.cost_usd)}",
        f"inputs: {fmt.one_line(run.inputs or {}, 200)}",
    ]
    if run.replay_of:
        lines.append(f"replay of: {run.replay_of}")
    if run.fork_of:
        lines.append(f"fork of: {run.fork_of} at event {run.fork_at_seq}")
    lines.append(f"db: {path}")
    for line in lines:
        console.print(fmt.safe(line), markup=False, soft_wrap=True)


def _memory_table(writes: list[MemoryEntry]) -> Table:
    table = Table(title="Memory writes", title_justify="left", pad_edge=False)
    for column in ("node", "memory", "scope", "key", "written", "value"):
        table.add_column(column, no_wrap=column != "value", min_width=12 if column == "value" else None)
    for w in writes:
        written = "yes" if w.admitted else f"refused: {w.reason}" if w.reason else "refused"
        table.add_row(w.node_id, w.memory, w.scope, w.key, written, fmt.one_line(w.value, 160))
    return table
