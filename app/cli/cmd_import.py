"""`triadic import FILE [--as-new]`: add the run a bundle holds to the store (`engine.bundle`).

A refused bundle is a `CliError` with the bundle's own message (what and where); the store is
unchanged. A run the store already has is refused, naming `--as-new`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.errors import CliError
from app.cli.store_access import open_store


def execute(args: argparse.Namespace) -> int:
    from engine import events as ev
    from engine.bundle import BundleError, import_bundle

    store, _ = open_store(args.db)
    try:
        bundle = import_bundle(store, Path(args.file), as_new=args.as_new)
    except BundleError as exc:
        raise CliError(f"import {args.file}: {exc}") from None
    finally:
        store.close()
    first = bundle.events[0]
    lineage = ""
    if isinstance(first, ev.RunStarted) and (first.replay_of or first.fork_of):
        lineage = f" (replay of {first.replay_of[:12]})" if first.replay_of else \
            f" (fork of {str(first.fork_of)[:12]} @ seq {first.fork_at_seq})"
    print(f"imported run {bundle.run_id}{lineage}: {len(bundle.events)} events; "
          f"`triadic replay {bundle.run_id[:12]}` re-runs it")
    return 0
