"""What the Call inspector writes for one call: role-coloured messages, the parameters, the summary line,
retries and errors, tool calls in the reply, and the call as one JSON document ("Copy as JSON").

Pure functions of a `CallRow` (no Qt widgets); HTML is escaped. Invariant: nothing here adds a key or
header to what it shows — the request and response records are already key-free (engine invariant).
"""

from __future__ import annotations

import html
import json
from typing import Any

from engine.projection import CallRow
from widgets.trace.trace_format import fmt_cost, fmt_duration

# role → (light colour, dark colour)
_ROLE_COLOURS = {
    "system": ("#7b3fbf", "#c49bff"),
    "user": ("#1f6fd1", "#6cb0ff"),
    "assistant": ("#1e8e3e", "#6fdc8c"),
    "tool": ("#b35c00", "#ffb35c"),
}
MAX_SHOWN_CHARS = 200_000  # of one message in the conversation view
PARAMETERS = ("model", "temperature", "max_tokens", "seed", "api_base", "timeout_s", "response_format", "stop")


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "\n".join(p.get("text", _json(p)) if isinstance(p, dict) else str(p) for p in content)
    return "" if content is None else _json(content)


def messages_html(call: CallRow, dark: bool) -> str:
    """The exact messages sent (an LLM call), or the arguments (a tool call), as HTML."""
    if call.kind == "tool":
        return _block("arguments", _json(call.request if call.request is not None else {}), "#b35c00", dark)
    request = call.request if isinstance(call.request, dict) else {}
    parts = []
    for message in request.get("messages") or []:
        if not isinstance(message, dict):
            parts.append(_block("message", _json(message), None, dark))
            continue
        role = str(message.get("role", "?"))
        colour = _ROLE_COLOURS.get(role, ("#555555", "#bbbbbb"))[1 if dark else 0]
        text = _content_text(message.get("content"))
        extra = {k: v for k, v in message.items() if k not in ("role", "content")}
        if extra:
            text = (text + "\n" if text else "") + _json(extra)
        parts.append(_block(role, text, colour, dark))
    return "".join(parts) or "<i>no messages recorded</i>"


def _block(title: str, text: str, colour: str | None, dark: bool) -> str:
    colour = colour or ("#bbbbbb" if dark else "#555555")
    if len(text) > MAX_SHOWN_CHARS:  # a rich-text view of megabytes stalls the window: the rest is in JSON / copy
        more = len(text) - MAX_SHOWN_CHARS
        text = f"{text[:MAX_SHOWN_CHARS]}\n… {more:,} more characters (the JSON tab and Copy as JSON hold all of it)"
    return (f'<p style="margin:10px 0 2px 0"><span style="color:{colour};font-weight:bold">'
            f'{html.escape(title.upper())}</span></p>'
            f'<pre style="white-space:pre-wrap;margin:0 0 0 8px">{html.escape(text)}</pre>')


def summary_line(call: CallRow) -> str:
    bits = []
    if call.finished:
        bits.append(f"latency {fmt_duration(call.latency_s)}")
    else:
        bits.append("running")
    if call.kind == "llm":
        bits.append(f"tokens {call.tokens_in:,} in / {call.tokens_out:,} out")
        if call.finished:
            bits.append(fmt_cost(call.cost_usd, priced=call.priced) or "$0 (free)")
    if call.retries:
        bits.append(f"{len(call.retries)} retr{'y' if len(call.retries) == 1 else 'ies'}")
    if call.restarts:
        bits.append(f"stream restarted {call.restarts}×")
    if call.error:
        bits.append(f"error: {call.error_type or 'Error'}")
    return " · ".join(bits)


def details_html(call: CallRow) -> str:
    """Parameters, tools offered, retries (error and wait), the error, tool calls in the reply."""
    request = call.request if isinstance(call.request, dict) else {}
    out = [f"<h4>{'Parameters' if call.kind == 'llm' else 'Tool'}</h4><table cellspacing='4'>"]
    rows: list[tuple[str, Any]] = [("node", call.node_id), ("span", call.span_id)]
    if call.kind == "llm":
        rows += [(name, request.get(name)) for name in PARAMETERS if name in request]
        rows.append(("tools", ", ".join(_tool_names(request.get("tools"))) or "none"))
        if call.response:
            rows += [(k, call.response.get(k)) for k in ("provider", "finish_reason") if k in call.response]
    else:
        rows.append(("tool", call.name))
    out += [f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape('null' if v is None else str(v))}</td></tr>"
            for k, v in rows]
    out.append("</table>")
    if call.retries:
        out.append("<h4>Retries</h4><table cellspacing='4'><tr><th>attempt</th><th>error</th><th>wait</th></tr>")
        for retry in call.retries:
            said = html.escape(f"{retry.get('error_type')}: {retry.get('error')}")
            wait = float(retry.get("delay_s") or 0)
            out.append(f"<tr><td>{retry.get('attempt')}</td><td>{said}</td><td>{wait:g} s</td></tr>")
        out.append("</table>")
    if call.error:
        said = html.escape(f"{call.error_type or 'Error'}: {call.error}")
        out.append(f"<h4>Error</h4><pre style='white-space:pre-wrap'>{said}</pre>")
    tool_calls = call.response.get("tool_calls") if call.response else None
    if tool_calls:
        out.append(f"<h4>Tool calls in the reply</h4><pre style='white-space:pre-wrap'>{html.escape(_json(tool_calls))}</pre>")
    return "".join(out)


def _tool_names(tools: Any) -> list[str]:
    names = []
    for tool in tools or []:
        if isinstance(tool, dict):
            inner = tool.get("function")
            function: dict[str, Any] = inner if isinstance(inner, dict) else tool
            names.append(str(function.get("name", "?")))
    return names


def call_record(call: CallRow) -> dict[str, Any]:
    """The call as one JSON-able record: its request and its response (or the tool's arguments and result)."""
    record: dict[str, Any] = {"span_id": call.span_id, "kind": call.kind, "node_id": call.node_id, "name": call.name}
    if call.kind == "llm":
        record["request"] = call.request
        record["response"] = call.response or {"content": call.text, "finished": call.finished}
        record["retries"] = call.retries
        record["stream_restarts"] = call.restarts
    else:
        record["arguments"] = call.request
        record["result"] = call.result
    if call.error:
        record["error"] = {"type": call.error_type, "message": call.error}
    record["latency_s"] = call.latency_s
    return record


def call_json(call: CallRow) -> str:
    return _json(call_record(call))
