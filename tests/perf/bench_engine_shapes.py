"""Per-node cost of the engine on awkward graph shapes, against LangGraph, interleaved in rounds.

Shapes (engine.graph.shapes): a 1,000-executor chain and fan, a lattice of 25 layers × 40 (each node
fed by two of the layer before), a binary fan-out tree of depth 9 with its mirrored fan-in, and 300
executor → critic pairs whose verdicts loop back (each critic asks for one revision, so every loop
turns once). The model is zero-latency and in-process (tests/perf/shape_model.py); a "node" is one
node execution (one model call), re-runs included, so the figure is µs per node execution.

Contenders, each run once per round in the same order so load drift hits all of them alike:
Triadic recording every event to SQLite through the trace store (committed before `wait()` returns),
Triadic without recording, LangGraph with no checkpointer, LangGraph with its SQLite checkpointer
(`langgraph-checkpoint-sqlite`, a fresh database per run). Compiling is timed apart (`compile_ms`).
Each line gives the medians over rounds and the median of the per-round ratios (peer / Triadic
recording), with the machine's load average beside them.

Run: `.venv/bin/python -m tests.perf.bench_engine_shapes` (`ROUNDS=n`, `SHAPES=lattice,tree` to narrow).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from engine.graph.shapes import Shape, chain, critic_pairs, fan, lattice, shape_workflow, tree
from engine.runtime import Run, RunPlan, compile_workflow
from tests.perf.langgraph_shapes import shape_graph
from tests.perf.shape_model import ShapeModel

SHAPES: dict[str, Callable[[], Shape]] = {
    "chain": lambda: chain(1000), "fan": lambda: fan(1000), "lattice": lambda: lattice(25, 40),
    "tree": lambda: tree(9), "critic_pairs": lambda: critic_pairs(300),
}
Once = Callable[[ShapeModel, Path], Awaitable[float]]


def _triadic(plan: RunPlan, record: bool) -> Once:
    async def once(model: ShapeModel, db: Path) -> float:
        from engine.store import TraceStore

        store = TraceStore(db) if record else None
        started = time.perf_counter()
        result = await Run(plan, gateway=model, store=store).wait()
        elapsed = time.perf_counter() - started
        assert result.status == "succeeded", result.reason
        if store is not None:
            store.close()
        return elapsed

    return once


def _langgraph(graph: Any, sqlite: bool) -> Once:
    async def once(model: ShapeModel, db: Path) -> float:
        config = {"recursion_limit": 100_000, "configurable": {"thread_id": "bench"}}
        if not sqlite:
            app = graph.compile()
            started = time.perf_counter()
            await app.ainvoke({"value": "go"}, config)
            return time.perf_counter() - started
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

        async with AsyncSqliteSaver.from_conn_string(str(db)) as saver:
            app = graph.compile(checkpointer=saver)
            started = time.perf_counter()
            await app.ainvoke({"value": "go"}, config)
            return time.perf_counter() - started

    return once


def _compile_ms(build: Callable[[], Any]) -> float:
    started = time.perf_counter()
    build()
    return round((time.perf_counter() - started) * 1e3, 1)


async def _shape(name: str, rounds: int, tmp: Path) -> None:
    shape = SHAPES[name]()
    wf = shape_workflow(shape)
    compile_ms = _compile_ms(lambda: compile_workflow(wf))
    plan = compile_workflow(wf)
    model = ShapeModel()  # one for every contender (the peer's nodes hold it), its count reset per run
    contenders: dict[str, Once] = {"triadic": _triadic(plan, True), "triadic_no_recording": _triadic(plan, False)}
    peer_compile_ms = None
    try:
        graph = shape_graph(shape, model)
        peer_compile_ms = _compile_ms(graph.compile)
        contenders |= {"langgraph": _langgraph(graph, False), "langgraph_sqlite": _langgraph(graph, True)}
    except ImportError:
        pass
    for who in ("triadic", "triadic_no_recording"):  # warm-up, not counted: first imports, first store
        await contenders[who](model, tmp / f"{name}-warm-{who}.db")
    per_node: dict[str, list[float]] = {k: [] for k in contenders}
    calls: set[int] = set()
    cpu: list[float] = []
    loads = []
    for r in range(rounds):
        for who, once in contenders.items():
            model.calls = 0
            cpu_start = time.process_time()
            wall = await once(model, tmp / f"{name}-{who}-{r}.db")
            per_node[who].append(wall / model.calls * 1e6)
            calls.add(model.calls)
            if who == "triadic":
                cpu.append((time.process_time() - cpu_start) / model.calls * 1e6)
        loads.append(os.getloadavg()[0])
    assert len(calls) == 1, f"the contenders made different numbers of model calls: {calls}"
    mine = per_node["triadic"]
    line: dict[str, Any] = {
        "name": f"engine_shape_{name}", "value": round(statistics.median(mine), 1), "unit": "us/node",
        "recording": "sqlite", "calls": model.calls, "rounds": rounds, "cpu_us_per_node": round(statistics.median(cpu), 1),
        "no_recording": round(statistics.median(per_node["triadic_no_recording"]), 1),
        "compile_ms": compile_ms, "load_1min": round(statistics.median(loads), 2)}
    for peer in ("langgraph", "langgraph_sqlite"):
        if peer in per_node:
            line[peer] = round(statistics.median(per_node[peer]), 1)
            line[f"{peer}_ratio"] = round(statistics.median(p / m for p, m in zip(per_node[peer], mine, strict=True)), 2)
    if peer_compile_ms is not None:
        line["langgraph_compile_ms"] = peer_compile_ms
    print(json.dumps(line), flush=True)


async def _main() -> None:
    rounds = int(os.environ.get("ROUNDS", "3"))
    names = [s for s in os.environ.get("SHAPES", ",".join(SHAPES)).split(",") if s]
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            await _shape(name, rounds, Path(folder))


def main() -> None:
    asyncio.run(_main())


if __name__ == "__main__":
    main()
