"""The trace store: every run's event stream, derived tables and workflow versions in local SQLite.

`TraceStore(path)` opens (creating or migrating) a database; `store.writer()` returns the
`TraceWriter` a run appends its `engine.events` events to; the queries rebuild events and return
frozen records. `default_db_path()` is where the app keeps its database (env `TRIADIC_DB` overrides).

Layout: `tables` (schema as SQLModel tables), `migrations` (ordered upgrade steps, PRAGMA
user_version; `legacy_v2` reads the old layout for them), `segments` (events packed per batch),
`codec` (compact JSON, call keys), `rows` (run, memory and verdict rows), `batch` (one transaction
per batch), `writer` (background thread), `queries` (read side), `spans` / `calls` (derived from the
events), `store`.

Invariant: the writer consumes `Event` objects and nothing else; no secrets are ever stored.
Importing this package imports SQLAlchemy (it is not imported by `engine/__init__`).
"""

from __future__ import annotations

from engine.memory.backend import MemoryEntry
from engine.store.batch import IncompleteWrite
from engine.store.codec import call_key
from engine.store.migrations import SCHEMA_VERSION
from engine.store.orphan_runs import INTERRUPTED_REASON
from engine.store.paths import DB_ENV_VAR, default_db_path
from engine.store.records import (
    AmbiguousRunIdError,
    RecordedCall,
    RunExistsError,
    RunSummary,
    SpanRecord,
    StoreOpenError,
    VerdictRecord,
)
from engine.store.store import TraceStore
from engine.store.writer import TraceWriter

__all__ = [
    "DB_ENV_VAR",
    "INTERRUPTED_REASON",
    "SCHEMA_VERSION",
    "AmbiguousRunIdError",
    "IncompleteWrite",
    "MemoryEntry",
    "RecordedCall",
    "RunExistsError",
    "RunSummary",
    "SpanRecord",
    "StoreOpenError",
    "TraceStore",
    "TraceWriter",
    "VerdictRecord",
    "call_key",
    "default_db_path",
]
