"""Writes one batch of events in one transaction: one `executemany` per statement.

Statements are built with SQLAlchemy Core (sqlmodel tables) and compiled once to SQL; each batch
then runs them through the driver's `executemany` with plain tuples (no per-row Core processing);
the plain inserts of events and token-delta chunks go as multi-row VALUES lists.

Invariants:
- a batch commits entirely or not at all; when it fails, each event is retried in its own
  transaction so that every good event still lands and only the bad ones are reported;
- an event that cannot be encoded is reported and skipped; the others of its batch are written;
- the run-key cache only learns keys from committed transactions (a rolled-back insert never leaves
  a stale key behind);
- events of a run whose RunStarted was never stored get a placeholder run row, so they are kept.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import chain
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, func, insert, literal_column, null, select, update
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.dialects.sqlite import insert as upsert

from engine.events import Event, RunStarted
from engine.store.rows import EVENT_COLUMNS, RUN_STARTED_KEYS, RowCollector, RunContext, run_started_row
from engine.store.tables import (
    DELTA_CHUNKS,
    EVENTS,
    MEMORY_ENTRIES,
    RECORDED_CALLS,
    RUNS,
    SPANS,
    VERDICTS,
    WORKFLOWS,
)

Item = tuple[Event, float]  # the event and the wall-clock time it was appended


_EMPTY: Any = literal_column("''")


def _spans_upsert() -> Any:
    stmt = upsert(SPANS)
    new, old = stmt.excluded, SPANS.c
    return stmt.on_conflict_do_update(index_elements=["run_pk", "span_id"], set_={
        "parent_id": func.coalesce(old.parent_id, new.parent_id),
        "name": func.coalesce(func.nullif(new.name, _EMPTY), old.name),
        "node_id": func.coalesce(old.node_id, new.node_id),
        "start_ts": func.coalesce(old.start_ts, new.start_ts),
        "end_ts": func.coalesce(new.end_ts, old.end_ts),
        "status": func.coalesce(func.nullif(new.status, _EMPTY), old.status),
        "tokens_in": old.tokens_in + new.tokens_in,
        "tokens_out": old.tokens_out + new.tokens_out,
        "cost_usd": old.cost_usd + new.cost_usd,
        "attrs": func.json_patch(old.attrs, new.attrs),
    })


def _calls_upsert(columns: Sequence[str]) -> Any:
    stmt = upsert(RECORDED_CALLS)
    return stmt.on_conflict_do_update(
        index_elements=["run_pk", "span_id"], set_={c: stmt.excluded[c] for c in columns}
    )


_SPANS_UPSERT = _spans_upsert()
_CALLS_STARTED = _calls_upsert(["call_key", "kind", "node_id", "name", "request", "started_seq"])
_CALLS_FINISHED = _calls_upsert(["response", "error", "error_type", "finished_seq"])
_CALLS_COMPLETE = _calls_upsert(["call_key", "kind", "node_id", "name", "request", "started_seq", "response", "error",
                                 "error_type", "finished_seq"])
_RUN_INCREMENT = update(RUNS).where(RUNS.c.pk == bindparam("b_pk")).values(
    tokens_in=RUNS.c.tokens_in + bindparam("d_in"), tokens_out=RUNS.c.tokens_out + bindparam("d_out"),
    cost_usd=RUNS.c.cost_usd + bindparam("d_cost"),
)
def _upsert_excluded(table: Any, key: str, columns: Sequence[str]) -> Any:
    stmt = upsert(table)
    return stmt.on_conflict_do_update(index_elements=[key], set_={c: stmt.excluded[c] for c in columns})


_WORKFLOW_UPSERT = _upsert_excluded(WORKFLOWS, "id", ["name", "updated_at"])
_RUN_UPSERT = _upsert_excluded(RUNS, "id", [k for k in RUN_STARTED_KEYS if k != "id"])
_EVENTS_INSERT = insert(EVENTS)
_CHUNKS_INSERT = insert(DELTA_CHUNKS)
_MEMORY_INSERT = insert(MEMORY_ENTRIES)
_VERDICTS_INSERT = insert(VERDICTS)
_DIALECT = sqlite_dialect(paramstyle="qmark")
_RUN_FINISH = update(RUNS).where(RUNS.c.pk == bindparam("b_pk")).values(owner_pid=null())
_RUN_LOOKUP = select(RUNS.c.pk, RUNS.c.workflow_id).where(RUNS.c.id == bindparam("b_id"))
# SQL of the statements above per bound-key set, shared by every writer (the statements are module constants,
# so their ids are stable): a run's first batch does not pay SQLAlchemy's compiler
_SQL: dict[tuple[int, tuple[str, ...]], tuple[str, tuple[str, ...]]] = {}


class BatchWriter:
    """Writes batches for one `TraceWriter` (used from its thread only)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._runs: dict[str, RunContext] = {}

    def write(self, items: Sequence[Item]) -> tuple[int, list[str]]:
        """Store `items`; returns (events stored, error messages). Never raises."""
        errors: list[str] = []
        try:
            return self._write_once(items, errors), errors
        except Exception as exc:
            if len(items) == 1:
                return 0, [*errors, _describe(items[0][0], exc)]
        stored, errors = 0, []
        for item in items:
            try:
                stored += self._write_once([item], errors)
            except Exception as exc:
                errors.append(_describe(item[0], exc))
        return stored, errors

    def _write_once(self, items: Sequence[Item], errors: list[str]) -> int:
        learned: dict[str, RunContext] = {}
        rows = RowCollector()
        stored = 0
        last_run: tuple[str, RunContext] | None = None
        with self._engine.begin() as conn:
            for event, wall_time in items:
                try:
                    if last_run is not None and last_run[0] == event.run_id and not isinstance(event, RunStarted):
                        run = last_run[1]
                    else:
                        run = self._run(conn, event, wall_time, learned)
                        last_run = (event.run_id, run)
                    rows.add(event, run, wall_time)
                    stored += 1
                except (TypeError, ValueError, OverflowError, RecursionError) as exc:
                    errors.append(_describe(event, exc))
            self._execute(conn, rows)
        self._runs.update(learned)
        return stored

    def _run(self, conn: Connection, event: Event, wall_time: float, learned: dict[str, RunContext]) -> RunContext:
        if isinstance(event, RunStarted):
            workflow = {"id": event.workflow_id, "name": event.workflow_name, "created_at": wall_time,
                        "updated_at": wall_time}
            for statement, row in ((_WORKFLOW_UPSERT, workflow), (_RUN_UPSERT, run_started_row(event, wall_time))):
                sql, order = self._compiled(statement, row)
                conn.exec_driver_sql(sql, tuple([row[k] for k in order]))
            learned.pop(event.run_id, None)
        known = learned.get(event.run_id) or (None if isinstance(event, RunStarted) else self._runs.get(event.run_id))
        if known is not None:
            return known
        lookup, _ = self._compiled(_RUN_LOOKUP, {"b_id": None})
        found = conn.exec_driver_sql(lookup, (event.run_id,)).first()
        if found is None:
            conn.execute(insert(RUNS).values(id=event.run_id, reason="events stored without a RunStarted"))
            found = conn.exec_driver_sql(lookup, (event.run_id,)).one()
        learned[event.run_id] = RunContext(pk=int(found[0]), workflow_id=str(found[1]))
        return learned[event.run_id]

    def _execute(self, conn: Connection, rows: RowCollector) -> None:
        if rows.events:
            _insert_rows(conn, self._events_sql(), rows.events)
        chunks = rows.delta_chunks()
        if chunks:
            sql, order = self._compiled(_CHUNKS_INSERT, chunks[0])
            _insert_rows(conn, sql, [tuple([row[k] for k in order]) for row in chunks])
        steps: list[tuple[Any, list[dict[str, Any]]]] = [
            (_SPANS_UPSERT, rows.spans),
            (_CALLS_STARTED, rows.calls_started),
            (_CALLS_COMPLETE, rows.calls_complete),
            (_CALLS_FINISHED, rows.calls_finished),
            (_MEMORY_INSERT, rows.memory),
            (_VERDICTS_INSERT, rows.verdicts),
            (_RUN_INCREMENT, rows.run_increments),
            (_RUN_FINISH, rows.runs_finished),
        ]
        for statement, params in steps:
            if params:
                sql, order = self._compiled(statement, params[0])
                conn.exec_driver_sql(sql, [tuple([row[k] for k in order]) for row in params])

    def _events_sql(self) -> str:
        """The events insert for rows that are tuples in `EVENT_COLUMNS` order."""
        sql, order = self._compiled(_EVENTS_INSERT, dict.fromkeys(EVENT_COLUMNS))
        if order != EVENT_COLUMNS:
            raise RuntimeError(f"events insert binds {order}, rows are {EVENT_COLUMNS}")
        return sql

    def _compiled(self, statement: Any, sample: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
        """The Core statement's SQL (qmark style) for rows with `sample`'s keys, compiled once."""
        key = (id(statement), tuple(sample))
        found = _SQL.get(key)
        if found is None:
            compiled = statement.compile(dialect=_DIALECT, column_keys=list(sample))
            order = tuple(compiled.positiontup or ())
            missing = set(order) - set(sample)
            if missing:
                raise RuntimeError(f"statement needs values the rows do not carry: {sorted(missing)}")
            found = _SQL[key] = (str(compiled), order)
        return found


ROWS_PER_STATEMENT = 100  # rows of one multi-row INSERT (7 columns × 100 stays far below SQLite's variable limit)


def _insert_rows(conn: Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """Run the one-row plain INSERT `sql` for every row, `ROWS_PER_STATEMENT` rows per statement:
    a multi-row VALUES list binds the same values with far fewer statement steps than executemany."""
    full = len(rows) // ROWS_PER_STATEMENT
    if full:
        conn.exec_driver_sql(_multi_row(sql, ROWS_PER_STATEMENT), [
            tuple(chain.from_iterable(rows[i * ROWS_PER_STATEMENT:(i + 1) * ROWS_PER_STATEMENT])) for i in range(full)])
    rest = rows[full * ROWS_PER_STATEMENT:]
    if rest:
        conn.exec_driver_sql(_multi_row(sql, len(rest)), tuple(chain.from_iterable(rest)))


@functools.lru_cache(maxsize=64)
def _multi_row(sql: str, count: int) -> str:
    head, values = sql.rsplit(" VALUES ", 1)
    if not (values.startswith("(") and values.endswith(")")):
        raise RuntimeError(f"not a plain one-row INSERT: {sql}")
    return f"{head} VALUES {', '.join([values] * count)}"


def _describe(event: Event, exc: BaseException) -> str:
    cause = str(getattr(exc, "orig", None) or exc)  # the driver's message, not SQLAlchemy's SQL dump
    if len(cause) > 300:
        cause = cause[:300] + "..."
    return f"run {event.run_id} event seq {event.seq} ({event.kind}): not stored: {type(exc).__name__}: {cause}"
