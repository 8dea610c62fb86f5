"""`triadic vacuum`: compact the trace database (SQLite VACUUM, the WAL truncated) and print its size
before and after. Pruned or deleted runs leave free pages in the file until then."""

from __future__ import annotations

import argparse

from app.cli import fmt
from app.cli.errors import EXIT_OK
from app.cli.store_access import open_store


def execute(args: argparse.Namespace) -> int:
    from engine.store.housekeeping import fmt_size

    store, path = open_store(args.db, must_exist=True)
    try:
        before = store.size_bytes()
        store.vacuum()
        after = store.size_bytes()
    finally:
        store.close()
    fmt.console().print(f"{path}: {fmt_size(before)} → {fmt_size(after)}", markup=False)
    return EXIT_OK
