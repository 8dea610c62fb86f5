"""`SpanTable`: a run's spans, folded incrementally from its events: run → node execution → LLM / tool call.

Rules, applied in seq order per span id (the store's `spans()` reads and every live view use them):
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
- a node execution's tokens and cost include those of the LLM / tool spans under it (`rolled_up`);
- when the run was interrupted (its process died), spans that never ended have status "interrupted".

Invariant: `spans` holds every span in the order it was first seen; `children` of a span list its
sub-spans in that order, so a tree view can insert rows without sorting.
"""

from __future__ import annotations

from engine.events import (
    LLMCallFinished,
    LLMCallRetrying,
    LLMCallStarted,
    NodeStateChanged,
    RunFinished,
    RunStarted,
    ToolCallFinished,
    ToolCallStarted,
)
from engine.projection.rows import TERMINAL_NODE_STATES, SpanRow


def run_span_id(event: RunStarted | RunFinished) -> str:
    return event.span_id or f"run:{event.run_id}"


class SpanTable:
    __slots__ = ("node_usage", "roots", "spans")

    def __init__(self) -> None:
        self.spans: dict[str, SpanRow] = {}
        self.roots: list[str] = []  # spans without a (known) parent, in first-seen order
        self.node_usage: dict[str, list[float]] = {}  # node span id → [tokens in, tokens out, cost] of its calls

    def _span(self, span_id: str, kind: str, parent_id: str | None, node_id: str | None, seq: int) -> SpanRow:
        found = self.spans.get(span_id)
        if found is None:
            found = self.spans[span_id] = SpanRow(span_id, kind, parent_id, node_id, seq=seq)
            parent = self.spans.get(parent_id) if parent_id is not None else None
            if parent is not None:
                parent.children.append(span_id)
            else:
                self.roots.append(span_id)
        else:
            if found.parent_id is None and parent_id is not None:
                found.parent_id = parent_id
                parent = self.spans.get(parent_id)
                if parent is not None and span_id in self.roots:
                    self.roots.remove(span_id)
                    parent.children.append(span_id)
            if found.node_id is None:
                found.node_id = node_id
            found.seq = seq
        return found

    def node_state(self, e: NodeStateChanged) -> SpanRow | None:
        if e.span_id is None:
            return None
        s = self._span(e.span_id, "node", e.parent_id, e.node_id, e.seq)
        s.name = e.node_id or s.name
        terminal = e.state in TERMINAL_NODE_STATES
        if s.start_ts is None and (terminal or e.state == "running"):
            s.start_ts = e.ts
        if terminal:
            s.end_ts = e.ts
        s.status = e.state or s.status
        s.attrs["attempt"], s.attrs["round"] = e.attempt, e.round
        return s

    def call_started(self, e: LLMCallStarted | ToolCallStarted) -> SpanRow | None:
        if e.span_id is None:
            return None
        kind, name = ("llm", e.model) if type(e) is LLMCallStarted else ("tool", e.tool)  # type: ignore[union-attr]
        s = self._span(e.span_id, kind, e.parent_id, e.node_id, e.seq)
        s.name = name or s.name
        if s.start_ts is None:
            s.start_ts = e.ts
        s.status = "running"
        return s

    def call_finished(self, e: LLMCallFinished | ToolCallFinished) -> SpanRow | None:
        if e.span_id is None:
            return None
        llm = type(e) is LLMCallFinished
        s = self._span(e.span_id, "llm" if llm else "tool", e.parent_id, e.node_id, e.seq)
        if isinstance(e, LLMCallFinished):
            s.name = e.model or s.name
            s.tokens_in += e.tokens_in
            s.tokens_out += e.tokens_out
            s.cost_usd += e.cost_usd
            if e.tokens_in or e.tokens_out or e.cost_usd:
                self._roll_up(s, e.tokens_in, e.tokens_out, e.cost_usd)
        else:
            s.name = e.tool or s.name
        s.end_ts = e.ts
        s.status = "error" if e.error else "ok"
        s.attrs["latency_s"] = e.latency_s
        return s

    def call_retrying(self, e: LLMCallRetrying) -> SpanRow | None:
        if e.span_id is None:
            return None
        s = self._span(e.span_id, "llm", e.parent_id, None, e.seq)
        s.attrs["retries"] = int(s.attrs.get("retries", 0)) + 1
        s.attrs["last_retry_error"] = f"{e.error_type}: {e.error}"
        return s

    def run_started(self, e: RunStarted) -> SpanRow:
        s = self._span(run_span_id(e), "run", None, None, e.seq)
        s.name = e.workflow_name or s.name
        if s.start_ts is None:
            s.start_ts = e.ts
        s.status = "running"
        return s

    def run_finished(self, e: RunFinished) -> SpanRow:
        s = self._span(run_span_id(e), "run", None, None, e.seq)
        s.end_ts = e.ts
        s.status = e.status or s.status
        s.tokens_in += e.tokens_in
        s.tokens_out += e.tokens_out
        s.cost_usd += e.cost_usd
        return s

    def _roll_up(self, call: SpanRow, tokens_in: int, tokens_out: int, cost: float) -> None:
        """Add a call's usage to the node execution that contains it (the nearest node span above)."""
        up, seen = call.parent_id, 0
        while up is not None and seen < 64:
            parent = self.spans.get(up)
            if parent is None:
                return
            if parent.kind == "node":
                totals = self.node_usage.setdefault(up, [0, 0, 0.0])
                totals[0] += tokens_in
                totals[1] += tokens_out
                totals[2] += cost
                return
            up, seen = parent.parent_id, seen + 1

    def rolled_up(self, span: SpanRow) -> tuple[int, int, float]:
        """`span`'s tokens in, out and cost, a node execution's including the calls under it."""
        extra = self.node_usage.get(span.span_id)
        if extra is None:
            return span.tokens_in, span.tokens_out, span.cost_usd
        return span.tokens_in + int(extra[0]), span.tokens_out + int(extra[1]), span.cost_usd + extra[2]
