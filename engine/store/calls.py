"""Recorded LLM and tool calls of a run, derived from its events (requests and responses by span).

A call is the `*CallStarted` / `*CallFinished` pair of one span id. `call_key` is computed from
the request as it was recorded (`engine.store.codec.call_key`): a lookup of calls by what was asked of
whom. Replay does not find calls by it (identical requests would share one answer, parallel calls
swap): `engine.replay` keys them by where in the graph they were made (`engine.replay.keys`). A call started again under the same span takes the later request; a call that never
finished has no response; a finished call whose start was not recorded has no request and no key.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.events import Event, LLMCallFinished, LLMCallStarted, ToolCallFinished, ToolCallStarted
from engine.store.codec import call_key
from engine.store.records import RecordedCall

_STARTED = (LLMCallStarted, ToolCallStarted)
_FINISHED = (LLMCallFinished, ToolCallFinished)


def fold_calls(events: Iterable[Event], run_id: str) -> list[RecordedCall]:
    """The run's recorded calls, in the order they started."""
    calls: dict[str, dict[str, Any]] = {}
    for e in events:
        if e.span_id is None:
            continue
        if isinstance(e, _STARTED):
            kind, name, request = (("llm", e.model, e.request) if isinstance(e, LLMCallStarted)
                                   else ("tool", e.tool, e.arguments))
            call = calls.setdefault(e.span_id, _empty(kind, e.node_id, name))
            call.update(call_key=_key(kind, name, request), kind=kind, node_id=e.node_id, name=name,
                        request=request, started_seq=e.seq)
        elif isinstance(e, _FINISHED):
            if isinstance(e, LLMCallFinished):
                kind, name, response, error_type = "llm", e.model, e.response, e.error_type
            else:
                kind, name, response, error_type = "tool", e.tool, e.result, None
            call = calls.setdefault(e.span_id, _empty(kind, e.node_id, name))
            call.update(response=response, error=e.error, error_type=error_type, finished_seq=e.seq)
    out = [RecordedCall(run_id=run_id, span_id=span_id, **call) for span_id, call in calls.items()]
    out.sort(key=lambda c: (c.started_seq is None, c.started_seq or 0, c.finished_seq or 0))
    return out


def _empty(kind: str, node_id: str, name: str) -> dict[str, Any]:
    return {"call_key": "", "kind": kind, "node_id": node_id, "name": name, "request": None, "response": None,
            "error": None, "error_type": None, "started_seq": None, "finished_seq": None}


def _key(kind: str, name: str, request: object) -> str:
    try:
        return call_key(kind, name, request)
    except (TypeError, ValueError, RecursionError):  # a request JSON cannot hold cannot be looked up
        return ""
