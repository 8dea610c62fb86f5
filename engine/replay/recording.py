"""A run's recording, indexed for replay: every model call, tool call, memory read and human answer
by its structural key (`engine.replay.keys`), built once from the run's stored events.

Invariants: built from the events alone (what the trace store kept exactly as streamed); a model
call keeps the recorded request (to hash and to say what differs), what streamed within its span in
order (deltas, stream restarts, gateway retries: replayed through the same callback), and how it
ended (the response, or the error type a node-level retry reacts to); keys count positions in seq
order, the order the calls were made in — which is the order a replay makes them in; the seq of each
thing a call or a tool handed on (every streamed item, the end) is kept, for a strict replay to hand it
on at the same point of the stream (`engine.replay.clock.Sequencer`), and every event's clock readings
by its place (`RecordedClock`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine import events as ev
from engine.replay.clock import RecordedClock
from engine.replay.keys import KeyCounter, request_hash, structure_of, tool_structure


@dataclass(slots=True)
class RecordedLLM:
    key: str
    node_id: str
    request: dict[str, Any]
    hash: str
    started_seq: int
    stream: list[tuple[str, Any]] = field(default_factory=list)  # ("delta", text) / ("restart", n) / ("retry", …)
    stream_seqs: list[int] = field(default_factory=list)  # the seq of each item of `stream`
    response: dict[str, Any] | None = None
    error: str | None = None
    error_type: str | None = None
    finished_seq: int = 0


@dataclass(slots=True)
class RecordedTool:
    key: str
    node_id: str
    tool: str
    arguments: Any
    result: Any = None
    error: str | None = None
    finished: bool = False
    finished_seq: int = 0


@dataclass(slots=True)
class Recording:
    run_id: str
    started: ev.RunStarted | None = None
    llm: dict[str, RecordedLLM] = field(default_factory=dict)
    tools: dict[str, RecordedTool] = field(default_factory=dict)
    memory_reads: dict[tuple[str, str, str], list[Any]] = field(default_factory=dict)
    human: dict[str, list[ev.HumanDecisionMade]] = field(default_factory=dict)
    finished: ev.RunFinished | None = None
    clock: RecordedClock = field(default_factory=RecordedClock)

    @classmethod
    def from_events(cls, run_id: str, events: Iterable[ev.Event]) -> Recording:
        rec = cls(run_id)
        llm_keys, tool_keys = KeyCounter(), KeyCounter()
        by_span: dict[str, RecordedLLM] = {}
        tool_spans: dict[str, RecordedTool] = {}
        for e in events:
            rec.clock.note(e)
            kind = type(e)
            if kind is ev.LLMTokenDelta:
                call = by_span.get(e.span_id or "")
                if call is not None:
                    call.stream.append(("delta", e.text))  # type: ignore[attr-defined]
                    call.stream_seqs.append(e.seq)
            elif kind is ev.LLMCallStarted:
                assert isinstance(e, ev.LLMCallStarted)
                meta = e.request.get("metadata") or {}
                key = llm_keys.next(structure_of(str(meta.get("node_id", e.node_id)), meta))
                call = RecordedLLM(key, e.node_id, e.request, request_hash(e.request), e.seq)
                rec.llm[key] = by_span[e.span_id or ""] = call
            elif kind is ev.LLMCallFinished:
                assert isinstance(e, ev.LLMCallFinished)
                call = by_span.get(e.span_id or "")
                if call is not None:
                    call.response = dict(e.response) if e.response and e.error is None else None
                    call.error, call.error_type, call.finished_seq = e.error, e.error_type, e.seq
            elif kind is ev.LLMStreamRestarted:
                assert isinstance(e, ev.LLMStreamRestarted)
                if (call := by_span.get(e.span_id or "")) is not None:
                    call.stream.append(("restart", e.attempt))
                    call.stream_seqs.append(e.seq)
            elif kind is ev.LLMCallRetrying:
                assert isinstance(e, ev.LLMCallRetrying)
                if (call := by_span.get(e.span_id or "")) is not None:
                    call.stream.append(("retry", (e.attempt, e.error_type, e.error, e.delay_s)))
                    call.stream_seqs.append(e.seq)
            elif kind is ev.ToolCallStarted:
                assert isinstance(e, ev.ToolCallStarted)
                key = tool_keys.next(tool_structure(e.tool, e.arguments))
                rec.tools[key] = tool_spans[e.span_id or ""] = RecordedTool(key, e.node_id, e.tool, e.arguments)
            elif kind is ev.ToolCallFinished:
                assert isinstance(e, ev.ToolCallFinished)
                if (tool := tool_spans.get(e.span_id or "")) is not None:
                    tool.result, tool.error, tool.finished, tool.finished_seq = e.result, e.error, True, e.seq
            elif kind is ev.MemoryRead:
                assert isinstance(e, ev.MemoryRead)
                rec.memory_reads.setdefault((e.memory, e.scope, e.key), []).append(e.value)
            elif kind is ev.HumanDecisionMade:
                assert isinstance(e, ev.HumanDecisionMade)
                rec.human.setdefault(e.node_id, []).append(e)
            elif kind is ev.RunStarted:
                assert isinstance(e, ev.RunStarted)
                rec.started = e
            elif kind is ev.RunFinished:
                assert isinstance(e, ev.RunFinished)
                rec.finished = e
        return rec
