"""`triadic export RUN -o FILE`: write a finished run to one bundle file (`engine.bundle`).

An export that cannot be made (no such run, still running, a key-like value, an unwritable place) is
a `CliError` naming what and where; nothing is written then.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.errors import CliError
from app.cli.store_access import open_store


def execute(args: argparse.Namespace) -> int:
    from engine.bundle import BundleError, export_run
    from engine.store import AmbiguousRunIdError

    store, _ = open_store(args.db, must_exist=True)
    try:
        manifest = export_run(store, args.run_id, Path(args.output))
    except (BundleError, AmbiguousRunIdError) as exc:
        raise CliError(f"export: {exc}") from None
    finally:
        store.close()
    print(f"exported run {manifest['run_id'][:12]} ({manifest['events']} events, {manifest['status']}) "
          f"to {args.output}")
    return 0
