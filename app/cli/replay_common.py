"""What `triadic replay` and `triadic fork` share: opening the source run, saying how today's workflow
file differs from the recorded version, driving the new run and reporting what was served.

Invariants: every failure to find or use the source run is a `CliError` (exit 2) naming the run; the
new run is driven exactly like `triadic run` (`drive_run`: board, reporters, Ctrl-C) and its exit
code follows its status (0 succeeded, 1 otherwise, 130 interrupted).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, CliError

if TYPE_CHECKING:
    from engine.replay import ReplaySetup, ReplaySource
    from engine.runtime import Run
    from engine.runtime.control import HumanPolicy
    from engine.store import TraceStore


def load(store: TraceStore, run_id: str) -> ReplaySource:
    from engine.replay import ReplayError, load_source
    from engine.store.records import AmbiguousRunIdError

    try:
        return load_source(store, run_id)
    except AmbiguousRunIdError as exc:
        raise CliError(str(exc)) from None
    except ReplayError as exc:
        raise CliError(str(exc)) from None


def report_changes(source: ReplaySource, file: str | None) -> Path | None:
    """Say (on stderr) which nodes of `file` and of its sub-graph files differ from the versions the run ran
    (or that its sub-graph files cannot be checked); the file's folder, if given."""
    if not file:
        return None
    from app.cli.workflow_file import load as load_file
    from engine.graph.format import workflow_to_dict
    from engine.replay import run_changes

    folder = Path(file).resolve().parent
    changes = run_changes(source.document, source.sub_graphs, workflow_to_dict(load_file(file)), folder)
    if changes.lines:
        print(f"triadic: {file} or its sub-graph files differ from the versions run {source.run.id[:12]} ran; "
              "re-running the recorded versions. Differences:", file=sys.stderr)
        for line in changes.lines:
            print(f"  {line}", file=sys.stderr)
    if changes.unchecked:
        print(f"triadic: {changes.unchecked_note()}", file=sys.stderr)
    return folder


def drive(setup: ReplaySetup, store: TraceStore, db_path: Path, args: argparse.Namespace,
          starter: Callable[[HumanPolicy], Run]) -> int:
    from app.cli.drive import RunOptions, drive_run
    from app.cli.summary import print_summary
    from engine.graph.format import workflow_from_dict

    options = RunOptions(json=args.json, quiet=args.quiet, auto_approve=getattr(args, "auto_approve", False),
                         auto_reject=getattr(args, "auto_reject", False))
    workflow = workflow_from_dict(dict(setup.plan.document))
    try:
        outcome = asyncio.run(drive_run(setup.plan, workflow, store, options, source=f"run {setup.source.run.id[:12]}",
                                        starter=starter))
    except asyncio.CancelledError:
        print("triadic: interrupted before the run finished cancelling", file=sys.stderr)
        return EXIT_INTERRUPTED
    if not args.json:
        print_summary(outcome.board, db_path, brief=args.quiet)
        gateway = setup.gateway
        print(f"from the recording of {setup.source.run.id[:12]}: {gateway.served} model call(s) and "
              f"{setup.tools.served} tool call(s) served, {gateway.live_calls} model call(s) live, "
              f"{len(gateway.divergences)} divergence(s)")
        if gateway.mode == "strict" and outcome.board.run_id:
            print(_identity_line(store, setup.source.run.id, outcome.board.run_id))
    if outcome.interrupted:
        print("triadic: interrupted — the run was cancelled and its trace kept", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK if outcome.board.status == "succeeded" else EXIT_FAILED


def _identity_line(store: TraceStore, source: str, replayed: str) -> str:
    """Whether a strict replay's events equal the recording's byte for byte (`engine.replay.identity`)."""
    from engine.replay.identity import first_difference

    difference = first_difference(store.iter_events(source), store.iter_events(replayed))
    if difference is None:
        return "events: identical to the recording, byte for byte (run id and lineage aside)"
    return f"events: differ from the recording at {difference}"
