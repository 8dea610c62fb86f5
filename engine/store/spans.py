"""Spans of a run, derived from its events: run → node execution → LLM / tool call.

Nothing but the events is stored; `fold_spans` rebuilds the spans whenever they are asked for (the
live GUI can fold the same stream). Rules, applied in seq order per span id:
- a node span comes from `NodeStateChanged` events that carry a span id (a `queued` or `skipped`
  announcement of a node that never started has none and makes no span): it starts at its first
  `running` (or terminal) state, ends at a terminal state, its status is the latest state and its
  attrs the latest attempt and round;
- an LLM / tool span starts at `*CallStarted` (status "running") and ends at `*CallFinished` (status
  "ok" or "error", tokens and cost added, attrs `latency_s`); each `LLMCallRetrying` in it counts in
  attrs `retries` (and `last_retry_error`: its error type and message);
- the run span (`run:<run id>` unless the events name one) starts at `RunStarted` and ends at
  `RunFinished` with the run's status and totals;
- a span keeps the first parent, node id and start time it was given, and its first kind;
- a node execution's tokens and cost include those of the LLM / tool spans under it;
- when the run was interrupted (its process died), spans that never ended have status "interrupted".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.events import (
    Event,
    LLMCallFinished,
    LLMCallRetrying,
    LLMCallStarted,
    NodeStateChanged,
    RunFinished,
    RunStarted,
    ToolCallFinished,
    ToolCallStarted,
)
from engine.store.records import SpanRecord

TERMINAL_NODE_STATES = frozenset({"done", "failed", "skipped", "cancelled"})


def run_span_id(event: RunStarted | RunFinished) -> str:
    return event.span_id or f"run:{event.run_id}"


class _Span:
    __slots__ = ("attrs", "cost_usd", "end_ts", "kind", "name", "node_id", "parent_id", "start_ts", "status",
                 "tokens_in", "tokens_out")

    def __init__(self, kind: str, parent_id: str | None, node_id: str | None) -> None:
        self.kind, self.parent_id, self.node_id = kind, parent_id, node_id
        self.name, self.status = "", ""
        self.start_ts: float | None = None
        self.end_ts: float | None = None
        self.tokens_in, self.tokens_out, self.cost_usd = 0, 0, 0.0
        self.attrs: dict[str, Any] = {}


_Spans = dict[str, _Span]


def _span(spans: _Spans, span_id: str, kind: str, parent_id: str | None, node_id: str | None = None) -> _Span:
    found = spans.get(span_id)
    if found is None:
        found = spans[span_id] = _Span(kind, parent_id, node_id)
    else:
        if found.parent_id is None:
            found.parent_id = parent_id
        if found.node_id is None:
            found.node_id = node_id
    return found


def _node_state(spans: _Spans, e: NodeStateChanged) -> None:
    if e.span_id is None:
        return
    s = _span(spans, e.span_id, "node", e.parent_id, e.node_id)
    s.name = e.node_id or s.name
    terminal = e.state in TERMINAL_NODE_STATES
    if s.start_ts is None and (terminal or e.state == "running"):
        s.start_ts = e.ts
    if terminal:
        s.end_ts = e.ts
    s.status = e.state or s.status
    s.attrs["attempt"], s.attrs["round"] = e.attempt, e.round


def _call_started(spans: _Spans, e: LLMCallStarted | ToolCallStarted) -> None:
    if e.span_id is None:
        return
    kind, name = ("llm", e.model) if type(e) is LLMCallStarted else ("tool", e.tool)  # type: ignore[union-attr]
    s = _span(spans, e.span_id, kind, e.parent_id, e.node_id)
    s.name = name or s.name
    if s.start_ts is None:
        s.start_ts = e.ts
    s.status = "running"


def _call_finished(spans: _Spans, e: LLMCallFinished | ToolCallFinished) -> None:
    if e.span_id is None:
        return
    s = _span(spans, e.span_id, "llm" if type(e) is LLMCallFinished else "tool", e.parent_id, e.node_id)
    if isinstance(e, LLMCallFinished):
        s.name = e.model or s.name
        s.tokens_in += e.tokens_in
        s.tokens_out += e.tokens_out
        s.cost_usd += e.cost_usd
    else:
        s.name = e.tool or s.name
    s.end_ts = e.ts
    s.status = "error" if e.error else "ok"
    s.attrs["latency_s"] = e.latency_s


def _call_retrying(spans: _Spans, e: LLMCallRetrying) -> None:
    if e.span_id is None:
        return
    s = _span(spans, e.span_id, "llm", e.parent_id)
    s.attrs["retries"] = int(s.attrs.get("retries", 0)) + 1
    s.attrs["last_retry_error"] = f"{e.error_type}: {e.error}"


def _run_started(spans: _Spans, e: RunStarted) -> None:
    s = _span(spans, run_span_id(e), "run", None)
    s.name = e.workflow_name or s.name
    if s.start_ts is None:
        s.start_ts = e.ts
    s.status = "running"


def _run_finished(spans: _Spans, e: RunFinished) -> None:
    s = _span(spans, run_span_id(e), "run", None)
    s.end_ts = e.ts
    s.status = e.status or s.status
    s.tokens_in += e.tokens_in
    s.tokens_out += e.tokens_out
    s.cost_usd += e.cost_usd


_FOLD: dict[type[Event], Callable[[_Spans, Any], None]] = {
    NodeStateChanged: _node_state, LLMCallStarted: _call_started, ToolCallStarted: _call_started,
    LLMCallFinished: _call_finished, ToolCallFinished: _call_finished, LLMCallRetrying: _call_retrying,
    RunStarted: _run_started, RunFinished: _run_finished,
}


def fold_spans(events: Iterable[Event], run_id: str, *, interrupted: bool = False) -> list[SpanRecord]:
    """The spans of a run's events, ordered by start time (spans that never started last)."""
    spans: _Spans = {}
    fold = _FOLD.get
    for e in events:
        step = fold(type(e))
        if step is not None:
            step(spans, e)
    return _records(spans, run_id, interrupted)


def _records(spans: dict[str, _Span], run_id: str, interrupted: bool) -> list[SpanRecord]:
    totals: dict[str, list[float]] = {sid: [0, 0, 0.0] for sid, s in spans.items() if s.kind == "node"}
    for s in spans.values():  # roll LLM/tool usage up into the node executions that contain them
        if s.kind not in ("llm", "tool"):
            continue
        up, seen = s.parent_id, set()
        while up is not None and up not in seen and up in spans and spans[up].kind != "node":
            seen.add(up)
            up = spans[up].parent_id
        if up is not None and up in totals:
            t = totals[up]
            t[0] += s.tokens_in
            t[1] += s.tokens_out
            t[2] += s.cost_usd
    out = []
    for sid, s in spans.items():
        extra = totals.get(sid, [0, 0, 0.0])
        status = "interrupted" if interrupted and s.end_ts is None else s.status
        out.append(SpanRecord(
            run_id=run_id, span_id=sid, parent_id=s.parent_id, kind=s.kind, name=s.name, node_id=s.node_id,
            start_ts=s.start_ts, end_ts=s.end_ts, status=status, tokens_in=s.tokens_in + int(extra[0]),
            tokens_out=s.tokens_out + int(extra[1]), cost_usd=s.cost_usd + extra[2], attrs=dict(s.attrs)))
    out.sort(key=lambda s: (s.start_ts is None, s.start_ts or 0.0, s.span_id))
    return out
