"""`clone_projection`: an independent copy of a `RunProjection`, for playback's checkpoints.

A copy folds on by itself: applying more events to it never changes the original, nor the reverse.
Events are immutable records and are shared, never copied (a copy of a 100,000-event projection
holds the same event objects, its own list of them); every row, list and dict the fold may still
write is copied one level down — exactly as deep as `engine.projection.fold` writes. A row the fold
never writes again is shared: a model / tool call once finished (its call row and its span: a call's
span id is its own, retries come before its end) and a node execution's span once done (a failed one
may be retried under the same span). So a copy of a long run costs its open rows and its containers,
not its history (measured here: a 100,000-event run at its end copied in ~4 ms; ~22 ms copying every row).

Invariant: every attribute of a `RunProjection` is named here (`_SHARED`, `_SHALLOW` or copied by
hand); a test fails when the projection gains one this module does not know. Qt-free.
"""

from __future__ import annotations

from copy import copy
from operator import attrgetter
from typing import Any, NamedTuple, TypeVar

from engine.projection.changes import ProjectionChanges
from engine.projection.rows import CallRow, HumanQuestion, NodeRow, SpanRow
from engine.projection.run_projection import RunProjection
from engine.projection.spans import SpanTable
from engine.projection.usage import ModelUsage, UsageSeries

# replaced wholesale by the fold, never changed in place (strings, numbers, events, None)
_SHARED = frozenset({
    "run_id", "workflow_id", "workflow_name", "workflow_hash", "replay_of", "fork_of", "status", "reason",
    "tokens_in", "tokens_out", "cost_usd", "elapsed_s", "duration_s", "last_seq", "stream_span",
    "budget", "budget_hit", "hold", "deadline_clock", "_keep_events", "contracts",
})
# containers the fold adds to or replaces items of, whose items are immutable (events, strings): one level
_SHALLOW = frozenset({
    "inputs", "settings", "outputs", "open_calls", "verdicts", "memory_writes", "memory_reads", "memory",
    "plans", "artifacts", "errors", "logs", "problems", "tool_arguments", "last_tool_arguments", "events",
})
_BY_HAND = frozenset({"nodes", "span_table", "calls", "usage", "questions", "changes"})
KNOWN_ATTRIBUTES = _SHARED | _SHALLOW | _BY_HAND

R = TypeVar("R")


def _row_copier(cls: type[R], lists: tuple[str, ...] = (), dicts: tuple[str, ...] = ()) -> Any:
    """A function copying a slotted row of `cls`: its fields read in one C call, its `lists` / `dicts`
    (which the fold appends to or sets keys of) copied one level down."""
    names = tuple(cls.__slots__)  # type: ignore[attr-defined]
    read = attrgetter(*names)
    list_at = tuple(names.index(n) for n in lists)
    dict_at = tuple(names.index(n) for n in dicts)

    def copy_row(row: R) -> R:
        values = list(read(row))
        for i in list_at:
            values[i] = list(values[i])
        for i in dict_at:
            values[i] = dict(values[i])
        return cls(*values)

    return copy_row


_copy_node = _row_copier(NodeRow, lists=("span_ids",))
_copy_span = _row_copier(SpanRow, lists=("children",), dicts=("attrs",))
_copy_call = _row_copier(CallRow, lists=("chunks", "retries"), dicts=("response",))
_copy_question = _row_copier(HumanQuestion)
_copy_usage = _row_copier(ModelUsage)


class OpenRows(NamedTuple):
    """The span and call rows of a projection that the fold may still write (the rest a copy shares)."""

    spans: tuple[str, ...]
    calls: tuple[str, ...]


def open_rows(p: RunProjection) -> OpenRows:
    """`p`'s rows a copy must copy: worked out once for a projection that is never folded again (a checkpoint),
    then each `clone_projection(p, open_rows(p))` copies those and shares the rest in one C-level dict copy."""
    return OpenRows(tuple(k for k, row in p.span_table.spans.items() if not _span_closed(row)),
                    tuple(k for k, row in p.calls.items() if not row.finished))


def clone_projection(p: RunProjection, known_open: OpenRows | None = None) -> RunProjection:
    """A copy of `p` that folds on independently of it (its pending changes not carried over); `known_open`:
    `open_rows(p)`, when `p` has not been folded since (its rows are not looked through again)."""
    c = copy(p)  # every attribute shared; the mutable ones are replaced below
    state = vars(c)
    for name in _SHALLOW:
        state[name] = copy(state[name])
    c.nodes = {k: _copy_node(row) for k, row in p.nodes.items()}
    table = SpanTable()
    opened = known_open if known_open is not None else open_rows(p)
    table.spans = spans = dict(p.span_table.spans)
    for k in opened.spans:
        spans[k] = _copy_span(spans[k])
    table.roots = list(p.span_table.roots)
    table.node_usage = {k: list(v) for k, v in p.span_table.node_usage.items()}
    c.span_table = table
    c.calls = calls = dict(p.calls)
    for k in opened.calls:
        calls[k] = _copy_call(calls[k])
    usage = p.usage
    c.usage = UsageSeries(list(usage.ts), list(usage.tokens), list(usage.cost_usd),
                          {k: _copy_usage(u) for k, u in usage.by_model.items()})
    c.questions = [_copy_question(q) for q in p.questions]
    c.changes = ProjectionChanges()
    return c


def _span_closed(span: SpanRow) -> bool:
    """Whether the fold never writes `span` again: a finished call, or a node execution that is done."""
    if span.end_ts is None:
        return False
    return span.kind in ("llm", "tool") or (span.kind == "node" and span.status == "done")
