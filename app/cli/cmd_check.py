"""`triadic check RUN... [--workflow FILE]`: check past runs against trace contracts.

Each run is checked against the contracts of the workflow version it recorded, or of FILE when
given (its other validation errors do not matter here, only that its contracts can be read), and each
sub-graph's own contracts — those of the sub-graph version the run recorded — over that sub-graph's
executions (their lines begin "[sub-graph 'path']"); one line per contract: PASS, or FAIL with the first violating event's seq (as `show --events` lists it)
and why. Exit 0 when every contract of every run holds, 1 on any violation, 2 for a run that is not
in the store or contracts that cannot be read.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from app.cli import fmt
from app.cli.errors import EXIT_FAILED, EXIT_OK, CliError
from app.cli.store_access import find_run, open_store
from app.cli.workflow_file import load

if TYPE_CHECKING:
    from engine.graph.contract_form import Contract
    from engine.store import TraceStore
    from engine.store.records import RunSummary


def execute(args: argparse.Namespace) -> int:
    given = load(args.workflow).contracts if args.workflow else None
    store, _ = open_store(args.db, must_exist=True)
    try:
        runs = [find_run(store, run_id) for run_id in args.run_ids]
        violated = sum(_check(store, run, given) for run in runs)
    finally:
        store.close()
    return EXIT_FAILED if violated else EXIT_OK


def _check(store: TraceStore, run: RunSummary, given: tuple[Contract, ...] | None) -> int:
    """Print how `run` fares; the number of contracts it violates."""
    from engine.contracts import ContractSourceError, check_stored_run, recorded_contracts

    try:
        contracts = given if given is not None else recorded_contracts(store, run)
    except ContractSourceError as exc:
        raise CliError(f"run {run.id[:12]}: {exc}") from None
    out = fmt.console()
    source = "the given file" if given is not None else f"workflow version {run.workflow_hash[:12]}"
    out.print(f"run {run.id[:12]} ({run.workflow_name}, {run.status}) against {source}:", markup=False)
    try:
        results = check_stored_run(store, run, contracts)
    except ContractSourceError as exc:
        raise CliError(f"run {run.id[:12]}: {exc}") from None
    if not results:
        out.print("  no contracts to check", markup=False)
        return 0
    for result in results:
        out.print(f"  {result.line()}", markup=False, soft_wrap=True)
    return sum(not r.passed for r in results)
