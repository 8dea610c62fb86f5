"""Finding the span under the pointer, and what its tooltip says.

Invariant: read-only over `SpanArrays` and the projection; a hit prefers the innermost (shortest)
span under the point, a call when the point is in the call band of the lane.
"""

from __future__ import annotations

import math

import numpy as np

from engine.projection import RunProjection
from widgets.timeline.colors import CALL_BOTTOM, CALL_TOP
from widgets.timeline.span_arrays import SpanArrays


def span_at(arrays: SpanArrays, t: float, y: float, now: float, tolerance: float) -> int | None:
    """Row index of the span drawn at time `t`, lane position `y` (`tolerance`: half a few pixels, in s)."""
    if arrays.count == 0 or y < 0 or math.isnan(t):
        return None
    lane = math.floor(y)
    n = arrays.count
    start, end = arrays.start[:n], arrays.ends(now)
    hits = np.flatnonzero((arrays.lane[:n] == lane) & (start - tolerance <= t) & (end + tolerance >= t))
    if len(hits) == 0:
        return None
    frac = y - lane
    calls = hits[arrays.kind[hits] >= 2]
    if len(calls) and CALL_TOP <= frac < CALL_BOTTOM:
        hits = calls
    elif len(hits) > len(calls):
        hits = hits[arrays.kind[hits] < 2]
    lengths = end[hits] - start[hits]
    return int(hits[int(np.argmin(lengths))])


def _fmt_s(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 120:
        return f"{seconds:.2f} s"
    return f"{int(seconds // 60)} min {seconds % 60:.0f} s"


def describe(projection: RunProjection, arrays: SpanArrays, row: int, now: float) -> str:
    span_id = arrays.span_ids[row]
    span = projection.span_table.spans.get(span_id)
    if span is None:
        return span_id
    lane_label = arrays.lane_labels[int(arrays.lane[row])]
    start = span.start_ts if span.start_ts is not None else 0.0
    open_ = span.end_ts is None
    duration = (now if open_ else span.end_ts or start) - start
    tokens_in, tokens_out, cost = projection.span_table.rolled_up(span)
    title = {"run": f"Run · {span.name}", "node": lane_label}.get(span.kind, f"{span.kind.upper()} · {span.name}")
    lines = [f"<b>{title}</b>"]
    if span.kind in ("llm", "tool"):
        lines.append(f"node: {lane_label}")
    lines.append(f"status: {span.status or '?'}{' (still open)' if open_ else ''}")
    lines.append(f"start: {start:.3f} s · duration: {_fmt_s(max(duration, 0.0))}")
    if span.kind == "node":
        lines.append(f"attempt {span.attrs.get('attempt', 1)} · round {span.attrs.get('round', 0)}")
        waited = sum(((now if math.isnan(w[2]) else w[2]) - w[1]) for w in arrays.waits
                     if int(w[0]) == int(arrays.lane[row]) and start <= w[1] <= (span.end_ts or now))
        if waited > 0:
            lines.append(f"waited for a person: {_fmt_s(waited)}")
    if span.kind != "tool":
        lines.append(f"tokens: {tokens_in:,} in · {tokens_out:,} out")
        lines.append(f"cost: {_cost(projection, span_id, span.kind, cost)}")
    retries = int(span.attrs.get("retries", 0) or 0)
    if retries:
        lines.append(f"retries: {retries} (last: {span.attrs.get('last_retry_error', '')})")
    return "<br>".join(lines)


def _cost(projection: RunProjection, span_id: str, kind: str, cost: float) -> str:
    if kind == "llm":
        call = projection.calls.get(span_id)
        if call is not None and call.finished and not call.priced:
            return "price unknown"
    return f"${cost:.6f}" if cost < 0.01 else f"${cost:.4f}"
