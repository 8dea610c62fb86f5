"""Read side of the trace store: rebuilds events and records from the tables.

Invariants: reads run in one read transaction each (a consistent snapshot, never blocked by the
writer thread thanks to WAL); results are frozen records with JSON decoded; `load_events` yields the
run's events in `seq` order from its segments, so `list(iter_events(run))` equals the events that were
appended; spans and recorded calls are folded from those events (`engine.store.spans`, `calls`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, Row, select

from engine.budget import reason_now
from engine.events import Event
from engine.gc_pause import gc_paused
from engine.memory.backend import MemoryEntry
from engine.store.calls import fold_calls
from engine.store.records import RecordedCall, RunSummary, SpanRecord, VerdictRecord
from engine.store.segments import decode_segment
from engine.store.spans import fold_spans
from engine.store.tables import EVENT_SEGMENTS, RUNS, VERDICTS


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def load_json(text: str) -> Any:
    return json.loads(text)


def run_summary(row: Row[Any]) -> RunSummary:
    m = row._mapping
    return RunSummary(
        id=m["id"], workflow_id=m["workflow_id"], workflow_name=m["workflow_name"],
        workflow_hash=m["workflow_hash"], status=m["status"], reason=reason_now(m["reason"]),  # older runs' words too
        started_at=m["started_at"],
        finished_at=m["finished_at"], duration_s=m["duration_s"], tokens_in=m["tokens_in"],
        tokens_out=m["tokens_out"], cost_usd=m["cost_usd"], inputs=_json(m["inputs"]),
        outputs=_json(m["outputs"]), settings=_json(m["settings"]), replay_of=m["replay_of"],
        fork_of=m["fork_of"], fork_at_seq=m["fork_at_seq"],
    )


def load_events(
    conn: Connection, run_pk: int, run_id: str, *, kinds: Iterable[str] | None = None, from_seq: int = 0,
    to_seq: int | None = None,
) -> list[Event]:
    wanted = None if kinds is None else frozenset(kinds)
    last = to_seq if to_seq is not None else 2**62
    seg = EVENT_SEGMENTS.c
    blobs = conn.execute(select(seg.data).where(seg.run_pk == run_pk, seg.last_seq >= from_seq, seg.first_seq <= last)
                         .order_by(seg.first_seq)).scalars()
    with gc_paused():  # tens of thousands of containers at once: no collector passes over them meanwhile
        events = [e for data in blobs for e in decode_segment(data, run_id, wanted)
                  if from_seq <= e.seq <= last]
    return events  # segments of a run hold disjoint, ascending seq ranges


def load_spans(conn: Connection, run_pk: int, run_id: str) -> list[SpanRecord]:
    status = conn.execute(select(RUNS.c.status).where(RUNS.c.pk == run_pk)).scalar_one_or_none()
    events = load_events(conn, run_pk, run_id)
    with gc_paused():
        return fold_spans(events, run_id, interrupted=status == "interrupted")


def load_verdicts(conn: Connection, run_pk: int, run_id: str) -> list[VerdictRecord]:
    rows = conn.execute(select(VERDICTS).where(VERDICTS.c.run_pk == run_pk).order_by(VERDICTS.c.seq)).all()
    return [VerdictRecord(
        run_id=run_id, seq=r.seq, ts=r.ts, span_id=r.span_id, node_id=r.node_id,
        subject_node_id=r.subject_node_id, decision=r.decision, score=r.score, reasons=_json(r.reasons),
        claims=_json(r.claims), round=r.round, artifact_seq=r.artifact_seq, judge_model=r.judge_model,
    ) for r in rows]


def load_recorded_calls(conn: Connection, run_pk: int, run_id: str) -> list[RecordedCall]:
    events = load_events(conn, run_pk, run_id, kinds=_CALL_KINDS)
    with gc_paused():
        return fold_calls(events, run_id)


_CALL_KINDS = ("llm_started", "llm_finished", "tool_started", "tool_finished")


def memory_entry(row: Row[Any]) -> MemoryEntry:
    m = row._mapping
    return MemoryEntry(
        memory=m["memory"], scope=m["scope"], scope_id=m["scope_id"], key=m["key"], value=_json(m["value"]),
        node_id=m["node_id"], run_id=m["run_id"], admitted=bool(m["admitted"]), reason=m["reason"],
        seq=m["seq"], ts=m["ts"],
    )
