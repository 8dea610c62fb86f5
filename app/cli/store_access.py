"""Opening the trace store for a command: resolve the DB path, open it, report recovered runs.

The path is `--db` when given, else `engine.store.default_db_path()` (which honours $TRIADIC_DB).
Invariants: a store that cannot be opened (a newer schema, not a database, unwritable place) is a
`CliError` naming the path, never a traceback; runs the store marked "interrupted" at open (left
"running" by a killed process) are reported in one line on stderr.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.errors import CliError

if TYPE_CHECKING:
    from engine.store import TraceStore
    from engine.store.records import RunSummary


def db_path(option: str | None) -> Path:
    from engine.store.opening import trace_store_path

    return trace_store_path(option)


def open_store(option: str | None, *, must_exist: bool = False) -> tuple[TraceStore, Path]:
    from engine.store.opening import open_trace_store
    from engine.store.records import StoreOpenError

    path = db_path(option)
    try:
        exists, is_dir = path.exists(), path.is_dir()  # raise PermissionError for a folder we may not enter
    except OSError as exc:
        raise CliError(f"cannot open trace database {path}: {exc.strerror or exc} (choose another path with "
                       "--db or TRIADIC_DB)") from None
    if must_exist and not exists:
        raise CliError(f"no trace database at {path} (run a workflow first, or pass --db PATH)")
    if is_dir:
        raise CliError(f"--db {path}: is a directory, expected a database file")
    try:
        store = open_trace_store(path)
    except StoreOpenError as exc:  # the message names the path
        raise CliError(str(exc)) from None
    report_recovered(store)
    return store, path


def report_recovered(store: TraceStore) -> None:
    recovered = list(store.recovered_runs)
    if recovered:
        ids = ", ".join(run_id[:12] for run_id in recovered[:5])
        more = f" and {len(recovered) - 5} more" if len(recovered) > 5 else ""
        print(f"triadic: {len(recovered)} run(s) left unfinished by an earlier process were marked "
              f"interrupted: {ids}{more}", file=sys.stderr)


def find_run(store: TraceStore, run_id: str) -> RunSummary:
    """The stored run with this id or unique prefix; `CliError` when there is none or the prefix is shared."""
    from engine.store.records import AmbiguousRunIdError

    try:
        run = store.get_run(run_id)
    except AmbiguousRunIdError as exc:
        raise CliError(str(exc)) from None
    if run is None:
        raise CliError(f"no run {run_id!r} in the store")
    return run
