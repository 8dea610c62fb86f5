"""`TraceStore`: one local SQLite file holding workflows, runs and their full event traces.

Opening creates the file (and its directory) or upgrades an older schema in one transaction; a file
from a newer Triadic or not a Triadic store is refused untouched (`StoreOpenError`). Runs still
"running" whose writing process is gone are marked "interrupted" (listed in `recovered_runs`).

Invariants: run data enters only through `writer()` (events), `save_workflow` (the workflow
document) and `import_run` (a whole run with its workflow version, all or nothing); queries return frozen records; run ids may be given as a unique prefix (like git);
`delete_run` removes the run's rows and its run-scoped memory, never shared workflow versions or
workflow/global memory. Never writes secrets: it stores only what events and documents hold.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import Connection, delete, func, select
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.dialects.sqlite import insert as upsert
from sqlalchemy.exc import DBAPIError

from engine.events import Event, RunFinished, RunStarted
from engine.memory.backend import MemoryEntry
from engine.store import queries
from engine.store.batch import BatchWriter
from engine.store.codec import canonical_json, sha256_hex
from engine.store.connection import create_private, make_engine
from engine.store.documents import decode_document, encode_document
from engine.store.migrations import SCHEMA_VERSION, check_file, migrate
from engine.store.orphan_runs import recover_orphaned_runs
from engine.store.records import (
    AmbiguousRunIdError,
    RecordedCall,
    RunExistsError,
    RunSummary,
    SpanRecord,
    StoreOpenError,
    VerdictRecord,
)
from engine.store.run_verdicts import verdict_counts
from engine.store.tables import (
    EVENT_SEGMENTS,
    MEMORY_ENTRIES,
    RUNS,
    WORKFLOW_VERSIONS,
    WORKFLOWS,
)
from engine.store.writer import TraceWriter


def _compiled(statement: Any, order: tuple[str, ...]) -> str:
    """`statement` as SQLite SQL (qmark) binding `order`, compiled once at import (not per engine)."""
    compiled = statement.compile(dialect=sqlite_dialect(paramstyle="qmark"), column_keys=list(order))
    if tuple(compiled.positiontup or ()) != order:
        raise RuntimeError(f"statement binds {compiled.positiontup}, expected {order}")
    return str(compiled)


def _save_workflow_sql() -> str:
    stmt = upsert(WORKFLOWS)
    stmt = stmt.on_conflict_do_update(index_elements=["id"], set_={
        "name": stmt.excluded.name, "latest_hash": stmt.excluded.latest_hash, "updated_at": stmt.excluded.updated_at})
    return _compiled(stmt, ("id", "name", "latest_hash", "created_at", "updated_at"))


_SAVE_WORKFLOW_SQL = _save_workflow_sql()
_SAVE_VERSION_SQL = _compiled(upsert(WORKFLOW_VERSIONS).on_conflict_do_nothing(index_elements=["hash"]),
                              ("hash", "workflow_id", "created_at", "doc"))


def workflow_id_of(doc: Mapping[str, Any]) -> str:
    """The workflow a stored document is a version of: its id, else its name — what a run of it records as
    `RunStarted.workflow_id` (`compile_workflow`). A run's sub-graph versions are each filed under their own
    workflow, whether the run was recorded here or imported from a bundle."""
    return str(doc.get("id") or doc.get("name") or "")


def _document_hash(doc: dict[str, Any]) -> str:
    try:
        return sha256_hex(canonical_json(doc))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"workflow document cannot be stored: {exc}") from exc


class TraceStore:
    def __init__(self, path: str | Path) -> None:
        if str(path) in ("", ":memory:"):
            raise StoreOpenError("the trace store needs a file path (an in-memory database cannot be shared)")
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreOpenError(f"{self.path}: cannot create its directory ({exc})") from exc
        found = check_file(self.path)
        create_private(self.path)
        self._write_engine = make_engine(self.path, immediate=True)
        self._read_engine = make_engine(self.path, immediate=False)
        self._writers: list[TraceWriter] = []
        self._closed = False
        try:
            with self._write_engine.begin() as conn:
                version = int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())
                if version > SCHEMA_VERSION:  # another process upgraded it since check_file
                    raise StoreOpenError(f"{self.path}: written by a newer Triadic (schema version {version})")
                try:
                    self.migrated_from: int | None = found if migrate(conn, version) and found > 0 else None
                except Exception as exc:
                    raise StoreOpenError(
                        f"{self.path}: upgrading the trace database from schema version {version} failed "
                        f"({type(exc).__name__}: {exc}); the database was not changed") from exc
                self.recovered_runs: list[str] = recover_orphaned_runs(conn)
        except BaseException as exc:
            self._dispose()
            if isinstance(exc, DBAPIError):
                raise StoreOpenError(f"{self.path}: cannot open the trace database ({exc.orig})") from exc
            raise

    # -- writing ---------------------------------------------------------------------------------

    def writer(self, *, flush_interval_s: float = 0.05, batch_size: int = 1000) -> TraceWriter:
        """A new background writer for events (one per run is usual; several may share the store)."""
        self._check_open()
        writer = TraceWriter(self._write_engine, flush_interval_s=flush_interval_s, batch_size=batch_size)
        self._writers = [w for w in self._writers if not w.closed]
        self._writers.append(writer)
        return writer

    def save_workflow(self, doc: dict[str, Any], *, workflow_hash: str | None = None) -> str:
        """Store the workflow document once per distinct hash; returns the version hash."""
        self._check_open()
        wf_id, name, now = workflow_id_of(doc), str(doc.get("name") or ""), time.time()
        with self._write_engine.begin() as conn:
            known = workflow_hash is not None and conn.exec_driver_sql(
                "SELECT 1 FROM workflow_versions WHERE hash = ?", (workflow_hash,)).first() is not None
            version = workflow_hash or _document_hash(doc)
            data = b"" if known else encode_document(doc)  # a version run again is not encoded again
            conn.exec_driver_sql(_SAVE_WORKFLOW_SQL, (wf_id, name, version, now, now))
            if not known:
                conn.exec_driver_sql(_SAVE_VERSION_SQL, (version, wf_id, now, data))
        return version

    def import_run(self, events: list[Event], doc: dict[str, Any], *, started_at: float,
                   versions: Mapping[str, dict[str, Any]] | None = None) -> None:
        """Add a whole finished run — its workflow version `doc` (stored under the run's workflow hash),
        the other workflow versions it ran (`versions`: hash → document, its sub-graphs', each filed under
        its own workflow, `workflow_id_of`, as a run recorded here files them) and every
        event — in one transaction. Raises `RunExistsError` when the store already has a run with its
        id, `IncompleteWrite` when an event cannot be stored; then the store is unchanged."""
        self._check_open()
        first = events[0]
        if not isinstance(first, RunStarted):
            raise ValueError("a run's events begin with RunStarted")
        data = encode_document(doc)
        others = [(version, workflow_id_of(document), str(document.get("name") or ""), encode_document(document))
                  for version, document in (versions or {}).items()]

        def before(conn: Connection) -> None:
            if conn.execute(select(RUNS.c.pk).where(RUNS.c.id == first.run_id)).first() is not None:
                raise RunExistsError(first.run_id)
            now = time.time()
            conn.exec_driver_sql(_SAVE_WORKFLOW_SQL, (first.workflow_id, first.workflow_name, first.workflow_hash,
                                                      now, now))
            conn.exec_driver_sql(_SAVE_VERSION_SQL, (first.workflow_hash, first.workflow_id, now, data))
            for version, wf_id, name, encoded in others:  # filed as a run recorded here files them
                conn.exec_driver_sql(_SAVE_WORKFLOW_SQL, (wf_id, name, version, now, now))
                conn.exec_driver_sql(_SAVE_VERSION_SQL, (version, wf_id, now, encoded))

        last = events[-1]
        ended = last.duration_s if isinstance(last, RunFinished) else last.ts
        chunks = [(tuple(events[:-1]), started_at), ((last,), started_at + ended)]
        BatchWriter(self._write_engine).write_all_or_nothing(chunks, before)

    def delete_run(self, run_id: str) -> bool:
        """Remove a run and everything recorded for it; False if there is no such run."""
        self._check_open()
        with self._write_engine.begin() as conn:
            found = self._resolve(conn, run_id)
            if found is None:
                return False
            pk, full_id = found
            conn.execute(delete(MEMORY_ENTRIES).where(MEMORY_ENTRIES.c.scope == "run",
                                                      MEMORY_ENTRIES.c.scope_id == full_id))
            conn.execute(delete(RUNS).where(RUNS.c.pk == pk))
        return True

    def delete_runs(self, run_ids: Iterable[str]) -> int:
        """Remove these runs (full ids) and everything recorded for them in one transaction; how many went."""
        self._check_open()
        ids = list(run_ids)
        removed = 0
        with self._write_engine.begin() as conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                conn.execute(delete(MEMORY_ENTRIES).where(MEMORY_ENTRIES.c.scope == "run",
                                                          MEMORY_ENTRIES.c.scope_id.in_(chunk)))
                removed += conn.execute(delete(RUNS).where(RUNS.c.id.in_(chunk))).rowcount or 0
        return removed

    def vacuum(self) -> None:
        """Give the space of deleted runs back to the file system (SQLite VACUUM, then the WAL truncated)."""
        self._check_open()
        raw = self._write_engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute("VACUUM")
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            cursor.close()
        finally:
            raw.close()

    def size_bytes(self) -> int:
        """The database's size on disk: its file and its -wal file."""
        paths = (self.path, self.path.with_name(self.path.name + "-wal"))
        return sum(p.stat().st_size for p in paths if p.exists())

    # -- queries ---------------------------------------------------------------------------------

    def read_connection(self) -> Any:
        """A read transaction (a context manager yielding a SQLAlchemy connection) for engine/store modules."""
        return self._read()

    def list_runs(self, *, workflow_id: str | None = None, limit: int = 100) -> list[RunSummary]:
        query = select(RUNS).order_by(RUNS.c.pk.desc()).limit(limit)
        if workflow_id is not None:
            query = query.where(RUNS.c.workflow_id == workflow_id)
        with self._read() as conn:
            return [queries.run_summary(r) for r in conn.execute(query)]

    def get_run(self, run_id: str) -> RunSummary | None:
        """The run with this id or unique id prefix; raises `AmbiguousRunIdError` for a shared prefix."""
        with self._read() as conn:
            found = self._resolve(conn, run_id)
            row = None if found is None else conn.execute(select(RUNS).where(RUNS.c.pk == found[0])).one()
        return None if row is None else queries.run_summary(row)

    def iter_events(
        self, run_id: str, *, kinds: Iterable[str] | None = None, from_seq: int = 0, to_seq: int | None = None,
    ) -> Iterator[Event]:
        """The run's stored events in seq order (optionally only `kinds`, and a seq range).

        The result equals what was appended. An unknown run yields nothing.
        """
        if isinstance(kinds, str):
            kinds = [kinds]
        with self._read() as conn:
            found = self._resolve(conn, run_id)
            events = [] if found is None else queries.load_events(
                conn, found[0], found[1], kinds=kinds, from_seq=from_seq, to_seq=to_seq)
        return iter(events)

    def event_count(self, run_id: str) -> int:
        with self._read() as conn:
            found = self._resolve(conn, run_id)
            if found is None:
                return 0
            count = conn.execute(select(func.sum(EVENT_SEGMENTS.c.count))
                                 .where(EVENT_SEGMENTS.c.run_pk == found[0])).scalar_one()
        return int(count or 0)

    def spans(self, run_id: str) -> list[SpanRecord]:
        with self._read() as conn:
            found = self._resolve(conn, run_id)
            return [] if found is None else queries.load_spans(conn, *found)

    def verdicts(self, run_id: str) -> list[VerdictRecord]:
        with self._read() as conn:
            found = self._resolve(conn, run_id)
            return [] if found is None else queries.load_verdicts(conn, *found)

    def verdict_counts(self, run_ids: Iterable[str]) -> dict[str, dict[str, int]]:
        """{run id: {decision: count}} for these (full) run ids, in one read (`run_verdicts`)."""
        with self._read() as conn:
            return verdict_counts(conn, run_ids)

    def recorded_calls(self, run_id: str) -> list[RecordedCall]:
        with self._read() as conn:
            found = self._resolve(conn, run_id)
            return [] if found is None else queries.load_recorded_calls(conn, *found)

    def memory_value(self, memory: str, scope: str, scope_id: str, key: str) -> object | None:
        """The value of the latest admitted write to this memory key, or None."""
        m = MEMORY_ENTRIES.c
        query = (select(m.value).where(m.memory == memory, m.scope == scope, m.scope_id == scope_id, m.key == key,
                                       m.admitted.is_(True)).order_by(m.id.desc()).limit(1))
        with self._read() as conn:
            text = conn.execute(query).scalar_one_or_none()
        return None if text is None else queries.load_json(text)

    def memory_history(self, memory: str, scope: str, scope_id: str, *, key: str | None = None) -> list[MemoryEntry]:
        """Every write (admitted or rejected) to this memory and scope, oldest first."""
        m = MEMORY_ENTRIES.c
        query = select(MEMORY_ENTRIES).where(m.memory == memory, m.scope == scope, m.scope_id == scope_id)
        if key is not None:
            query = query.where(m.key == key)
        with self._read() as conn:
            return [queries.memory_entry(r) for r in conn.execute(query.order_by(m.id))]

    def memory_writes(self, run_id: str) -> list[MemoryEntry]:
        """Every memory write of one run (admitted or refused by its gate), in the order it made them."""
        with self._read() as conn:
            found = self._resolve(conn, run_id)
            if found is None:
                return []
            m = MEMORY_ENTRIES.c
            rows = conn.execute(select(MEMORY_ENTRIES).where(m.run_id == found[1]).order_by(m.seq))
            return [queries.memory_entry(r) for r in rows]

    def workflow_version(self, workflow_hash: str) -> dict[str, Any] | None:
        with self._read() as conn:  # untyped read: the column holds JSON text (older stores) or packed bytes
            stored = conn.exec_driver_sql("SELECT doc FROM workflow_versions WHERE hash = ?",
                                          (workflow_hash,)).scalar_one_or_none()
        doc = None if stored is None else decode_document(stored)
        return doc if isinstance(doc, dict) else None

    # -- lifecycle -------------------------------------------------------------------------------

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for writer in self._writers:
            writer.close()
        self._dispose()

    def __enter__(self) -> TraceStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _dispose(self) -> None:
        self._write_engine.dispose()
        self._read_engine.dispose()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"the trace store {self.path} is closed")

    def _read(self) -> Any:
        self._check_open()
        return self._read_engine.begin()

    @staticmethod
    def _resolve(conn: Connection, run_id: str) -> tuple[int, str] | None:
        if not run_id:
            return None
        row = conn.execute(select(RUNS.c.pk, RUNS.c.id).where(RUNS.c.id == run_id)).first()
        if row is not None:
            return int(row[0]), str(row[1])
        rows = conn.execute(select(RUNS.c.pk, RUNS.c.id)
                            .where(func.substr(RUNS.c.id, 1, len(run_id)) == run_id).limit(50)).all()
        if len(rows) > 1:
            raise AmbiguousRunIdError(run_id, [str(r[1]) for r in rows])
        return (int(rows[0][0]), str(rows[0][1])) if rows else None
