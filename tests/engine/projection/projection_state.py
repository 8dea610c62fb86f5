"""`projection_state(p)`: everything a `RunProjection` holds, as plain comparable values (tests only)."""

from __future__ import annotations

from typing import Any

from engine.projection import RunProjection


def projection_state(p: RunProjection) -> dict[str, Any]:
    state = {k: v for k, v in vars(p).items() if k not in ("changes", "span_table", "usage", "calls")}
    state["spans"] = dict(p.span_table.spans)
    state["roots"] = list(p.span_table.roots)
    state["node_usage"] = dict(p.span_table.node_usage)
    state["usage"] = (p.usage.ts, p.usage.tokens, p.usage.cost_usd, p.usage.by_model)
    state["calls"] = {k: (c.text, c.restarts, c.retries, c.finished, c.content, c.error, c.tokens_in,
                          c.tokens_out, c.cost_usd, c.seq) for k, c in p.calls.items()}
    return state
