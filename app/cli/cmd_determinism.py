"""`triadic check-determinism FILE -n N`: run the workflow live N times with the same inputs (each run
stored like any other) and print, per node, how often its output was the most common one — exactly and
after whitespace / JSON normalisation — and the spread (min / median / max) of its tokens, cost and
duration. `--vary-seed` gives run i the seed + i: the simulated provider's answers then vary as a
real model's may, which makes the check show something offline. Exit 0 when every node was exactly
consistent, 1 when some node was not, 2 for bad input.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from rich.table import Table

from app.cli import fmt
from app.cli.errors import EXIT_FAILED, EXIT_OK, CliError
from app.cli.options import check_inputs, parse_pairs
from app.cli.workflow_file import errors_of, load, problem_lines


def execute(args: argparse.Namespace) -> int:
    from app.cli.store_access import open_store
    from engine.compare.determinism import consistency, repeat
    from engine.llm.offline_first import OfflineFirstGateway
    from engine.runtime import CompileError, compile_workflow

    inputs = parse_pairs(args.input, "--input", "NAME=VALUE, e.g. --input goal='Write a haiku'")
    workflow = load(args.file)
    check_inputs(workflow, inputs, args.file)
    base_seed = int(workflow.settings.seed)
    plans = []
    try:
        for i in range(args.n):
            if args.vary_seed:
                workflow.settings.seed = base_seed + i
            plans.append(compile_workflow(workflow, base_dir=Path(args.file).resolve().parent))
            if not args.vary_seed:
                plans *= args.n
                break
    except CompileError as exc:
        lines = problem_lines(args.file, errors_of(getattr(exc, "problems", None) or []))
        raise CliError("\n".join(lines) or f"{args.file}: error: {exc}") from None
    store, db_path = open_store(args.db)
    try:
        projections = asyncio.run(repeat(plans, gateway=OfflineFirstGateway(), store=store, inputs=dict(inputs)))
    finally:
        store.close()
    rows = consistency(projections)
    statuses = ", ".join(f"{p.run_id[:12]} {p.status}" for p in projections)
    out = fmt.console()
    out.print(f"{len(projections)} live runs of {workflow.name}{' (seed varied per run)' if args.vary_seed else ''}: "
              f"{statuses}", markup=False, soft_wrap=True)
    table = Table(title="Per node", title_justify="left", pad_edge=False)
    for column in ("node", "identical", "normalised", "distinct", "tokens min/med/max", "cost USD min/med/max",
                   "duration s min/med/max"):
        table.add_column(column, no_wrap=True)
    for row in rows:
        table.add_row(row.node_id, f"{row.exact}/{row.runs} ({row.exact_share:.0%})",
                      f"{row.normalised}/{row.runs} ({row.normalised_share:.0%})", str(row.distinct),
                      "/".join(f"{v:,.0f}" for v in (row.tokens.low, row.tokens.median, row.tokens.high)),
                      "/".join(f"{v:.6g}" for v in (row.cost_usd.low, row.cost_usd.median, row.cost_usd.high)),
                      "/".join(f"{v:.3f}" for v in (row.duration_s.low, row.duration_s.median, row.duration_s.high)))
    out.print(table)
    out.print(f"db: {db_path}", markup=False, soft_wrap=True)
    return EXIT_OK if all(row.exact == row.runs for row in rows) else EXIT_FAILED
