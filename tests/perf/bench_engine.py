"""Benchmark of the runtime: per-node overhead, parallel efficiency, peak memory.

- Overhead per node (also without recording, to separate the engine from the store) on a 1,000-node chain and a 1,000-wide fan-out/fan-in of executors, with a
  zero-latency in-process model (one streamed delta per call) and every event recorded to SQLite
  through the trace store; the peer is LangGraph running the equivalent graph (one async node per
  executor calling the same model, no checkpointer) in the same process, reported as a ratio.
- Parallel efficiency: 64 executors fanned out at 100 ms simulated latency, concurrency 64
  (ideal wall time / measured wall time).
- Peak memory of a 10,000-node chain run with recording on (tracemalloc peak, and ru_maxrss).
- Compile time (validate + freeze into a RunPlan) of 5,000-node chain and fan workflows.

The overhead lines also carry `cpu_us_per_node`: CPU seconds of the whole process (engine and trace
writer thread) per node, which other load on a shared machine disturbs far less than wall time.

Figures are medians over repeats (with the fastest repeat beside them: `min_us_per_node`, `peer_min`). Run: `.venv/bin/python -m tests.perf.bench_engine`
"""

from __future__ import annotations

import asyncio
import json
import operator
import resource
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypedDict

from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.llm.types import LLMRequest, LLMResponse
from engine.runtime import Run, RunPlan, compile_workflow

REPEATS = 5
N = 1000


class InstantModel:
    """A zero-latency in-process provider (or `latency_s` of asyncio sleep)."""

    def __init__(self, latency_s: float = 0.0) -> None:
        self.latency_s = latency_s

    async def complete(self, request: LLMRequest, on_delta: Callable[[str], None] | None = None) -> LLMResponse:
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        if on_delta:
            on_delta("ok")
        return LLMResponse("ok", request.model, "bench", 3, 1)


def _workflow(n: int, shape: str) -> Workflow:
    wf = Workflow(f"{shape}-{n}", id=f"bench-{shape}-{n}")
    wf.settings.concurrency = n if shape == "fan" else 8
    add = wf.add_node
    add(Node("in", "input", params={"name": "goal", "default": "go"}, ui=NodeUi()))
    add(Node("out", "output", params={"name": "result"}, ui=NodeUi()))
    edges: list[tuple[str, str, str, str]] = []
    for i in range(n):
        add(Node(f"x{i}", "executor", params={"retries": 0}, ui=NodeUi(x=i)))
        if shape == "chain":
            edges.append(("in" if i == 0 else f"x{i - 1}", "value" if i == 0 else "result", f"x{i}", "task"))
        else:
            edges += [("in", "value", f"x{i}", "task"), (f"x{i}", "result", "join", "context")]
    if shape == "chain":
        edges.append((f"x{n - 1}", "result", "out", "value"))
    else:
        add(Node("join", "executor", params={"retries": 0}, ui=NodeUi()))
        edges += [("in", "value", "join", "task"), ("join", "result", "out", "value")]
    for k, (s, sp, t, tp) in enumerate(edges):
        wf.add_edge(Edge(f"e{k}", s, sp, t, tp))
    return wf


_CPU: list[float] = []  # process CPU seconds of each `_triadic_once`, in call order


async def _triadic_once(plan: RunPlan, gateway: InstantModel, db: Path | None) -> float:
    from engine.store import TraceStore

    store = TraceStore(db) if db else None
    cpu = time.process_time()
    started = time.perf_counter()
    result = await Run(plan, gateway=gateway, store=store).wait()
    elapsed = time.perf_counter() - started
    _CPU.append(time.process_time() - cpu)
    assert result.status == "succeeded", result.reason
    if store is not None:
        store.close()
    return elapsed


def _langgraph_app(n: int, shape: str, gateway: InstantModel) -> Any:
    from langgraph.graph import END, START, StateGraph

    class State(TypedDict):
        value: str
        results: Annotated[list[str], operator.add]

    def node(name: str) -> Callable[[State], Any]:
        async def run(state: State) -> dict[str, Any]:
            request = LLMRequest("sim/default", [{"role": "user", "content": state["value"]}])
            reply = await gateway.complete(request, lambda text: None)
            return {"value": reply.content} if shape == "chain" else {"results": [reply.content]}

        return run

    graph = StateGraph(State)
    for i in range(n):
        graph.add_node(f"x{i}", node(f"x{i}"))
    if shape == "chain":
        graph.add_edge(START, "x0")
        for i in range(1, n):
            graph.add_edge(f"x{i - 1}", f"x{i}")
        graph.add_edge(f"x{n - 1}", END)
    else:
        graph.add_node("join", node("join"))
        for i in range(n):
            graph.add_edge(START, f"x{i}")
        graph.add_edge([f"x{i}" for i in range(n)], "join")
        graph.add_edge("join", END)
    return graph.compile()


