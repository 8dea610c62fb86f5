"""`triadic fork RUN --at NODE[#EXECUTION]`: a new run (`fork_of`, `fork_at_seq`) that serves everything
before that execution of the node from the recording and runs the node — with `--model`, `--prompt`,
`--param k=v` changed — and everything downstream of it live.

Human gates the recording answered get the recorded answers; later ones follow `--auto-approve` /
`--auto-reject` or ask on the terminal, as in `triadic run`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from app.cli import replay_common
from app.cli.options import parse_pairs
from app.cli.store_access import open_store

if TYPE_CHECKING:
    from engine.runtime import Run
    from engine.runtime.control import HumanPolicy


def execute(args: argparse.Namespace) -> int:
    from engine.llm.offline_first import OfflineFirstGateway
    from engine.replay import ReplayError, prepare_fork, replay_human, start_replay
    from engine.runtime import CompileError

    params = parse_pairs(args.param, "--param", "KEY=VALUE, e.g. --param temperature=0.7")
    store, db_path = open_store(args.db, must_exist=True)
    try:
        source = replay_common.load(store, args.run_id)
        base_dir = replay_common.report_changes(source, args.file)
        try:  # checked before anything runs: the fork point exists, the edited workflow compiles
            setup, point = prepare_fork(store, source, args.at, live=OfflineFirstGateway(), model=args.model,
                                        prompt=args.prompt, params=params, base_dir=base_dir)
        except (ReplayError, CompileError) as exc:
            raise replay_common.CliError(f"run {source.run.id[:12]} cannot be forked: {exc}") from None

        def start(human: HumanPolicy) -> Run:  # gates the recording never answered: as `triadic run` would
            setup.human = replay_human(source.recording, human)
            return start_replay(setup, store)

        if not args.json:
            print(f"forking run {source.run.id[:12]} at {point.node_id} execution {point.execution} "
                  f"(seq {point.seq})")
        return replay_common.drive(setup, store, db_path, args, start)
    finally:
        store.close()
