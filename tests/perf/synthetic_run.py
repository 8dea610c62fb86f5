"""A synthetic run of the awkward shape the run views must hold: many lanes, interleaved executions.

`synthetic_run(run_id, executions=5_000, lanes=200)` returns the events of a finished run in seq order:
RunStarted, RunPlanned (every lane's node), then executions spread over the lanes and overlapping in
time (each: running, one LLM call with streamed deltas, done; every 4th a critic verdict on the
execution before it, looping back with "revise" now and then; every 10th a memory write, some refused;
every 25th a retried call; every 50th a failure), then RunFinished. About 20 events an execution, so
the default is ~100,000 events. Deterministic for the same arguments.
"""

from __future__ import annotations

from engine import events as ev

DELTAS = 15


def synthetic_run(run_id: str = "synthetic", *, executions: int = 5_000, lanes: int = 200,
                  deltas: int = DELTAS) -> list[ev.Event]:
    out: list[ev.Event] = []
    clock = [0.0]

    def add(cls: type[ev.Event], **fields: object) -> None:
        clock[0] += 0.0007
        out.append(cls(run_id=run_id, seq=len(out) + 1, ts=round(clock[0], 6), **fields))  # type: ignore[arg-type]

    root = f"{run_id}:run"
    add(ev.RunStarted, span_id=root, workflow_id="wf-synthetic", workflow_name="Synthetic", workflow_hash="cd" * 32,
        inputs={"goal": "stress the views"}, settings={"budget": {"max_tokens": 2_000_000, "max_cost_usd": 5.0}})
    roles = ("executor", "critic", "planner", "memory")
    add(ev.RunPlanned, span_id=root, nodes=[[f"n{i}", f"Node {i}", roles[i % 4]] for i in range(lanes)])
    tokens = cost = 0.0
    for x in range(executions):
        node, span, llm = f"n{x % lanes}", f"{run_id}:x{x}", f"{run_id}:x{x}:llm"
        add(ev.NodeStateChanged, span_id=span, parent_id=root, node_id=node, state="running", round=x // lanes % 3)
        add(ev.LLMCallStarted, span_id=llm, parent_id=span, node_id=node, model="sim/gpt-4o-mini",
            request={"model": "sim/gpt-4o-mini", "messages": [{"role": "user", "content": f"task {x}"}]})
        if x % 25 == 0:
            add(ev.LLMCallRetrying, span_id=llm, parent_id=span, attempt=2, error_type="RateLimitError",
                error="429 slow down", delay_s=0.5)
        for d in range(deltas):
            add(ev.LLMTokenDelta, span_id=llm, parent_id=span, text=f" word{d}")
        tokens += 40 + deltas
        cost += 0.00002
        add(ev.LLMCallFinished, span_id=llm, parent_id=span, node_id=node, model="sim/gpt-4o-mini",
            content="".join(f" word{d}" for d in range(deltas)), tokens_in=40, tokens_out=deltas, cost_usd=0.00002,
            latency_s=0.2, response={"priced": True})
        add(ev.NodeOutput, span_id=span, parent_id=root, node_id=node, port="result", value=f"answer {x}")
        if x % 4 == 3:
            add(ev.VerdictIssued, span_id=span, parent_id=root, node_id=node, subject_node_id=f"n{(x - 1) % lanes}",
                decision="revise" if x % 12 == 3 else "approve", score=0.5 + (x % 5) / 10,
                reasons=[f"reason {x}"], round=x // lanes % 3, artifact_seq=out[-1].seq)
        if x % 10 == 9:
            add(ev.MemoryWritten, span_id=span, parent_id=root, node_id=node, memory="notes", scope="run",
                key=f"k{x % 37}", value=f"note {x}", admitted=x % 30 != 29, reason="" if x % 30 != 29 else "gate: revise")
        if x % 50 == 49:
            add(ev.NodeStateChanged, span_id=span, parent_id=root, node_id=node, state="failed",
                detail="ProviderError: 500 upstream")
        else:
            add(ev.NodeStateChanged, span_id=span, parent_id=root, node_id=node, state="done")
        if x % 100 == 0:
            add(ev.BudgetUpdated, span_id=root, tokens=int(tokens), cost_usd=cost, elapsed_s=clock[0])
    add(ev.RunFinished, span_id=root, status="succeeded", tokens_in=40 * executions, tokens_out=deltas * executions,
        cost_usd=cost, duration_s=clock[0])
    return out