async def _langgraph_once(app: Any) -> float:
    started = time.perf_counter()
    await app.ainvoke({"value": "go", "results": []}, {"recursion_limit": 10 * N})
    return time.perf_counter() - started


def _emit(name: str, value: float, unit: str, **extra: Any) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit, **extra}), flush=True)


async def _overhead(shape: str, tmp: Path) -> None:
    plan = compile_workflow(_workflow(N, shape))
    gateway = InstantModel()
    nodes = len(plan.nodes)
    walls = [await _triadic_once(plan, gateway, tmp / f"{shape}{k}.db") for k in range(REPEATS)]
    cpu = round(statistics.median(_CPU[-REPEATS:]) / nodes * 1e6, 1)
    per_node, best = statistics.median(walls) / nodes * 1e6, round(min(walls) / nodes * 1e6, 1)
    bare_walls = [await _triadic_once(plan, gateway, None) for _ in range(REPEATS)]
    bare, bare_best = statistics.median(bare_walls) / nodes * 1e6, round(min(bare_walls) / nodes * 1e6, 1)
    bare_cpu = round(statistics.median(_CPU[-REPEATS:]) / nodes * 1e6, 1)
    try:
        app = _langgraph_app(N, shape, gateway)
    except ImportError:
        _emit(f"engine_overhead_{shape}_{N}_no_recording", bare, "us/node", recording="off", cpu_us_per_node=bare_cpu)
        _emit(f"engine_overhead_{shape}_{N}", per_node, "us/node", note="langgraph not installed: no peer figure",
              cpu_us_per_node=cpu)
        return
    peer_walls = [await _langgraph_once(app) for _ in range(REPEATS)]
    peer_per_node, peer_best = statistics.median(peer_walls) / nodes * 1e6, min(peer_walls) / nodes * 1e6
    _emit(f"engine_overhead_{shape}_{N}_no_recording", bare, "us/node", recording="off", peer="langgraph",
          peer_value=round(peer_per_node, 3), ratio=round(peer_per_node / bare, 2), cpu_us_per_node=bare_cpu,
          min_us_per_node=bare_best, peer_min=round(peer_best, 1))
    _emit(f"engine_overhead_{shape}_{N}", per_node, "us/node", peer="langgraph", peer_value=round(peer_per_node, 3),
          ratio=round(peer_per_node / per_node, 2), recording="sqlite", target="<= 50 us/node, >= 5x less",
          cpu_us_per_node=cpu, min_us_per_node=best, peer_min=round(peer_best, 1))


async def _efficiency(tmp: Path) -> None:
    plan = compile_workflow(_workflow(64, "fan"))
    latency = 0.1
    ideal = 2 * latency  # 64 parallel calls, then the join call
    for label, record in (("", True), ("_no_recording", False)):
        walls = [await _triadic_once(plan, InstantModel(latency), tmp / f"eff{k}.db" if record else None)
                 for k in range(REPEATS)]
        wall = statistics.median(walls)
        _emit(f"engine_parallel_efficiency_64x100ms{label}", ideal / wall, "ratio", wall_s=round(wall, 4),
              ideal_s=ideal, recording="sqlite" if record else "off", target=">= 0.95")


async def _memory(tmp: Path) -> None:
    plan = compile_workflow(_workflow(10_000, "chain"))
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    wall = await _triadic_once(plan, InstantModel(), tmp / "mem.db")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    _emit("engine_peak_memory_10000_nodes", peak / 2**20, "MiB", measure="tracemalloc peak during the run",
          max_rss_mib=round(rss / 1024, 1), rss_growth_mib=round((rss - base) / 1024, 1), wall_s=round(wall, 2))


def _compile() -> None:
    for shape in ("chain", "fan"):
        wf = _workflow(5000, shape)
        times = []
        for _ in range(3):
            started = time.perf_counter()
            compile_workflow(wf)
            times.append(time.perf_counter() - started)
        _emit(f"engine_compile_{shape}_5000", statistics.median(times) * 1e3, "ms",
              measure="validate + freeze a 5,000-node workflow into a RunPlan")


async def _main() -> None:
    _compile()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        await _overhead("chain", tmp)
        await _overhead("fan", tmp)
        await _efficiency(tmp)
        await _memory(tmp)


def main() -> None:
    asyncio.run(_main())


if __name__ == "__main__":
    main()
