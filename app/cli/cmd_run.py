"""`triadic run FILE`: check the inputs, compile, run with live progress, print the summary.

Order of checks (each failure a one-line `CliError`, exit 2, nothing run or stored): flag syntax →
model-override roles → the file loads → it validates → input names exist → it compiles. Then the run
goes through `app.cli.drive.drive_run` on a fresh asyncio loop. Exit 0 when the run succeeded, 1 when
it failed / was cancelled / exceeded a budget / broke one of its workflow's trace contracts, 3 when part of its trace could not be recorded (a final
`problem:` line on stderr; with --json a last `recording_incomplete` object), 130 when the user pressed
Ctrl-C (the run is cancelled cleanly and the store closed, so the DB stays consistent). `--input`
values may come from a file (`NAME=@path`) or stdin (`NAME=@-`). `--otel URL` sends the run, once it has
ended, to an OTLP/HTTP receiver; a failed export is one `triadic:` line on stderr and never changes the
run's exit code.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_NOT_RECORDED, EXIT_OK, CliError
from app.cli.input_values import resolve_inputs
from app.cli.options import apply_run_limits, check_inputs, check_overrides, parse_pairs
from app.cli.workflow_file import errors_of, load, problem_lines

if TYPE_CHECKING:
    from engine.store import TraceStore


def execute(args: argparse.Namespace) -> int:
    inputs = parse_pairs(args.input, "--input", "NAME=VALUE, e.g. --input goal='Write a haiku'")
    inputs = resolve_inputs(inputs)
    overrides = parse_pairs(args.model_override, "--model-override", "ROLE=MODEL, e.g. executor=sim/default")
    check_overrides(overrides)
    workflow = load(args.file)
    apply_run_limits(workflow, max_cost=args.max_cost, max_tokens=args.max_tokens, deadline=args.deadline,
                     seed=args.seed)

    from engine.graph.validate import validate
    from engine.runtime import CompileError, compile_workflow

    problems = validate(workflow)
    errors = errors_of(problems)
    if errors:
        raise CliError("\n".join(problem_lines(args.file, errors)))
    if not args.quiet:
        for line in problem_lines(args.file, problems):
            print(line, file=sys.stderr)
    check_inputs(workflow, inputs, args.file)
    try:
        plan = compile_workflow(workflow, base_dir=Path(args.file).resolve().parent)
    except CompileError as exc:
        lines = problem_lines(args.file, getattr(exc, "problems", None) or [])
        raise CliError("\n".join(lines) or f"{args.file}: error: {exc}") from None

    from app.cli.drive import RunOptions, drive_run
    from app.cli.store_access import open_store
    from app.cli.summary import print_summary, report_not_recorded

    store, db_path = open_store(args.db)
    options = RunOptions(inputs=dict(inputs), model_overrides=overrides, json=args.json, quiet=args.quiet,
                         stream=args.stream, auto_approve=args.auto_approve, auto_reject=args.auto_reject)
    try:
        outcome = asyncio.run(drive_run(plan, workflow, store, options, source=args.file))
        if args.otel:
            _export_otel(store, outcome.board.run_id, args)
    except asyncio.CancelledError:  # a second Ctrl-C: stop waiting for the cancelled run
        print("triadic: interrupted before the run finished cancelling", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        store.close()
    if not args.json:
        print_summary(outcome.board, db_path, brief=args.quiet)
    if outcome.interrupted:
        print("triadic: interrupted — the run was cancelled and its trace kept", file=sys.stderr)
        return EXIT_INTERRUPTED
    if outcome.result.recording_errors:
        report_not_recorded(outcome.result, db_path, as_json=args.json)
        return EXIT_NOT_RECORDED
    broken = outcome.board.contracts is not None and outcome.board.contracts.violated > 0
    return EXIT_OK if outcome.board.status == "succeeded" and not broken else EXIT_FAILED


def _export_otel(store: TraceStore, run_id: str, args: argparse.Namespace) -> None:
    """Send the run that just ended to `--otel`; any failure is reported, never raised."""
    from app.cli.otel_export import OtelTarget, export_runs
    from engine.export.otel import OtelExportError

    run = store.get_run(run_id) if run_id else None
    if run is None:
        return
    target = OtelTarget(endpoint=args.otel, include_content=args.otel_include_content)
    try:
        count = export_runs(store, [run], target)
    except OtelExportError as exc:
        print(f"triadic: the run was not exported: {exc}", file=sys.stderr)
        return
    if not args.json:
        print(f"exported {count} spans to {target.where}", file=sys.stderr)
