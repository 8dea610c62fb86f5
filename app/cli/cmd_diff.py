"""`triadic diff A B`: how run B differs from run A — the first event where they diverge, nodes only one
ran, verdict changes, token / cost / duration deltas per node and for the run, and each node's outputs
as a unified diff. Both runs are read from the store and folded into `RunProjection`s; the comparison
is `engine.compare.compare`. Exit 0 when nothing differs (a run and its replay), 1 when something
does, 2 for a run that is not in the store.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from rich.table import Table

from app.cli import fmt
from app.cli.errors import EXIT_FAILED, EXIT_OK
from app.cli.store_access import find_run, open_store

if TYPE_CHECKING:
    from engine.compare import RunDiff
    from engine.projection import RunProjection
    from engine.store import TraceStore


def _projection(store: TraceStore, run_id: str) -> RunProjection:
    from engine.projection import project

    return project(store.iter_events(find_run(store, run_id).id))


def execute(args: argparse.Namespace) -> int:
    from engine.compare import compare

    store, _ = open_store(args.db, must_exist=True)
    try:
        a, b = _projection(store, args.run_a), _projection(store, args.run_b)
    finally:
        store.close()
    diff = compare(a, b)
    _print(diff, a, b)
    return EXIT_OK if diff.same else EXIT_FAILED


def _print(diff: RunDiff, a: RunProjection, b: RunProjection) -> None:
    from engine.compare.delta_text import signed, signed_cost

    out = fmt.console()
    say = lambda text: out.print(text, markup=False, soft_wrap=True)  # noqa: E731
    say(f"A {a.run_id[:12]} ({a.workflow_name}, {a.status}) → B {b.run_id[:12]} ({b.workflow_name}, {b.status})")
    say("no differences" if diff.same else "the runs differ")
    if (d := diff.first_divergence) is not None:
        say(f"first divergence: {d.lane} — A seq {d.seq_a if d.seq_a is not None else '-'}, "
            f"B seq {d.seq_b if d.seq_b is not None else '-'}")
        say(f"  {d.detail}" if d.detail else f"  A: {d.event_a}\n  B: {d.event_b}")
    if diff.only_a:
        say(f"ran only in A: {', '.join(diff.only_a)}")
    if diff.only_b:
        say(f"ran only in B: {', '.join(diff.only_b)}")
    t = diff.totals
    say(f"run: tokens {signed(t.tokens)}, cost {signed_cost(t.cost_usd, suffix=' USD')}, "
        f"duration {signed(t.duration_s or 0.0, 3, suffix=' s')}")
    table = Table(title="Per node (B − A)", title_justify="left", pad_edge=False)
    for column in ("node", "tokens", "cost USD", "duration s"):
        table.add_column(column, no_wrap=True)
    for delta in diff.deltas:
        table.add_row(delta.node_id, signed(delta.tokens), signed_cost(delta.cost_usd),
                      "-" if delta.duration_s is None else signed(delta.duration_s, 3))
    if diff.deltas:
        out.print(table)
    if diff.verdicts:
        verdicts = Table(title="Verdict changes", title_justify="left", pad_edge=False)
        for column in ("judge", "subject", "round", "A", "B"):
            verdicts.add_column(column, no_wrap=True)
        for v in diff.verdicts:
            verdicts.add_row(v.judge, v.subject, str(v.round), v.before, v.after)
        out.print(verdicts)
    for node, lines in diff.output_diffs.items():
        say(f"outputs of {node}:")
        for line in lines:
            say(line)
