"""Writes one batch of events in one transaction: a segment row per run, plus the few derived rows.

Each run's events of the batch are packed into event segments (`engine.store.segments`, at most
`SEGMENT_EVENTS` events each); run rows, memory entries and verdicts come from `engine.store.rows`.
Statements are built with SQLAlchemy Core (sqlmodel tables) and compiled once to SQL; each batch runs
them through the driver's `executemany` with plain tuples (no per-row Core processing).

Invariants:
- a batch commits entirely or not at all; when it fails, each event is retried in its own
  transaction so that every good event still lands and only the bad ones are reported;
- an event that cannot be encoded is reported and skipped; the others of its batch are written;
- a run's events are taken in ascending seq order: an event whose seq is not above the run's last one
  taken (stored before, or earlier in the batch) is refused as a repeat — so a run's segments hold
  disjoint, ascending seq ranges;
- a hand-off that is the common case (one known run, no RunStarted, ascending seqs) is taken whole,
  without a step per event (`_Batch.take_chunk`); anything else goes event by event;
- the run-key cache only learns keys from committed transactions (a rolled-back insert never leaves
  a stale key behind);
- events of a run whose RunStarted was never stored get a placeholder run row, so they are kept.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from itertools import islice
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, func, insert, null, select, update
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.dialects.sqlite import insert as upsert

from engine.events import Event, RunStarted
from engine.store.rows import RUN_STARTED_KEYS, BatchRows, RunContext, run_started_row
from engine.store.segments import SEGMENT_EVENTS, encode_segment, segment_bounds
from engine.store.tables import EVENT_SEGMENTS, MEMORY_ENTRIES, RUNS, VERDICTS, WORKFLOWS

Chunk = tuple[Sequence[Event], float]  # events appended together, and the wall-clock time they were


_RUN_INCREMENT = update(RUNS).where(RUNS.c.pk == bindparam("b_pk")).values(
    tokens_in=RUNS.c.tokens_in + bindparam("d_in"), tokens_out=RUNS.c.tokens_out + bindparam("d_out"),
    cost_usd=RUNS.c.cost_usd + bindparam("d_cost"),
)


def _upsert_excluded(table: Any, key: str, columns: Sequence[str]) -> Any:
    stmt = upsert(table)
    return stmt.on_conflict_do_update(index_elements=[key], set_={c: stmt.excluded[c] for c in columns})


_WORKFLOW_UPSERT = _upsert_excluded(WORKFLOWS, "id", ["name", "updated_at"])
_RUN_UPSERT = _upsert_excluded(RUNS, "id", [k for k in RUN_STARTED_KEYS if k != "id"])
_SEGMENTS_INSERT = insert(EVENT_SEGMENTS)
_SEGMENT_KEYS = ("run_pk", "first_seq", "last_seq", "count", "last_ts", "data")
_MEMORY_INSERT = insert(MEMORY_ENTRIES)
_VERDICTS_INSERT = insert(VERDICTS)
_DIALECT = sqlite_dialect(paramstyle="qmark")
_RUN_FINISH = update(RUNS).where(RUNS.c.pk == bindparam("b_pk")).values(owner_pid=null())
_RUN_LOOKUP = select(
    RUNS.c.pk, RUNS.c.workflow_id,
    select(func.max(EVENT_SEGMENTS.c.last_seq)).where(EVENT_SEGMENTS.c.run_pk == RUNS.c.pk).scalar_subquery(),
).where(RUNS.c.id == bindparam("b_id"))
# SQL of the statements above per bound-key set, shared by every writer (the statements are module constants,
# so their ids are stable): a run's first batch does not pay SQLAlchemy's compiler
_SQL: dict[tuple[int, tuple[str, ...]], tuple[str, tuple[str, ...]]] = {}


class IncompleteWrite(ValueError):
    """Events an all-or-nothing write could not store (the transaction was rolled back)."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors[:3]) + (f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""))
        self.errors = errors


