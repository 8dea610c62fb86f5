"""Read side of the trace store: rebuilds events and records from the tables.

Invariants: reads run in one read transaction each (a consistent snapshot, never blocked by the
writer thread thanks to WAL); results are frozen records with JSON decoded; `iter_events` yields the
run's events in `seq` order, token deltas merged back from their chunks and call bodies restored from
`recorded_calls`, so `list(iter_events(run))` equals the events that were appended.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, Row, select

from engine.events import Event, event_from_record
from engine.store.codec import CALL_BODIES, decode_delta_chunk, event_record, restore_call_body
from engine.store.records import MemoryEntry, RecordedCall, RunSummary, SpanRecord, VerdictRecord
from engine.store.tables import DELTA_CHUNKS, EVENTS, RECORDED_CALLS, SPANS, VERDICTS

DELTA_KIND = "llm_delta"


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def load_json(text: str) -> Any:
    return json.loads(text)


def run_summary(row: Row[Any]) -> RunSummary:
    m = row._mapping
    return RunSummary(
        id=m["id"], workflow_id=m["workflow_id"], workflow_name=m["workflow_name"],
        workflow_hash=m["workflow_hash"], status=m["status"], reason=m["reason"], started_at=m["started_at"],
        finished_at=m["finished_at"], duration_s=m["duration_s"], tokens_in=m["tokens_in"],
        tokens_out=m["tokens_out"], cost_usd=m["cost_usd"], inputs=_json(m["inputs"]),
        outputs=_json(m["outputs"]), settings=_json(m["settings"]), replay_of=m["replay_of"],
        fork_of=m["fork_of"], fork_at_seq=m["fork_at_seq"],
    )


def load_events(
    conn: Connection, run_pk: int, run_id: str, *, kinds: Iterable[str] | None, from_seq: int, to_seq: int | None,
) -> list[Event]:
    wanted = None if kinds is None else frozenset(kinds)
    last = to_seq if to_seq is not None else 2**62
    query = select(EVENTS.c.seq, EVENTS.c.ts, EVENTS.c.kind, EVENTS.c.span_id, EVENTS.c.parent_id,
                   EVENTS.c.payload).where(EVENTS.c.run_pk == run_pk, EVENTS.c.seq.between(from_seq, last))
    if wanted is not None:
        query = query.where(EVENTS.c.kind.in_(sorted(wanted - {DELTA_KIND})))
    rows = conn.execute(query.order_by(EVENTS.c.seq)).all()
    bodies = _call_bodies(conn, run_pk) if any(r.kind in CALL_BODIES and r.span_id for r in rows) else {}
    plain: list[Event] = []
    for seq, ts, kind, span_id, parent_id, payload in rows:
        fields = json.loads(payload)
        if kind in CALL_BODIES and span_id is not None:
            restore_call_body(kind, fields, bodies.get((span_id, "request")), bodies.get((span_id, "response")))
        plain.append(event_from_record(event_record(
            run_id=run_id, seq=seq, ts=ts, kind=kind, span_id=span_id, parent_id=parent_id, payload=fields)))
    if wanted is not None and DELTA_KIND not in wanted:
        return plain
    chunks = conn.execute(
        select(DELTA_CHUNKS.c.first_seq, DELTA_CHUNKS.c.span_id, DELTA_CHUNKS.c.parent_id, DELTA_CHUNKS.c.data)
        .where(DELTA_CHUNKS.c.run_pk == run_pk, DELTA_CHUNKS.c.last_seq >= from_seq,
               DELTA_CHUNKS.c.first_seq <= last)
    ).all()
    deltas: list[Event] = [
        d for first, span_id, parent_id, data in chunks
        for d in decode_delta_chunk(data, run_id=run_id, first_seq=first, span_id=span_id, parent_id=parent_id)
        if from_seq <= d.seq <= last
    ]
    deltas.sort(key=lambda e: e.seq)
    return list(heapq.merge(plain, deltas, key=lambda e: e.seq))


def _call_bodies(conn: Connection, run_pk: int) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    rows = conn.execute(select(RECORDED_CALLS.c.span_id, RECORDED_CALLS.c.request, RECORDED_CALLS.c.response)
                        .where(RECORDED_CALLS.c.run_pk == run_pk))
    for span_id, request, response in rows:
        if request is not None:
            out[(span_id, "request")] = request
        if response is not None:
            out[(span_id, "response")] = response
    return out


def load_spans(conn: Connection, run_pk: int, run_id: str) -> list[SpanRecord]:
    rows = conn.execute(select(SPANS).where(SPANS.c.run_pk == run_pk)).all()
    parent = {r.span_id: r.parent_id for r in rows}
    kind = {r.span_id: r.kind for r in rows}
    totals: dict[str, list[float]] = {r.span_id: [0, 0, 0.0] for r in rows if r.kind == "node"}
    for r in rows:  # roll LLM/tool usage up into the node executions that contain them
        if r.kind not in ("llm", "tool"):
            continue
        up, seen = r.parent_id, set()
        while up is not None and up not in seen and kind.get(up) != "node":
            seen.add(up)
            up = parent.get(up)
        if up is not None and up in totals:
            t = totals[up]
            t[0] += r.tokens_in
            t[1] += r.tokens_out
            t[2] += r.cost_usd
    spans = []
    for r in rows:
        extra = totals.get(r.span_id, [0, 0, 0.0])
        spans.append(SpanRecord(
            run_id=run_id, span_id=r.span_id, parent_id=r.parent_id, kind=r.kind, name=r.name,
            node_id=r.node_id, start_ts=r.start_ts, end_ts=r.end_ts, status=r.status,
            tokens_in=r.tokens_in + int(extra[0]), tokens_out=r.tokens_out + int(extra[1]),
            cost_usd=r.cost_usd + extra[2], attrs=_json(r.attrs) or {},
        ))
    spans.sort(key=lambda s: (s.start_ts is None, s.start_ts or 0.0, s.span_id))
    return spans


def load_verdicts(conn: Connection, run_pk: int, run_id: str) -> list[VerdictRecord]:
    rows = conn.execute(select(VERDICTS).where(VERDICTS.c.run_pk == run_pk).order_by(VERDICTS.c.seq)).all()
    return [VerdictRecord(
        run_id=run_id, seq=r.seq, ts=r.ts, span_id=r.span_id, node_id=r.node_id,
        subject_node_id=r.subject_node_id, decision=r.decision, score=r.score, reasons=_json(r.reasons),
        claims=_json(r.claims), round=r.round, artifact_seq=r.artifact_seq, judge_model=r.judge_model,
    ) for r in rows]


def load_recorded_calls(conn: Connection, run_pk: int, run_id: str) -> list[RecordedCall]:
    rows = conn.execute(select(RECORDED_CALLS).where(RECORDED_CALLS.c.run_pk == run_pk)).all()
    calls = [RecordedCall(
        run_id=run_id, span_id=r.span_id, call_key=r.call_key, kind=r.kind, node_id=r.node_id, name=r.name,
        request=_json(r.request), response=_json(r.response), error=r.error, error_type=r.error_type,
        started_seq=r.started_seq, finished_seq=r.finished_seq,
    ) for r in rows]
    calls.sort(key=lambda c: (c.started_seq is None, c.started_seq or 0, c.finished_seq or 0))
    return calls


def memory_entry(row: Row[Any]) -> MemoryEntry:
    m = row._mapping
    return MemoryEntry(
        memory=m["memory"], scope=m["scope"], scope_id=m["scope_id"], key=m["key"], value=_json(m["value"]),
        node_id=m["node_id"], run_id=m["run_id"], admitted=bool(m["admitted"]), reason=m["reason"],
        seq=m["seq"], ts=m["ts"],
    )
