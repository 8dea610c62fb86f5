"""`open_trace_store(path)`: the trace store at `path` (default: `default_db_path()`), or a clear refusal.

Shared by every front end. Invariant: any failure to open — a directory given for a file, a place that
cannot be created or written, a newer schema, not a database — is a `StoreOpenError` whose message
names the path, never a traceback; nothing already in the file is changed by a refused open.
"""

from __future__ import annotations

from pathlib import Path

from engine.store.paths import default_db_path
from engine.store.records import StoreOpenError
from engine.store.store import TraceStore


def trace_store_path(path: str | Path | None = None) -> Path:
    return Path(path).expanduser() if path else Path(default_db_path())


def open_trace_store(path: str | Path | None = None) -> TraceStore:
    where = trace_store_path(path)
    if where.is_dir():
        raise StoreOpenError(f"{where}: is a directory, expected a trace database file")
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        return TraceStore(where)
    except Exception as exc:  # any failure to open is reported with the path, never a traceback
        raise StoreOpenError(f"cannot open trace database {where}: {exc}") from None
