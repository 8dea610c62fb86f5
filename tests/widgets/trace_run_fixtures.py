"""Real runs for the Trace, Call inspector and Events panel tests: a bundled example run offline on the
simulated provider, recorded in a throwaway store, with its projection (whole, or fed batch by batch)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from engine.events import Event
from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.projection import RunProjection
from engine.runtime import compile_workflow
from engine.runtime.launch import follow, start_run
from engine.store.store import TraceStore

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "resources" / "examples"
EXAMPLES = ("triad", "research", "code_fix", "text_to_sql", "hanoi", "tools")


@dataclass
class RecordedRun:
    projection: RunProjection
    batches: list[list[Event]]
    store: TraceStore
    run_id: str


def record_example(name: str, db: Path, *, sim: dict[str, dict[str, object]] | None = None) -> RecordedRun:
    """Run example `name` to its end on the simulated provider (`sim`: node id → the simulated provider's
    settings for that node, e.g. injected faults); its projection, batches and store."""
    wf = load_workflow(EXAMPLES_DIR / f"{name}.triadic.json")
    for node_id, settings in (sim or {}).items():
        wf.nodes[node_id].params["sim"] = {**(wf.nodes[node_id].params.get("sim") or {}), **settings}
    plan = compile_workflow(wf, base_dir=EXAMPLES_DIR)
    store = TraceStore(db)
    batches: list[list[Event]] = []

    async def go() -> RunProjection:
        run = start_run(plan, store=store, gateway=SimGateway())
        projection = RunProjection()
        await follow(run, projection, on_batch=lambda b: batches.append(list(b)))
        return projection

    projection = asyncio.run(go())
    return RecordedRun(projection, batches, store, projection.run_id)


def synthetic_events(executions: int = 5_000, nodes: int = 200, deltas: int = 15,
                     run_id: str = "synthetic") -> list[Event]:
    """A finished run of `executions` node executions over `nodes` nodes, each with one streamed model
    call (`deltas` token deltas), its output, and every 5th a verdict and a memory write: about
    (deltas + 7) events an execution — 5,000 executions ≈ 100,000 events."""
    from engine import events as ev

    out: list[Event] = []
    seq = 0

    def add(cls: type[Event], **kw: object) -> None:
        nonlocal seq
        seq += 1
        out.append(cls(run_id=run_id, seq=seq, ts=seq * 0.0001, **kw))  # type: ignore[arg-type]

    run_span = f"{run_id}:run"
    add(ev.RunStarted, span_id=run_span, workflow_id="wf", workflow_name="Synthetic", workflow_hash="h")
    add(ev.RunPlanned, span_id=run_span, nodes=[[f"n{i}", f"Node {i}", "executor"] for i in range(nodes)])
    for x in range(executions):
        node = f"n{x % nodes}"
        span, call = f"{run_id}:node{x}", f"{run_id}:llm{x}"
        rnd = x // nodes
        add(ev.NodeStateChanged, span_id=span, parent_id=run_span, node_id=node, state="running", round=rnd)
        add(ev.LLMCallStarted, span_id=call, parent_id=span, node_id=node, model="sim/gpt-4o-mini",
            request={"model": "sim/gpt-4o-mini", "messages": [{"role": "user", "content": f"task {x}"}]})
        for d in range(deltas):
            add(ev.LLMTokenDelta, span_id=call, parent_id=span, text=f"word{d} ")
        add(ev.LLMCallFinished, span_id=call, parent_id=span, node_id=node, model="sim/gpt-4o-mini",
            content="".join(f"word{d} " for d in range(deltas)), tokens_in=20, tokens_out=deltas,
            cost_usd=0.00001, latency_s=0.01, response={"priced": True})
        add(ev.NodeOutput, span_id=span, parent_id=run_span, node_id=node, port="result", value=f"result {x}")
        if x % 5 == 0:
            add(ev.VerdictIssued, span_id=span, parent_id=run_span, node_id=node, subject_node_id=node,
                decision="approve", score=0.9, reasons=["fine"], round=rnd)
            add(ev.MemoryWritten, span_id=span, parent_id=run_span, node_id=node, memory="m", scope="run",
                key=f"k{x}", value=x)
        add(ev.NodeStateChanged, span_id=span, parent_id=run_span, node_id=node, state="done", round=rnd)
    add(ev.RunFinished, span_id=run_span, status="succeeded", tokens_in=20 * executions,
        tokens_out=deltas * executions, cost_usd=0.00001 * executions, duration_s=seq * 0.0001)
    return out


_RECORDED: dict[str, RecordedRun] = {}


def recorded(name: str, tmp_root: Path) -> RecordedRun:
    """Example `name` run once per test session (the runs are deterministic on the simulated provider)."""
    if name not in _RECORDED:
        _RECORDED[name] = record_example(name, tmp_root / f"{name}.db")
    return _RECORDED[name]
