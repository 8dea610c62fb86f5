"""`triadic prune`: remove old runs from the trace store (`triadic vacuum` gives the space back).

`prune --older-than DAYS` and/or `--keep N` (the newest N runs of each workflow stay); a run goes
when it meets every rule given. Runs still going are never removed, nor a run that a replay or fork
which stays descends from (it is kept and counted, so the lineage stays whole). `--dry-run` says what
would go and removes nothing. `vacuum` compacts the database file and prints its size before and after.
"""

from __future__ import annotations

import argparse

from app.cli import fmt
from app.cli.errors import EXIT_OK, CliError
from app.cli.store_access import open_store

SHOWN = 20


def execute(args: argparse.Namespace) -> int:
    from engine.store.housekeeping import PruneRuleError, apply_prune, plan_prune

    store, path = open_store(args.db, must_exist=True)
    console = fmt.console()
    try:
        try:
            plan = plan_prune(store, older_than_days=args.older_than, keep=args.keep)
        except PruneRuleError as exc:
            raise CliError(f"triadic prune: {exc}") from None
        for run_id in plan.delete[:SHOWN]:
            console.print(f"{'would remove' if args.dry_run else 'remove'} {run_id[:12]}", markup=False)
        if len(plan.delete) > SHOWN:
            console.print(f"… and {len(plan.delete) - SHOWN} more", markup=False)
        if args.dry_run:
            console.print(f"dry run ({path}): {plan.describe()}; nothing removed", markup=False)
            return EXIT_OK
        removed = apply_prune(store, plan)
        console.print(f"{path}: removed {removed} run{'s' if removed != 1 else ''}; {plan.describe()}. "
                      "Run 'triadic vacuum' to give the space back to the disk.", markup=False)
    finally:
        store.close()
    return EXIT_OK
