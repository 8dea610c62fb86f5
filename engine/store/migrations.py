"""Schema versions of the trace store and the ordered steps that upgrade a user's database.

`PRAGMA user_version` holds the schema version; `PRAGMA application_id` marks the file as a Triadic
trace store. `MIGRATIONS[i]` upgrades version i to i + 1; `SCHEMA_VERSION` is the current version.

Invariants:
- steps are append-only: a released step is never edited, a schema change is a new step;
- `migrate` runs every pending step and the version bump in ONE transaction: an upgrade that fails
  leaves the database exactly as it was;
- a database from a newer Triadic, or a SQLite file that is not a Triadic store, is refused with a
  clear message by `check_file` before anything writes to it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Connection

from engine.store import legacy_v2
from engine.store.legacy_v2 import pack_deltas
from engine.store.records import StoreOpenError
from engine.store.segments import SEGMENT_EVENTS, encode_segment, segment_bounds

APPLICATION_ID = 0x54524941  # "TRIA"

_V1_TABLES = (
    """CREATE TABLE workflows (
        id TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', latest_hash TEXT,
        created_at REAL NOT NULL, updated_at REAL NOT NULL)""",
    """CREATE TABLE workflow_versions (
        hash TEXT NOT NULL PRIMARY KEY, workflow_id TEXT NOT NULL REFERENCES workflows(id),
        created_at REAL NOT NULL, doc TEXT NOT NULL)""",
    "CREATE INDEX ix_workflow_versions_workflow_id ON workflow_versions(workflow_id)",
    """CREATE TABLE runs (
        pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, workflow_id TEXT NOT NULL DEFAULT '',
        workflow_name TEXT NOT NULL DEFAULT '', workflow_hash TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'running', reason TEXT NOT NULL DEFAULT '',
        started_at REAL, finished_at REAL, duration_s REAL NOT NULL DEFAULT 0,
        tokens_in INTEGER NOT NULL DEFAULT 0, tokens_out INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL NOT NULL DEFAULT 0, inputs TEXT NOT NULL DEFAULT '{}',
        outputs TEXT NOT NULL DEFAULT '{}', settings TEXT NOT NULL DEFAULT '{}',
        replay_of TEXT, fork_of TEXT, fork_at_seq INTEGER, owner_pid INTEGER)""",
    "CREATE INDEX ix_runs_workflow ON runs(workflow_id, pk)",
    "CREATE INDEX ix_runs_status ON runs(status)",
    """CREATE TABLE events (
        run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE, seq INTEGER NOT NULL,
        ts REAL NOT NULL, kind TEXT NOT NULL, span_id TEXT, parent_id TEXT, payload TEXT NOT NULL,
        PRIMARY KEY (run_pk, seq))""",
    """CREATE TABLE spans (
        run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE, span_id TEXT NOT NULL,
        parent_id TEXT, kind TEXT NOT NULL, name TEXT NOT NULL DEFAULT '', node_id TEXT,
        start_ts REAL, end_ts REAL, status TEXT NOT NULL DEFAULT '',
        tokens_in INTEGER NOT NULL DEFAULT 0, tokens_out INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL NOT NULL DEFAULT 0, attrs TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (run_pk, span_id)) WITHOUT ROWID""",
    """CREATE TABLE recorded_calls (
        run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE, span_id TEXT NOT NULL,
        call_key TEXT NOT NULL DEFAULT '', kind TEXT NOT NULL, node_id TEXT NOT NULL DEFAULT '',
        name TEXT NOT NULL DEFAULT '', request TEXT, response TEXT, error TEXT, error_type TEXT,
        started_seq INTEGER, finished_seq INTEGER,
        PRIMARY KEY (run_pk, span_id))""",
    "CREATE INDEX ix_recorded_calls_call_key ON recorded_calls(call_key)",
    """CREATE TABLE memory_entries (
        id INTEGER PRIMARY KEY, memory TEXT NOT NULL, scope TEXT NOT NULL, scope_id TEXT NOT NULL,
        key TEXT NOT NULL, value TEXT NOT NULL, node_id TEXT NOT NULL DEFAULT '',
        run_id TEXT NOT NULL DEFAULT '', admitted BOOLEAN NOT NULL DEFAULT 1,
        reason TEXT NOT NULL DEFAULT '', seq INTEGER NOT NULL, ts REAL NOT NULL)""",
    "CREATE INDEX ix_memory_entries_lookup ON memory_entries(memory, scope, scope_id, key)",
    "CREATE INDEX ix_memory_entries_run_id ON memory_entries(run_id)",
    """CREATE TABLE verdicts (
        run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE, seq INTEGER NOT NULL,
        ts REAL NOT NULL, span_id TEXT, node_id TEXT NOT NULL, subject_node_id TEXT NOT NULL,
        decision TEXT NOT NULL, score REAL NOT NULL DEFAULT 0, reasons TEXT NOT NULL DEFAULT '[]',
        claims TEXT NOT NULL DEFAULT '[]', round INTEGER NOT NULL DEFAULT 0, artifact_seq INTEGER,
        judge_model TEXT, PRIMARY KEY (run_pk, seq))""",
)


def _v0_to_v1(conn: Connection) -> None:
    """The first schema: every event, token deltas included, is one row of `events`."""
    for ddl in _V1_TABLES:
        conn.exec_driver_sql(ddl)


_CHUNK_LIMIT = 512


def _v1_to_v2(conn: Connection) -> None:
    """Token deltas move out of `events` into per-span `delta_chunks` (about 3× smaller per delta)."""
    conn.exec_driver_sql(
        """CREATE TABLE delta_chunks (
            run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE,
            first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, span_id TEXT, parent_id TEXT,
            data BLOB NOT NULL, PRIMARY KEY (run_pk, first_seq))"""
    )
    rows = conn.exec_driver_sql(
        "SELECT run_pk, seq, ts, span_id, parent_id, payload FROM events WHERE kind = 'llm_delta' "
        "ORDER BY run_pk, span_id, seq"
    ).all()
    chunks: list[tuple[int, int, int, str | None, str | None, bytes]] = []
    group: list[tuple[int, float, str]] = []
    key: tuple[int, str | None, str | None] | None = None

    def close_group() -> None:
        if key is not None and group:
            first = group[0][0]
            data = pack_deltas([s - first for s, _, _ in group], [t for _, t, _ in group], [x for _, _, x in group])
            chunks.append((key[0], first, group[-1][0], key[1], key[2], data))

    for run_pk, seq, ts, span_id, parent_id, payload in rows:
        row_key = (run_pk, span_id, parent_id)
        if row_key != key or len(group) >= _CHUNK_LIMIT:
            close_group()
            key, group = row_key, []
        group.append((seq, ts, str(json.loads(payload).get("text", ""))))
    close_group()
    if chunks:
        conn.exec_driver_sql(
            "INSERT INTO delta_chunks (run_pk, first_seq, last_seq, span_id, parent_id, data) "
            "VALUES (?, ?, ?, ?, ?, ?)", chunks,
        )
    conn.exec_driver_sql("DELETE FROM events WHERE kind = 'llm_delta'")


SEGMENTS_TABLE = """CREATE TABLE event_segments (
    run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE, first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL, count INTEGER NOT NULL, last_ts REAL NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY (run_pk, first_seq))"""


def _v2_to_v3(conn: Connection) -> None:
    """Events and token deltas move into packed, compressed `event_segments` (one row per batch, about
    5× smaller); spans and recorded calls are no longer tables but derived from the events on read."""
    conn.exec_driver_sql(SEGMENTS_TABLE)
    for run_pk, run_id in conn.exec_driver_sql("SELECT pk, id FROM runs ORDER BY pk").all():
        events = legacy_v2.load_run_events(conn, run_pk, run_id)
        for i in range(0, len(events), SEGMENT_EVENTS):
            chunk = events[i:i + SEGMENT_EVENTS]
            data, failed = encode_segment(chunk)
            if failed or data is None:
                event, why = failed[0]
                raise ValueError(f"run {run_id}: event seq {event.seq} ({event.kind}) cannot be converted: {why}")
            conn.exec_driver_sql(
                "INSERT INTO event_segments (run_pk, first_seq, last_seq, count, last_ts, data) "
                "VALUES (?, ?, ?, ?, ?, ?)", (run_pk, *segment_bounds(chunk), data))
    for table in ("events", "delta_chunks", "spans", "recorded_calls"):
        conn.exec_driver_sql(f"DROP TABLE {table}")


@dataclass(frozen=True, slots=True)
class Migration:
    to_version: int
    summary: str
    apply: Callable[[Connection], None]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial schema", _v0_to_v1),
    Migration(2, "token deltas packed per span in delta_chunks", _v1_to_v2),
    Migration(3, "events in packed, compressed segments; spans and calls derived", _v2_to_v3),
)
SCHEMA_VERSION = MIGRATIONS[-1].to_version


def _why_unreadable(path: Path, exc: sqlite3.DatabaseError) -> str:
    """What to tell about a store file SQLite would not open: a folder it cannot write (WAL needs the
    -wal/-shm files beside it), a full disk, a file it may not read, or a file that is no database."""
    text = str(exc)
    if "full" in text:
        return f"{path}: the disk is full ({text}); free some space or choose another place (--db)"
    if isinstance(exc, sqlite3.OperationalError) and "unable to open" in text:
        if not os.access(path, os.R_OK):
            return f"{path}: no permission to read this file; choose another path (--db or TRIADIC_DB)"
        if not os.access(path.parent, os.W_OK):
            return (f"{path}: its folder {path.parent} is not writable (read-only, or no permission); the "
                    "trace database needs to write its -wal and -shm files beside it: choose another place")
    return f"{path}: not a readable SQLite database ({text})"


def check_file(path: Path) -> int:
    """The schema version of an existing store file (0 for a new/empty file), read without writing.

    Raises `StoreOpenError` for a file that is not SQLite, not a Triadic store, or from a newer Triadic.
    """
    if not path.exists() or path.stat().st_size == 0:
        return 0
    if path.is_dir():
        raise StoreOpenError(f"{path}: is a directory, not a Triadic trace database")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
            tables = int(conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreOpenError(_why_unreadable(path, exc)) from exc
    if app_id not in (0, APPLICATION_ID) or (version == 0 and tables > 0):
        raise StoreOpenError(f"{path}: this SQLite file is not a Triadic trace database; choose another path")
    if version > SCHEMA_VERSION:
        raise StoreOpenError(
            f"{path}: this trace database was written by a newer Triadic (schema version {version}); "
            f"this one reads up to version {SCHEMA_VERSION}. Open it with a newer Triadic, or use "
            "another database (--db or TRIADIC_DB). The file was not changed."
        )
    return version


def migrate(conn: Connection, from_version: int) -> list[int]:
    """Apply every step after `from_version` inside the caller's transaction; returns versions reached."""
    reached: list[int] = []
    for step in MIGRATIONS:
        if step.to_version > from_version:
            step.apply(conn)
            reached.append(step.to_version)
    if reached:
        conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.exec_driver_sql(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return reached
