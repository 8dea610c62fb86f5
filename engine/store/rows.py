"""Turns a batch of events into the rows the store writes: the one place events become tables.

Every table except workflows/workflow_versions is derived here from `engine.events` events only.

Invariants:
- `RowCollector.add` is all-or-nothing per event: it computes every row of the event first and only
  then appends them, so an event that cannot be encoded leaves no partial rows (the caller reports it);
- rows keep stream order per statement; the batch writer runs statements in an order where a span or
  recorded call is inserted before it is updated, and run totals are set after live increments;
- events rows are plain tuples in `EVENT_COLUMNS` order (the batch writer checks the order once);
- rows for one span within a batch are merged into one row with the spans upsert's own rules
  (`merge_span`), so the database sees one upsert per span per batch — the stored span is the same;
- a recorded call started and finished in one batch is one row (`calls_complete`); LLM token usage
  of a batch is one live increment per run (run totals are set exactly by `RunFinished`);
- token deltas of one span in a batch become one `delta_chunks` row (no row per delta);
- spans come only from real span ids: node spans from `NodeStateChanged` events that carry one (a
  `queued` or `skipped` announcement of a node that never started has none and makes no span);
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
from engine.store.codec import dumps, encode_call_request, encode_delta_chunk, encode_payload
from engine.store.spans import attrs_encodable, merge_span, span_row

Row = dict[str, Any]
TERMINAL_NODE_STATES = frozenset({"done", "failed", "skipped", "cancelled"})
EVENT_COLUMNS = ("run_pk", "seq", "ts", "kind", "span_id", "parent_id", "payload")
_STARTED_COLUMNS = ("call_key", "kind", "node_id", "name", "request", "started_seq")
_FINISHED_COLUMNS = ("response", "error", "error_type", "finished_seq")


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


@dataclass(slots=True)
class RowCollector:
    events: list[tuple[Any, ...]] = field(default_factory=list)
    calls_finished: list[Row] = field(default_factory=list)  # calls started in an earlier batch
    memory: list[Row] = field(default_factory=list)
    verdicts: list[Row] = field(default_factory=list)
    runs_finished: list[Row] = field(default_factory=list)
    deltas: dict[tuple[int, str | None, str | None], list[LLMTokenDelta]] = field(
        default_factory=lambda: defaultdict(list)
    )
    _spans: list[Row] = field(default_factory=list)
    _span_at: dict[tuple[int, str], int] = field(default_factory=dict)  # span key -> index of its latest row
    _calls: dict[tuple[int, str], Row] = field(default_factory=dict)  # calls started in this batch
    _usage: dict[int, list[Any]] = field(default_factory=dict)  # run pk -> [tokens in, tokens out, cost]

    @property
    def calls_started(self) -> list[Row]:
        return [row for row in self._calls.values() if row["finished_seq"] is None]

    @property
    def calls_complete(self) -> list[Row]:
        return [row for row in self._calls.values() if row["finished_seq"] is not None]

    @property
    def run_increments(self) -> list[Row]:
        return [{"b_pk": pk, "d_in": d_in, "d_out": d_out, "d_cost": d_cost}
                for pk, (d_in, d_out, d_cost) in self._usage.items()]

    @property
    def spans(self) -> list[Row]:
        """One row per span (per merge run), `attrs` encoded, in order of first appearance."""
        return [{**row, "attrs": dumps(row["attrs"])} for row in self._spans]

    def add(self, event: Event, run: RunContext, wall_time: float) -> None:
        if isinstance(event, LLMTokenDelta):
            if not isinstance(event.text, str) or not math.isfinite(event.ts):
                raise TypeError(f"a token delta needs a string text and a finite ts, got {event.text!r}, {event.ts!r}")
            self.deltas[(run.pk, event.span_id, event.parent_id)].append(event)
            return
        pk = run.pk
        row = (pk, event.seq, event.ts, event.kind, event.span_id, event.parent_id,
               encode_payload(event, strip_body=event.span_id is not None))
        spans: list[Row] = []
        out: list[tuple[list[Row], Row]] = []
        started: Row | None = None
        finished: tuple[Row, tuple[int, int, float] | None] | None = None
        if isinstance(event, NodeStateChanged):
            if event.span_id is not None:
                state = event.state
                terminal = state in TERMINAL_NODE_STATES
                spans.append(span_row(
                    pk, event.span_id, "node", parent_id=event.parent_id, name=event.node_id, node_id=event.node_id,
                    start_ts=event.ts if terminal or state == "running" else None,
                    end_ts=event.ts if terminal else None, status=state,
                    attrs={"attempt": event.attempt, "round": event.round}))
        elif isinstance(event, LLMCallStarted | ToolCallStarted):
            if event.span_id is not None:
                kind, name, body = (
                    ("llm", event.model, event.request) if isinstance(event, LLMCallStarted)
                    else ("tool", event.tool, event.arguments)
                )
                spans.append(span_row(pk, event.span_id, kind, parent_id=event.parent_id, name=name,
                                      node_id=event.node_id, start_ts=event.ts, status="running"))
                request, key = encode_call_request(kind, name, body)
                started = {"run_pk": pk, "span_id": event.span_id, "call_key": key, "kind": kind, "node_id": event.node_id,
                        "name": name, "request": request, "started_seq": event.seq, "response": None, "error": None,
                        "error_type": None, "finished_seq": None}
        elif isinstance(event, LLMCallFinished | ToolCallFinished):
            if event.span_id is not None:
                finished = self._finished_call(event, pk, spans)
        elif isinstance(event, RunStarted):
            spans.append(span_row(pk, run_span_id(event), "run", name=event.workflow_name, start_ts=event.ts,
                                  status="running"))
        elif isinstance(event, RunFinished):
            spans.append(span_row(pk, run_span_id(event), "run", end_ts=event.ts, status=event.status,
                                  tokens_in=event.tokens_in, tokens_out=event.tokens_out, cost_usd=event.cost_usd))
            out.append((self.runs_finished, {
                "b_pk": pk, "status": event.status, "reason": event.reason, "finished_at": wall_time,
                "duration_s": event.duration_s, "tokens_in": event.tokens_in, "tokens_out": event.tokens_out,
                "cost_usd": event.cost_usd, "outputs": dumps(event.outputs),
            }))
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
        for span in spans:  # an attrs value JSON cannot hold fails this event now, not the batch later
            if not attrs_encodable(span["attrs"]):
                dumps(span["attrs"])
        self.events.append(row)
        for target, values in out:
            target.append(values)
        for span in spans:
            self._add_span(span)
        if started is not None:
            self._call_started(started)
        if finished is not None:
            self._call_finished(*finished)

    def _finished_call(self, event: LLMCallFinished | ToolCallFinished, pk: int,
                       spans: list[Row]) -> tuple[Row, tuple[int, int, float] | None]:
        assert event.span_id is not None
        if isinstance(event, LLMCallFinished):
            kind, name, response, error_type = "llm", event.model, event.response, event.error_type
            usage: tuple[int, int, float] | None = (event.tokens_in, event.tokens_out, event.cost_usd)
        else:
            kind, name, response, error_type, usage = "tool", event.tool, event.result, None, None
        tokens = usage or (0, 0, 0.0)
        spans.append(span_row(
            pk, event.span_id, kind, parent_id=event.parent_id, name=name, node_id=event.node_id,
            end_ts=event.ts, status="error" if event.error else "ok", tokens_in=tokens[0],
            tokens_out=tokens[1], cost_usd=tokens[2], attrs={"latency_s": event.latency_s}))
        row = {"run_pk": pk, "span_id": event.span_id, "call_key": "", "kind": kind, "node_id": event.node_id,
               "name": name, "response": dumps(response), "error": event.error, "error_type": error_type,
               "finished_seq": event.seq}
        return row, usage

    def _call_started(self, row: Row) -> None:
        key = (row["run_pk"], row["span_id"])
        known = self._calls.get(key)
        if known is None:
            self._calls[key] = row
        else:  # the same span started again: the started columns change, like the upsert does
            known.update({k: row[k] for k in _STARTED_COLUMNS})

    def _call_finished(self, row: Row, usage: tuple[int, int, float] | None) -> None:
        if usage is not None and any(usage):  # LLM token usage: the run's live totals
            total = self._usage.get(row["run_pk"])
            if total is None:
                self._usage[row["run_pk"]] = list(usage)
            else:
                total[0] += usage[0]
                total[1] += usage[1]
                total[2] += usage[2]
        known = self._calls.get((row["run_pk"], row["span_id"]))
        if known is None:
            self.calls_finished.append(row)
        else:
            known.update({k: row[k] for k in _FINISHED_COLUMNS})

    def _add_span(self, span: Row) -> None:
        key = (span["run_pk"], span["span_id"])
        at = self._span_at.get(key)
        if at is not None and merge_span(self._spans[at], span):
            return
        self._span_at[key] = len(self._spans)
        self._spans.append(span)

    def delta_chunks(self) -> list[Row]:
        rows: list[Row] = []
        for (pk, span_id, parent_id), deltas in self.deltas.items():
            deltas.sort(key=lambda d: d.seq)
            rows.append({"run_pk": pk, "first_seq": deltas[0].seq, "last_seq": deltas[-1].seq,
                         "span_id": span_id, "parent_id": parent_id, "data": encode_delta_chunk(deltas)})
        return rows
