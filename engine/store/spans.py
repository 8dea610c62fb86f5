"""Spans of a run, derived from its events: run → node execution → LLM / tool call.

Nothing but the events is stored; `fold_spans` rebuilds the spans whenever they are asked for (the
live GUI can fold the same stream). Rules, applied in seq order per span id:
- a node span comes from `NodeStateChanged` events that carry a span id (a `queued` or `skipped`
  announcement of a node that never started has none and makes no span): it starts at its first
  `running` (or terminal) state, ends at a terminal state, its status is the latest state and its
  attrs the latest attempt and round;
- an LLM / tool span starts at `*CallStarted` (status "running") and ends at `*CallFinished` (status
  "ok" or "error", tokens and cost added, attrs `latency_s`);
- the run span (`run:<run id>` unless the events name one) starts at `RunStarted` and ends at
  `RunFinished` with the run's status and totals;
- a span keeps the first parent, node id and start time it was given, and its first kind;
- a node execution's tokens and cost include those of the LLM / tool spans under it;
- when the run was interrupted (its process died), spans that never ended have status "interrupted".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.events import (
    Event,
    LLMCallFinished,
    LLMCallStarted,
    NodeStateChanged,
    RunFinished,
    RunStarted,
    ToolCallFinished,
    ToolCallStarted,
)
from engine.store.records import SpanRecord

TERMINAL_NODE_STATES = frozenset({"done", "failed", "skipped", "cancelled"})
_CALLS = (LLMCallStarted, ToolCallStarted, LLMCallFinished, ToolCallFinished)


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

    def update(self, *, name: str = "", start_ts: float | None = None, end_ts: float | None = None,
               status: str = "", tokens: tuple[int, int, float] = (0, 0, 0.0), **attrs: Any) -> None:
        if name:
            self.name = name
        if self.start_ts is None:
            self.start_ts = start_ts
        if end_ts is not None:
            self.end_ts = end_ts
        if status:
            self.status = status
        self.tokens_in += tokens[0]
        self.tokens_out += tokens[1]
        self.cost_usd += tokens[2]
        self.attrs.update(attrs)


def fold_spans(events: Iterable[Event], run_id: str, *, interrupted: bool = False) -> list[SpanRecord]:
    """The spans of a run's events, ordered by start time (spans that never started last)."""
    spans: dict[str, _Span] = {}

    def span(span_id: str, kind: str, parent_id: str | None, node_id: str | None = None) -> _Span:
        found = spans.get(span_id)
        if found is None:
            found = spans[span_id] = _Span(kind, parent_id, node_id)
        else:
            found.parent_id = found.parent_id if found.parent_id is not None else parent_id
            found.node_id = found.node_id if found.node_id is not None else node_id
        return found

    for e in events:
        if isinstance(e, NodeStateChanged):
            if e.span_id is not None:
                terminal = e.state in TERMINAL_NODE_STATES
                span(e.span_id, "node", e.parent_id, e.node_id).update(
                    name=e.node_id, start_ts=e.ts if terminal or e.state == "running" else None,
                    end_ts=e.ts if terminal else None, status=e.state, attempt=e.attempt, round=e.round)
        elif isinstance(e, _CALLS):
            if e.span_id is not None:
                _call(span, e)
        elif isinstance(e, RunStarted):
            span(run_span_id(e), "run", None).update(name=e.workflow_name, start_ts=e.ts, status="running")
        elif isinstance(e, RunFinished):
            span(run_span_id(e), "run", None).update(end_ts=e.ts, status=e.status,
                                                     tokens=(e.tokens_in, e.tokens_out, e.cost_usd))
    return _records(spans, run_id, interrupted)


def _call(span: Any, e: LLMCallStarted | ToolCallStarted | LLMCallFinished | ToolCallFinished) -> None:
    kind, name = ("llm", e.model) if isinstance(e, LLMCallStarted | LLMCallFinished) else ("tool", e.tool)
    target = span(e.span_id, kind, e.parent_id, e.node_id)
    if isinstance(e, LLMCallStarted | ToolCallStarted):
        target.update(name=name, start_ts=e.ts, status="running")
        return
    tokens = (e.tokens_in, e.tokens_out, e.cost_usd) if isinstance(e, LLMCallFinished) else (0, 0, 0.0)
    target.update(name=name, end_ts=e.ts, status="error" if e.error else "ok", tokens=tokens,
                  latency_s=e.latency_s)


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
