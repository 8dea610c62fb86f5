"""`triadic replay RUN`: re-run a past run from its recording — every model call, tool call, memory
read and human answer served from it, zero provider calls — as a new run linked by `replay_of`.

`--strict` (the default) stops the run, failed, at the first call its recording does not hold as made
(the event names the node and what differs); `--fork-on-divergence` runs that node and what follows
live instead. The recorded workflow version runs; with `--file`, the nodes today's file changes are
listed first.
"""

from __future__ import annotations

import argparse

from app.cli import replay_common
from app.cli.store_access import open_store


def execute(args: argparse.Namespace) -> int:
    from engine.replay import ReplayError, prepare_replay, start_replay
    from engine.runtime import CompileError

    store, db_path = open_store(args.db, must_exist=True)
    try:
        source = replay_common.load(store, args.run_id)
        base_dir = replay_common.report_changes(source, args.file)
        mode = "fork" if args.fork_on_divergence else "strict"
        live = None
        if mode == "fork":
            from engine.llm.offline_first import OfflineFirstGateway

            live = OfflineFirstGateway()
        try:
            setup = prepare_replay(source, mode=mode, live=live, base_dir=base_dir)
        except (ReplayError, CompileError) as exc:
            raise replay_common.CliError(f"run {source.run.id[:12]} cannot be replayed: {exc}") from None
        return replay_common.drive(setup, store, db_path, args, lambda _human: start_replay(setup, store))
    finally:
        store.close()
