"""Spans of a run, derived from its events: run → node execution → LLM / tool call.

Nothing but the events is stored; `fold_spans` rebuilds the spans whenever they are asked for, with
the same `SpanTable` every live view of a run folds (`engine.projection`): the rules are written once,
there. When the run was interrupted (its process died), spans that never ended have status
"interrupted".
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
from engine.projection.rows import TERMINAL_NODE_STATES
from engine.projection.spans import SpanTable, run_span_id
from engine.store.records import SpanRecord

__all__ = ["TERMINAL_NODE_STATES", "fold_spans", "run_span_id", "span_records"]

_FOLD: dict[type[Event], Callable[[SpanTable, Any], object]] = {
    NodeStateChanged: SpanTable.node_state, LLMCallStarted: SpanTable.call_started,
    ToolCallStarted: SpanTable.call_started, LLMCallFinished: SpanTable.call_finished,
    ToolCallFinished: SpanTable.call_finished, LLMCallRetrying: SpanTable.call_retrying,
    RunStarted: SpanTable.run_started, RunFinished: SpanTable.run_finished,
}


def fold_spans(events: Iterable[Event], run_id: str, *, interrupted: bool = False) -> list[SpanRecord]:
    """The spans of a run's events, ordered by start time (spans that never started last)."""
    table = SpanTable()
    fold = _FOLD.get
    for e in events:
        step = fold(type(e))
        if step is not None:
            step(table, e)
    return span_records(table, run_id, interrupted=interrupted)


def span_records(table: SpanTable, run_id: str, *, interrupted: bool = False) -> list[SpanRecord]:
    """`table`'s spans as frozen records (a node execution's usage includes its calls'), by start time."""
    out = []
    for sid, s in table.spans.items():
        tokens_in, tokens_out, cost = table.rolled_up(s)
        status = "interrupted" if interrupted and s.end_ts is None else s.status
        out.append(SpanRecord(
            run_id=run_id, span_id=sid, parent_id=s.parent_id, kind=s.kind, name=s.name, node_id=s.node_id,
            start_ts=s.start_ts, end_ts=s.end_ts, status=status, tokens_in=tokens_in, tokens_out=tokens_out,
            cost_usd=cost, attrs=dict(s.attrs)))
    out.sort(key=lambda s: (s.start_ts is None, s.start_ts or 0.0, s.span_id))
    return out
