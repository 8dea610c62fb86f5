"""What each cell of the Trace tree says for one span: name, status, start, duration, tokens, cost, retries.

Reads one span (and, for a node execution, its few direct children) from the projection; no state.
Invariants: a node execution reads "Title · round N · attempt N"; a call's cost whose price is unknown
reads "price unknown" (a node's or run's "+ price unknown" when some of its calls are unpriced); an
open span's duration runs on the clock given (`now`), a span that never ended in a finished run has
no duration and reads "interrupted" when the run was.
"""

from __future__ import annotations

from engine.projection import RunProjection, SpanRow
from widgets.trace.trace_format import fmt_cost, fmt_duration, fmt_offset, fmt_tokens

COLUMNS = ("Name", "Status", "Start", "Duration", "Tokens", "Cost", "Retries")
NAME, STATUS, START, DURATION, TOKENS, COST, RETRIES = range(len(COLUMNS))


def span_status(p: RunProjection, span: SpanRow) -> str:
    if span.end_ts is None and p.finished and span.status in ("running", "queued", "waiting", ""):
        return "interrupted" if p.status in ("interrupted", "cancelled", "failed") else span.status or "running"
    return span.status or "running"


def span_name(p: RunProjection, span: SpanRow) -> str:
    if span.kind == "run":
        return f"run · {span.name or p.workflow_name or p.run_id}"
    if span.kind == "node":
        row = p.nodes.get(span.node_id or "")
        parts = [row.title if row is not None and row.title else span.name or (span.node_id or "?")]
        round_ = int(span.attrs.get("round", 0) or 0)
        attempt = int(span.attrs.get("attempt", 1) or 1)
        if round_ > 0:
            parts.append(f"round {round_}")
        if round_ > 0 or attempt > 1:
            parts.append(f"attempt {attempt}")
        return " · ".join(parts)
    label = "model" if span.kind == "llm" else span.kind
    return f"{label} · {span.name}"


def unpriced(p: RunProjection, span: SpanRow) -> bool:
    """Whether some call in `span` has no known price (its cost is then partly unknown, never $0)."""
    if span.kind == "llm":
        call = p.calls.get(span.span_id)
        return call is not None and call.finished and (call.tokens_in or call.tokens_out) > 0 and not call.priced
    if span.kind == "node":
        calls = p.calls
        for child in span.children:
            call = calls.get(child)
            if call is not None and call.kind == "llm" and call.finished and not call.priced \
                    and (call.tokens_in or call.tokens_out):
                return True
        return False
    if span.kind == "run":
        return any(row.unpriced_calls for row in p.nodes.values())
    return False


def usage(p: RunProjection, span: SpanRow) -> tuple[int, int, float]:
    """Tokens in, out and cost of `span` (a node execution's including its calls; the run's so far)."""
    if span.kind == "run" and span.end_ts is None and len(p.span_table.roots) == 1:
        return p.tokens_in, p.tokens_out, p.cost_usd
    return p.span_table.rolled_up(span)


def duration(span: SpanRow, now: float | None) -> float | None:
    if span.start_ts is None:
        return None
    if span.end_ts is not None:
        return max(0.0, span.end_ts - span.start_ts)
    return None if now is None else max(0.0, now - span.start_ts)


def retries(p: RunProjection, span: SpanRow) -> int:
    count = int(span.attrs.get("retries", 0) or 0)
    call = p.calls.get(span.span_id) if span.kind == "llm" else None
    return count + (call.restarts if call is not None else 0)


def cell_text(p: RunProjection, span: SpanRow, column: int, now: float | None) -> str:
    if column == NAME:
        return span_name(p, span)
    if column == STATUS:
        return span_status(p, span)
    if column == START:
        return fmt_offset(span.start_ts)
    if column == DURATION:
        return fmt_duration(duration(span, now))
    if column == TOKENS:
        tokens_in, tokens_out, _ = usage(p, span)
        return fmt_tokens(tokens_in + tokens_out)
    if column == COST:
        return fmt_cost(usage(p, span)[2], priced=not unpriced(p, span))
    if column == RETRIES:
        count = retries(p, span)
        return str(count) if count else ""
    return ""


def cell_tooltip(p: RunProjection, span: SpanRow, column: int) -> str | None:
    if column == TOKENS:
        tokens_in, tokens_out, _ = usage(p, span)
        return f"{tokens_in:,} in / {tokens_out:,} out" if tokens_in or tokens_out else None
    if column == RETRIES:
        lines = []
        call = p.calls.get(span.span_id)
        if call is not None:
            lines = [f"attempt {r['attempt']}: {r['error_type']}: {r['error']} (waited {r['delay_s']:g} s)"
                     for r in call.retries]
            if call.restarts:
                lines.append(f"stream restarted {call.restarts}×")
        return "\n".join(lines) or None
    if column in (NAME, STATUS):
        bits = [f"{span.kind} span {span.span_id}"]
        if span.node_id:
            bits.append(f"node {span.node_id}")
        row = p.nodes.get(span.node_id or "") if span.kind == "node" else None
        if row is not None and row.error and span.status == "failed":
            bits.append(f"error: {row.error}")
        call = p.calls.get(span.span_id)
        if call is not None and call.error:
            bits.append(f"error: {call.error_type or 'Error'}: {call.error}")
        return "\n".join(bits)
    return None
