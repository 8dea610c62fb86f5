"""Turns a batch of events into the rows the store writes: the one place events become tables.

Every table except workflows/workflow_versions is derived here from `engine.events` events only.

Invariants:
- `RowCollector.add` is all-or-nothing per event: it computes every row of the event first and only
  then appends them, so an event that cannot be encoded leaves no partial rows (the caller reports it);
- rows keep stream order per statement; the batch writer runs statements in an order where a span or
  recorded call is inserted before it is updated, and run totals are set after live increments;
- token deltas of one span in a batch become one `delta_chunks` row (no row per delta);
- node spans use the event's span id (or `node:<node_id>:<attempt>:<round>` when the runtime gave none);
  LLM/tool spans and recorded calls need a span id — without one the body simply stays in the event.
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from engine.events import (
    Event,
    LLMCallFinished,
    LLMCallStarted,
    LLMTokenDelta,
    MemoryWritten,
    NodeStateChanged,
    RunFinished,
    RunStarted,
    ToolCallFinished,
    ToolCallStarted,
    VerdictIssued,
)
from engine.store.codec import call_key, dumps, encode_delta_chunk, encode_payload

Row = dict[str, Any]
TERMINAL_NODE_STATES = frozenset({"done", "failed", "skipped", "cancelled"})


@dataclass(slots=True)
class RunContext:
    pk: int
    workflow_id: str


def run_span_id(event: RunStarted | RunFinished) -> str:
    return event.span_id or f"run:{event.run_id}"


def run_started_row(event: RunStarted, wall_time: float) -> Row:
    return {
        "id": event.run_id, "workflow_id": event.workflow_id, "workflow_name": event.workflow_name,
        "workflow_hash": event.workflow_hash, "status": "running", "reason": "", "started_at": wall_time,
        "inputs": dumps(event.inputs), "settings": dumps(event.settings), "replay_of": event.replay_of,
        "fork_of": event.fork_of, "fork_at_seq": event.fork_at_seq, "owner_pid": os.getpid(),
        "duration_s": 0.0, "tokens_in": 0, "tokens_out": 0, "cost_usd": 0.0, "outputs": "{}",
    }


RUN_STARTED_KEYS = (
    "id", "workflow_id", "workflow_name", "workflow_hash", "status", "reason", "started_at", "inputs", "settings",
    "replay_of", "fork_of", "fork_at_seq", "owner_pid",
)


def _span(pk: int, span_id: str, kind: str, **values: Any) -> Row:
    row: Row = {
        "run_pk": pk, "span_id": span_id, "parent_id": None, "kind": kind, "name": "", "node_id": None,
        "start_ts": None, "end_ts": None, "status": "", "tokens_in": 0, "tokens_out": 0, "cost_usd": 0.0,
        "attrs": "{}",
    }
    row.update(values)
    return row


@dataclass(slots=True)
class RowCollector:
    events: list[Row] = field(default_factory=list)
    spans: list[Row] = field(default_factory=list)
    calls_started: list[Row] = field(default_factory=list)
    calls_finished: list[Row] = field(default_factory=list)
    memory: list[Row] = field(default_factory=list)
    verdicts: list[Row] = field(default_factory=list)
    run_increments: list[Row] = field(default_factory=list)
    runs_finished: list[Row] = field(default_factory=list)
    deltas: dict[tuple[int, str | None, str | None], list[LLMTokenDelta]] = field(
        default_factory=lambda: defaultdict(list)
    )

    def add(self, event: Event, run: RunContext, wall_time: float) -> None:
        if isinstance(event, LLMTokenDelta):
            if not isinstance(event.text, str) or not math.isfinite(event.ts):
                raise TypeError(f"a token delta needs a string text and a finite ts, got {event.text!r}, {event.ts!r}")
            self.deltas[(run.pk, event.span_id, event.parent_id)].append(event)
            return
        pk = run.pk
        strip = event.span_id is not None
        out: list[tuple[list[Row], Row]] = [(self.events, {
            "run_pk": pk, "seq": event.seq, "ts": event.ts, "kind": event.kind, "span_id": event.span_id,
            "parent_id": event.parent_id, "payload": encode_payload(event, strip_body=strip),
        })]
        if isinstance(event, RunStarted):
            out.append((self.spans, _span(pk, run_span_id(event), "run", name=event.workflow_name,
                                          start_ts=event.ts, status="running")))
        elif isinstance(event, RunFinished):
            out.append((self.spans, _span(
                pk, run_span_id(event), "run", end_ts=event.ts, status=event.status,
                tokens_in=event.tokens_in, tokens_out=event.tokens_out, cost_usd=event.cost_usd)))
            out.append((self.runs_finished, {
                "b_pk": pk, "status": event.status, "reason": event.reason, "finished_at": wall_time,
                "duration_s": event.duration_s, "tokens_in": event.tokens_in, "tokens_out": event.tokens_out,
                "cost_usd": event.cost_usd, "outputs": dumps(event.outputs),
            }))
        elif isinstance(event, NodeStateChanged):
            running = event.state == "running" or event.state in TERMINAL_NODE_STATES
            span_id = event.span_id or f"node:{event.node_id}:{event.attempt}:{event.round}"
            out.append((self.spans, _span(
                pk, span_id, "node", parent_id=event.parent_id, name=event.node_id, node_id=event.node_id,
                start_ts=event.ts if running else None,
                end_ts=event.ts if event.state in TERMINAL_NODE_STATES else None, status=event.state,
                attrs=dumps({"attempt": event.attempt, "round": event.round}))))
        elif isinstance(event, LLMCallStarted | ToolCallStarted) and event.span_id is not None:
            kind, name, body = (
                ("llm", event.model, event.request) if isinstance(event, LLMCallStarted)
                else ("tool", event.tool, event.arguments)
            )
            out.append((self.spans, _span(pk, event.span_id, kind, parent_id=event.parent_id, name=name,
                                          node_id=event.node_id, start_ts=event.ts, status="running")))
            out.append((self.calls_started, {
                "run_pk": pk, "span_id": event.span_id, "call_key": call_key(kind, name, body), "kind": kind,
                "node_id": event.node_id, "name": name, "request": dumps(body), "started_seq": event.seq,
            }))
        elif isinstance(event, LLMCallFinished | ToolCallFinished) and event.span_id is not None:
            llm = isinstance(event, LLMCallFinished)
            kind, name = ("llm", event.model) if isinstance(event, LLMCallFinished) else ("tool", event.tool)
            response = event.response if isinstance(event, LLMCallFinished) else event.result
            tokens = (event.tokens_in, event.tokens_out, event.cost_usd) if isinstance(event, LLMCallFinished) \
                else (0, 0, 0.0)
            error_type = event.error_type if isinstance(event, LLMCallFinished) else None
            out.append((self.spans, _span(
                pk, event.span_id, kind, parent_id=event.parent_id, name=name, node_id=event.node_id,
                end_ts=event.ts, status="error" if event.error else "ok", tokens_in=tokens[0],
                tokens_out=tokens[1], cost_usd=tokens[2], attrs=dumps({"latency_s": event.latency_s}))))
            out.append((self.calls_finished, {
                "run_pk": pk, "span_id": event.span_id, "call_key": "", "kind": kind, "node_id": event.node_id,
                "name": name,
                "response": dumps(response), "error": event.error, "error_type": error_type,
                "finished_seq": event.seq,
            }))
            if llm and any(tokens):
                out.append((self.run_increments, {"b_pk": pk, "d_in": tokens[0], "d_out": tokens[1],
                                                  "d_cost": tokens[2]}))
        elif isinstance(event, MemoryWritten):
            scope_id = {"run": event.run_id, "workflow": run.workflow_id}.get(event.scope, "")
            out.append((self.memory, {
                "memory": event.memory, "scope": event.scope, "scope_id": scope_id, "key": event.key,
                "value": dumps(event.value), "node_id": event.node_id, "run_id": event.run_id,
                "admitted": bool(event.admitted), "reason": event.reason, "seq": event.seq, "ts": event.ts,
            }))
        elif isinstance(event, VerdictIssued):
            out.append((self.verdicts, {
                "run_pk": pk, "seq": event.seq, "ts": event.ts, "span_id": event.span_id,
                "node_id": event.node_id, "subject_node_id": event.subject_node_id, "decision": event.decision,
                "score": float(event.score), "reasons": dumps(event.reasons), "claims": dumps(event.claims),
                "round": event.round, "artifact_seq": event.artifact_seq, "judge_model": event.judge_model,
            }))
        for target, row in out:
            target.append(row)

    def delta_chunks(self) -> list[Row]:
        rows: list[Row] = []
        for (pk, span_id, parent_id), deltas in self.deltas.items():
            deltas.sort(key=lambda d: d.seq)
            rows.append({"run_pk": pk, "first_seq": deltas[0].seq, "last_seq": deltas[-1].seq,
                         "span_id": span_id, "parent_id": parent_id, "data": encode_delta_chunk(deltas)})
        return rows
