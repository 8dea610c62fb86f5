"""A realistic event stream of one planner → executors → critic run, for the trace store tests."""

from __future__ import annotations

import dataclasses

from engine import events as ev
from engine.store import TraceStore


class Stream:
    """Builds events of one run with increasing seq/ts."""

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.seq = 0
        self.events: list[ev.ev.Event] = []

    def add(self, cls: type[ev.ev.Event], **fields: object) -> ev.Event:
        self.seq += 1
        event = cls(run_id=self.run_id, seq=self.seq, ts=self.seq * 0.0137, **fields)  # type: ignore[arg-type]
        self.events.append(event)
        return event


def llm_call(s: Stream, node_id: str, node_span: str, span: str, text: str, *, model: str = "sim/default") -> None:
    request = {"model": model, "messages": [{"role": "user", "content": f"do {node_id}"}], "temperature": 0.0,
               "max_tokens": None, "tools": None, "api_base": None, "seed": 7, "metadata": {"node_id": node_id}}
    s.add(ev.LLMCallStarted, span_id=span, parent_id=node_span, node_id=node_id, model=model, request=request)
    for word in text.split(" "):
        s.add(ev.LLMTokenDelta, span_id=span, parent_id=node_span, text=word + " ")
    s.add(ev.LLMCallFinished, span_id=span, parent_id=node_span, node_id=node_id, model=model, content=text,
          tokens_in=12, tokens_out=len(text.split(" ")), cost_usd=0.0005, latency_s=0.2,
          response={"content": text, "model": model, "provider": "sim", "tokens_in": 12,
                    "tokens_out": len(text.split(" ")), "cost_usd": 0.0005, "latency_s": 0.2,
                    "finish_reason": "stop", "tool_calls": []})


def triad_run(run_id: str = "run-0001", *, workflow_id: str = "wf-triad", finish: bool = True) -> list[ev.ev.Event]:
    s = Stream(run_id)
    root = f"{run_id}/run"
    s.add(ev.RunStarted, span_id=root, workflow_id=workflow_id, workflow_name="Triad", workflow_hash="h" * 64,
          inputs={"goal": "write a haiku"}, settings={"seed": 7})
    for i, node in enumerate(["plan", "exec_a", "exec_b", "review"]):
        span = f"{run_id}/{node}"
        s.add(ev.NodeStateChanged, span_id=span, parent_id=root, node_id=node, state="queued")
        s.add(ev.NodeStateChanged, span_id=span, parent_id=root, node_id=node, state="running")
        llm_call(s, node, span, f"{span}/llm", f"output of {node} number {i} with a few words")
        if node == "plan":
            s.add(ev.PlanEmitted, span_id=span, parent_id=root, node_id=node,
                  tasks=[{"id": "t1", "title": "a"}, {"id": "t2", "title": "b", "depends_on": ["t1"]}])
        if node == "exec_a":
            s.add(ev.ToolCallStarted, span_id=f"{span}/tool", parent_id=span, node_id=node, tool="search",
                  arguments={"q": "haiku"})
            s.add(ev.ToolCallFinished, span_id=f"{span}/tool", parent_id=span, node_id=node, tool="search",
                  result=["r1", "r2"], latency_s=0.01)
            s.add(ev.MemoryWritten, span_id=span, parent_id=root, node_id=node, memory="notes", scope="workflow",
                  key="draft", value={"text": "first"}, admitted=True)
            s.add(ev.MemoryWritten, span_id=span, parent_id=root, node_id=node, memory="notes", scope="workflow",
                  key="draft", value={"text": "rejected"}, admitted=False, reason="critic said revise")
        out = s.add(ev.NodeOutput, span_id=span, parent_id=root, node_id=node, port="result", value=f"{node} done")
        if node == "review":
            s.add(ev.VerdictIssued, span_id=span, parent_id=root, node_id=node, subject_node_id="exec_a",
                  decision="approve", score=0.9, reasons=["fine"], claims=[{"claim": "x", "ok": True}],
                  round=1, artifact_seq=out.seq, judge_model="sim/critic")
        s.add(ev.NodeStateChanged, span_id=span, parent_id=root, node_id=node, state="done")
        s.add(ev.BudgetUpdated, span_id=root, tokens=20 * (i + 1), cost_usd=0.0005 * (i + 1), elapsed_s=i * 0.1)
    if finish:
        s.add(ev.RunFinished, span_id=root, status="succeeded", outputs={"result": "haiku"}, tokens_in=48,
              tokens_out=40, cost_usd=0.002, duration_s=1.5)
    return s.events


def write_all(store: TraceStore, events: list[ev.Event], **writer_kw: object) -> list[str]:
    """Append `events` through a writer, close it, and return its errors."""
    with store.writer(**writer_kw) as writer:  # type: ignore[arg-type]
        for event in events:
            writer.append(event)
    return writer.errors


def renumber(events: list[ev.Event]) -> list[ev.Event]:
    """The same events with seqs 1, 2, 3… in list order (a run's events are stored in seq order)."""
    return [dataclasses.replace(e, seq=i) for i, e in enumerate(events, start=1)]
