"""The attributes of each exported span, by kind: the run, a node execution, a model call, a tool call.

Input: rows of the run's `RunProjection`. Output: plain dicts of OpenTelemetry attribute values
(str, bool, int, float, or lists of str). Prompts, replies, tool arguments and results, and a
verdict's reasons are written only when `include_content` is set; usage, models, cost and status
always. Values are not scrubbed here: `spans.py` scrubs every string of the export in one place.
"""

from __future__ import annotations

import json
from typing import Any

from engine.events import VerdictIssued
from engine.export.otel import semconv as sc
from engine.projection import CallRow, NodeRow, RunProjection, SpanRow

Attributes = dict[str, Any]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)


def run_attributes(p: RunProjection, span: SpanRow) -> Attributes:
    attrs: Attributes = {
        sc.OPERATION: "invoke_workflow", sc.RUN_ID: p.run_id, sc.WORKFLOW_ID: p.workflow_id,
        sc.WORKFLOW_NAME: p.workflow_name, sc.WORKFLOW_HASH: p.workflow_hash, sc.RUN_STATUS: p.status,
        sc.INPUT_TOKENS: p.tokens_in or span.tokens_in, sc.OUTPUT_TOKENS: p.tokens_out or span.tokens_out,
        sc.COST_USD: p.cost_usd or span.cost_usd,
    }
    if p.reason:
        attrs[sc.RUN_REASON] = p.reason
    return attrs


def node_attributes(p: RunProjection, span: SpanRow, usage: tuple[int, int, float]) -> Attributes:
    node: NodeRow | None = p.nodes.get(span.node_id or "")
    attrs: Attributes = {
        sc.OPERATION: "invoke_agent", sc.AGENT_ID: span.node_id or span.span_id,
        sc.AGENT_NAME: node.title if node is not None else span.name, sc.NODE_STATE: span.status,
        sc.NODE_ATTEMPT: int(span.attrs.get("attempt", 1) or 1), sc.NODE_ROUND: int(span.attrs.get("round", 0) or 0),
        sc.INPUT_TOKENS: usage[0], sc.OUTPUT_TOKENS: usage[1], sc.COST_USD: usage[2],
    }
    if node is not None:
        attrs[sc.NODE_ROLE] = node.role
    return attrs


def chat_attributes(span: SpanRow, call: CallRow | None, include_content: bool) -> Attributes:
    request: dict[str, Any] = call.request if call is not None and isinstance(call.request, dict) else {}
    response = call.response if call is not None else {}
    requested = str(request.get("model") or span.name)
    attrs: Attributes = {
        sc.OPERATION: "chat", sc.REQUEST_MODEL: requested,
        sc.PROVIDER: sc.provider_name(str(response.get("provider") or ""), requested),
        sc.INPUT_TOKENS: span.tokens_in, sc.OUTPUT_TOKENS: span.tokens_out, sc.COST_USD: span.cost_usd,
    }
    if response.get("model"):
        attrs[sc.RESPONSE_MODEL] = str(response["model"])
    if response.get("finish_reason"):
        attrs[sc.FINISH_REASONS] = [str(response["finish_reason"])]
    for key, name in (("temperature", sc.REQUEST_TEMPERATURE), ("max_tokens", sc.REQUEST_MAX_TOKENS),
                      ("seed", sc.REQUEST_SEED)):
        if isinstance(request.get(key), int | float) and not isinstance(request.get(key), bool):
            attrs[name] = request[key]
    if span.attrs.get("retries"):
        attrs[sc.CALL_RETRIES] = int(span.attrs["retries"])
    if call is not None and call.error_type:
        attrs[sc.ERROR_TYPE] = call.error_type
    if include_content and call is not None:
        attrs[sc.INPUT_MESSAGES] = _json([_message(m) for m in request.get("messages") or []])
        if call.finished and not call.error:
            reply = {"role": "assistant", "parts": [{"type": "text", "content": call.content}],
                     "finish_reason": str(response.get("finish_reason") or "stop")}
            attrs[sc.OUTPUT_MESSAGES] = _json([reply])
    return attrs


def _message(message: Any) -> dict[str, Any]:
    """A recorded chat message in the convention's shape: role and a list of parts."""
    if not isinstance(message, dict):
        return {"role": "user", "parts": [{"type": "text", "content": str(message)}]}
    content = message.get("content")
    parts = [{"type": "text", "content": content}] if isinstance(content, str) else content or []
    return {"role": str(message.get("role") or "user"), "parts": parts}


def tool_attributes(span: SpanRow, call: CallRow | None, include_content: bool) -> Attributes:
    attrs: Attributes = {sc.OPERATION: "execute_tool", sc.TOOL_NAME: span.name, sc.TOOL_TYPE: "function"}
    if call is not None and call.error:
        attrs[sc.ERROR_TYPE] = "ToolError"
    if include_content and call is not None:
        attrs[sc.TOOL_ARGUMENTS] = _json(call.request or {})
        if call.finished and not call.error:
            attrs[sc.TOOL_RESULT] = _json(call.result)
    return attrs


def evaluation_attributes(p: RunProjection, verdict: VerdictIssued, include_content: bool) -> Attributes:
    judge = p.nodes.get(verdict.node_id)
    attrs: Attributes = {
        sc.EVALUATION_NAME: judge.title if judge is not None else verdict.node_id,
        sc.EVALUATION_SCORE: float(verdict.score), sc.EVALUATION_LABEL: verdict.decision,
        sc.VERDICT_JUDGE: verdict.node_id, sc.VERDICT_ROUND: verdict.round,
    }
    if verdict.judge_model:
        attrs[sc.VERDICT_JUDGE_MODEL] = verdict.judge_model
    if include_content and verdict.reasons:
        attrs[sc.EVALUATION_EXPLANATION] = "; ".join(str(r) for r in verdict.reasons)
    return attrs
