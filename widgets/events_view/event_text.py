"""One line per event for the Events table: its node (named by the event or by its span) and a summary.

Pure functions of an event and the projection's span table; cheap (called per visible cell and once
per event when a text filter scans). Invariant: a summary is one line, at most `MAX_SUMMARY` characters.
"""

from __future__ import annotations

from typing import Any

from engine import events as ev
from engine.budget import kind_now, reason_now
from engine.projection import RunProjection
from engine.projection.rows import is_priced

MAX_SUMMARY = 240


def event_node(p: RunProjection, e: ev.Event) -> str:
    node = getattr(e, "node_id", None)
    if node:
        return str(node)
    if e.span_id is not None:
        span = p.span_table.spans.get(e.span_id)
        if span is not None and span.node_id:
            return span.node_id
    return ""


def short_span(span_id: str | None) -> str:
    """A span id without its run prefix ("<run id>:llm12" → "llm12")."""
    if not span_id:
        return ""
    return span_id.rsplit(":", 1)[-1]


def _short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def event_summary(e: ev.Event) -> str:
    text = _summary(e)
    text = text.replace("\n", " ⏎ ")
    return text if len(text) <= MAX_SUMMARY else text[: MAX_SUMMARY - 1] + "…"


def _summary(e: ev.Event) -> str:  # one case per event kind
    if isinstance(e, ev.LLMTokenDelta):
        return repr(e.text)
    if isinstance(e, ev.NodeStateChanged):
        extra = f" · round {e.round}" if e.round else ""
        detail = f" — {e.detail}" if e.detail else ""
        return f"{e.state} · attempt {e.attempt}{extra}{detail}"
    if isinstance(e, ev.LLMCallStarted):
        messages = e.request.get("messages") or []
        return f"{e.model} · {len(messages)} message{'s' * (len(messages) != 1)}"
    if isinstance(e, ev.LLMCallFinished):
        if e.error:
            return f"{e.model} · {e.error_type}: {e.error}"
        known = is_priced(e.cost_usd, e.tokens_in, e.tokens_out, e.response)
        cost = ("free" if e.cost_usd == 0 else f"${e.cost_usd:.6f}") if known else "price unknown"
        return f"{e.model} · {e.tokens_in} in / {e.tokens_out} out · {cost} · {e.latency_s * 1000:.0f} ms"
    if isinstance(e, ev.LLMCallRetrying):
        return f"attempt {e.attempt} after {e.delay_s:g} s · {e.error_type}: {e.error}"
    if isinstance(e, ev.LLMStreamRestarted):
        return f"stream restarted (attempt {e.attempt})"
    if isinstance(e, ev.ToolCallStarted):
        return f"{e.tool}({_short(e.arguments)})"
    if isinstance(e, ev.ToolCallFinished):
        return f"{e.tool} → {'error: ' + e.error if e.error else _short(e.result)}"
    if isinstance(e, ev.NodeOutput):
        return f"{e.port} = {_short(e.value)}"
    if isinstance(e, ev.VerdictIssued):
        return f"{e.decision} {e.subject_node_id} · score {e.score:g} · round {e.round} · {_short('; '.join(e.reasons), 60)}"
    if isinstance(e, ev.MemoryWritten):
        state = "admitted" if e.admitted else f"refused ({e.reason})"
        return f"{e.memory}/{e.scope}/{e.key} = {_short(e.value, 60)} · {state}"
    if isinstance(e, ev.MemoryRead):
        return f"{e.memory}/{e.scope}/{e.key} → {_short(e.value, 60)}"
    if isinstance(e, ev.PlanEmitted):
        return f"{len(e.tasks)} tasks" + (f" · replan {e.replan}" if e.replan else "")
    if isinstance(e, ev.RunStarted):
        return f"{e.workflow_name} · inputs {_short(e.inputs, 60)}"
    if isinstance(e, ev.RunPlanned):
        return f"{len(e.nodes)} nodes planned"
    if isinstance(e, ev.RunFinished):
        return f"{e.status} · {e.tokens_in + e.tokens_out} tokens · ${e.cost_usd:.4f}" + (
            f" · {reason_now(e.reason)}" if e.reason else "")
    if isinstance(e, ev.BudgetUpdated):
        return f"{e.tokens} tokens · ${e.cost_usd:.4f} · {e.elapsed_s:.1f} s"
    if isinstance(e, ev.BudgetExceeded):
        return f"{kind_now(e.budget)}: {e.actual:g} > {e.limit:g}"
    if isinstance(e, ev.HumanDecisionRequested):
        return _short(e.prompt)
    if isinstance(e, ev.HumanDecisionMade):
        return f"{e.decision} by {e.by}" + (f" · {e.reason}" if e.reason else "")
    if isinstance(e, ev.ErrorRaised):
        return f"{e.error_type}: {e.message}" + (" (recoverable)" if e.recoverable else "")
    if isinstance(e, ev.LogMessage):
        return f"[{e.level}] {e.message}"
    if isinstance(e, ev.ContractsChecked):
        return f"{len(e.results) - e.violated} of {len(e.results)} contracts hold" + (
            f" · {e.violated} violated" if e.violated else "")
    if isinstance(e, ev.RunPaused):
        return e.reason + (f" at {e.node_id}" if e.node_id else "")
    if isinstance(e, ev.RunResumed):
        return e.mode + (f" {e.node_id}" if e.node_id else "")
    return ""