class BatchWriter:
    """Writes batches for one `TraceWriter` (used from its thread only)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._runs: dict[str, RunContext] = {}

    def write(self, chunks: Sequence[Chunk]) -> tuple[int, list[str]]:
        """Store the events of `chunks`; returns (events stored, error messages). Never raises."""
        errors: list[str] = []
        try:
            return self._write_once(chunks, errors), errors
        except Exception as exc:
            count = sum(len(events) for events, _ in chunks)
            if count == 1:
                return 0, [*errors, _describe(_first(chunks), exc)]
            if whole_store_problem(exc):  # one event at a time would meet it (and its busy wait) per event
                return 0, [*errors, f"{count} events of run {_first(chunks).run_id} from seq {_first(chunks).seq} "
                                    f"not stored: {_cause(exc)}"]
        stored, errors = 0, []
        for events, wall_time in chunks:
            for event in events:
                try:
                    stored += self._write_once([((event,), wall_time)], errors)
                except Exception as exc:
                    errors.append(_describe(event, exc))
        return stored, errors

    def write_all_or_nothing(self, chunks: Sequence[Chunk], before: Callable[[Connection], None]) -> int:
        """`before(conn)`, then every event of `chunks`, in one transaction; an event that cannot be
        stored raises `IncompleteWrite` (naming each) and nothing of it all is kept (an import)."""
        errors: list[str] = []
        batch = _Batch(self._runs)
        with self._engine.begin() as conn:
            before(conn)
            stored = self._take_all(conn, batch, chunks, errors)
            if errors:
                raise IncompleteWrite(errors)
        batch.commit()
        return stored

    def _write_once(self, chunks: Sequence[Chunk], errors: list[str]) -> int:
        batch = _Batch(self._runs)
        with self._engine.begin() as conn:
            stored = self._take_all(conn, batch, chunks, errors)
        batch.commit()
        return stored

    def _take_all(self, conn: Connection, batch: _Batch, chunks: Sequence[Chunk], errors: list[str]) -> int:
        for events, wall_time in chunks:
            if events and type(events[0]) is RunStarted:  # a run's first hand-off starts with it
                self._take_event(conn, batch, events[0], wall_time, errors)
                events = events[1:]
            if not batch.take_chunk(events, wall_time):
                for event in events:
                    self._take_event(conn, batch, event, wall_time, errors)
        segments, stored = self._segments(batch.per_run, errors)
        self._execute(conn, batch.rows, segments)
        return stored

    def _take_event(self, conn: Connection, batch: _Batch, event: Event, wall_time: float, errors: list[str]) -> None:
        try:
            run = batch.learned.get(event.run_id) if not isinstance(event, RunStarted) else None
            if run is None:
                run = self._run(conn, event, wall_time, batch.learned)
            top = batch.tops.get(run.pk, run.last_seq)
            if top is not None and event.seq <= top:
                errors.append(_describe_why(event, f"seq {event.seq} is not after seq {top}, the run's last event "
                                                   "taken: a repeat, or out of order"))
                return
            batch.rows.add(event, run, wall_time)
        except (TypeError, ValueError, OverflowError, RecursionError) as exc:
            errors.append(_describe(event, exc))
            return
        batch.tops[run.pk] = event.seq
        batch.per_run.setdefault(run.pk, []).append(event)

    @staticmethod
    def _segments(per_run: dict[int, list[Event]], errors: list[str]) -> tuple[list[tuple[Any, ...]], int]:
        segments: list[tuple[Any, ...]] = []
        stored = 0
        for pk, events in per_run.items():
            for i in range(0, len(events), SEGMENT_EVENTS):
                chunk = events[i:i + SEGMENT_EVENTS]
                data, failed = encode_segment(chunk)
                if failed:
                    errors += [_describe_why(event, why) for event, why in failed]
                    lost = {id(event) for event, _ in failed}
                    chunk = [event for event in chunk if id(event) not in lost]
                if data is not None and chunk:
                    segments.append((pk, *segment_bounds(chunk), data))
                    stored += len(chunk)
        return segments, stored

    def _run(self, conn: Connection, event: Event, wall_time: float, learned: dict[str, RunContext]) -> RunContext:
        if isinstance(event, RunStarted):
            workflow = {"id": event.workflow_id, "name": event.workflow_name, "created_at": wall_time,
                        "updated_at": wall_time}
            for statement, row in ((_WORKFLOW_UPSERT, workflow), (_RUN_UPSERT, run_started_row(event, wall_time))):
                sql, order = self._compiled(statement, row)
                conn.exec_driver_sql(sql, tuple([row[k] for k in order]))
            learned.pop(event.run_id, None)
        known = learned.get(event.run_id)
        if known is not None:
            return known
        lookup, _ = self._compiled(_RUN_LOOKUP, {"b_id": None})
        found = conn.exec_driver_sql(lookup, (event.run_id,)).first()
        if found is None:
            conn.execute(insert(RUNS).values(id=event.run_id, reason="events stored without a RunStarted"))
            found = conn.exec_driver_sql(lookup, (event.run_id,)).one()
        learned[event.run_id] = RunContext(pk=int(found[0]), workflow_id=str(found[1]),
                                           last_seq=None if found[2] is None else int(found[2]))
        return learned[event.run_id]

    def _execute(self, conn: Connection, rows: BatchRows, segments: list[tuple[Any, ...]]) -> None:
        if segments:
            sql, order = self._compiled(_SEGMENTS_INSERT, dict.fromkeys(_SEGMENT_KEYS))
            if order != _SEGMENT_KEYS:
                raise RuntimeError(f"segments insert binds {order}, rows are {_SEGMENT_KEYS}")
            conn.exec_driver_sql(sql, segments)
        steps: list[tuple[Any, list[dict[str, Any]]]] = [
            (_MEMORY_INSERT, rows.memory),
            (_VERDICTS_INSERT, rows.verdicts),
            (_RUN_INCREMENT, rows.run_increments),
            (_RUN_FINISH, rows.runs_finished),
        ]
        for statement, params in steps:
            if params:
                sql, order = self._compiled(statement, params[0])
                conn.exec_driver_sql(sql, [tuple([row[k] for k in order]) for row in params])

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


_WHOLE_STORE = ("database is locked", "database or disk is full", "readonly database",
                "unable to open database", "database table is locked")


def whole_store_problem(exc: BaseException) -> bool:
    """Whether `exc` is about the database as a whole (locked, full, read-only), not one event."""
    text = str(getattr(exc, "orig", None) or exc).lower()
    return any(marker in text for marker in _WHOLE_STORE)


def _cause(exc: BaseException) -> str:
    cause = str(getattr(exc, "orig", None) or exc)  # the driver's message, not SQLAlchemy's SQL dump
    if len(cause) > 300:
        cause = cause[:300] + "..."
    return f"{type(exc).__name__}: {cause}"


def _describe(event: Event, exc: BaseException) -> str:
    return f"run {event.run_id} event seq {event.seq} ({event.kind}): not stored: {_cause(exc)}"


def _describe_why(event: Event, why: str) -> str:
    return f"run {event.run_id} event seq {event.seq} ({event.kind}): not stored: {why}"


class _Batch:
    """What one transaction takes: events per run (in seq order), their rows, and the runs it met.

    `learned` starts as a copy of the writer's known runs; `commit()` hands the highest seq taken per
    run back to them once the transaction committed (a rolled-back batch teaches nothing)."""

    def __init__(self, known: dict[str, RunContext]) -> None:
        self._known = known
        self.learned = dict(known)
        self.rows = BatchRows()
        self.per_run: dict[int, list[Event]] = {}
        self.tops: dict[int, int] = {}  # run pk -> the highest seq taken in this batch

    def take_chunk(self, events: Sequence[Event], wall_time: float) -> bool:
        """Take a whole hand-off at once when it is the common case — events of one known run, no
        RunStarted, seqs ascending after the run's last — else False (nothing taken)."""
        if not events:
            return True
        run = self.learned.get(events[0].run_id)
        types = list(map(type, events))
        if run is None or RunStarted in set(types) or len(set(map(_RUN_ID, events))) != 1:
            return False
        seqs = list(map(_SEQ, events))
        top = self.tops.get(run.pk, run.last_seq)
        if (top is not None and seqs[0] <= top) or not all(map(operator.lt, seqs, islice(seqs, 1, None))):
            return False
        try:
            self.rows.add_all(events, run, wall_time, types)
        except (TypeError, ValueError, OverflowError, RecursionError):
            return False  # the slow path finds the event and reports it alone
        self.tops[run.pk] = seqs[-1]
        self.per_run.setdefault(run.pk, []).extend(events)
        return True

    def commit(self) -> None:
        for run in self.learned.values():
            top = self.tops.get(run.pk)
            if top is not None:
                run.last_seq = top
        self._known.update(self.learned)


_RUN_ID = operator.attrgetter("run_id")
_SEQ = operator.attrgetter("seq")


def _first(chunks: Sequence[Chunk]) -> Event:
    return next(event for events, _ in chunks for event in events)
