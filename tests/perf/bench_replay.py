"""Benchmark of re-running a run from its recording against running it live, on every bundled example.

Figures (JSON lines, medians over rounds that interleave live and replay so load drift hits both):
- `replay_vs_live_<example>`: wall time of a live run on the simulated provider with its latency on
  (time to first token + streaming pace below) and of its re-run from the recording (reading the
  recording from the store, compiling the recorded version, serving every call, storing the new run);
  `value` is the speed-up (target ≥ 10×); `byte_identical` says whether every replay's events equal
  the recording's byte for byte (`engine.replay.identity`: run id and lineage aside) — the replay keeps
  the recorded order and clock, however fast it runs;
- `replay_node_overhead_<example>`: the engine's own cost per node execution with the provider's
  latency off — live (simulated provider, zero latency) and replayed — in µs per node execution.
- `determinism_hanoi_n5`: the determinism check of the hanoi example, N = 5 live runs, each with its own
  seed (the simulated provider's variation): the lowest share of runs per node that gave the most
  common output, and the check's wall time.
The machine's load average is printed beside each figure.

Run: `.venv/bin/python -m tests.perf.bench_replay`
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import events as ev
from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.llm.sim.config import SimConfig
from engine.replay import load_source, prepare_replay, start_replay
from engine.replay.identity import first_difference
from engine.runtime import Run, compile_workflow
from engine.store import TraceStore

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
NAMES = ("triad", "research", "code_fix", "text_to_sql", "hanoi", "tools")
LATENCY = SimConfig(latency_ms=150.0, tokens_per_s=300.0)  # a fast hosted model
ROUNDS = 3


def _emit(name: str, value: float, unit: str, **extra: Any) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit, "load": os.getloadavg()[0],
                      "loadavg": Path("/proc/loadavg").read_text().strip(), **extra}), flush=True)


async def _live(store: TraceStore, name: str, sim: SimConfig) -> tuple[float, str, int]:
    t0 = time.perf_counter()
    plan = compile_workflow(load_workflow(EXAMPLES / f"{name}.triadic.json"), base_dir=EXAMPLES)
    run = Run(plan, gateway=SimGateway(sim=sim), store=store)
    result = await run.wait()
    assert result.status == "succeeded", result.reason
    nodes = sum(1 for e in run.hub.history if isinstance(e, ev.NodeStateChanged) and e.state == "running")
    return time.perf_counter() - t0, result.run_id, nodes


async def _replay(store: TraceStore, run_id: str) -> tuple[float, bool]:
    t0 = time.perf_counter()
    setup = prepare_replay(load_source(store, run_id), base_dir=EXAMPLES)
    result = await start_replay(setup, store).wait()
    seconds = time.perf_counter() - t0
    assert result.status == "succeeded" and setup.gateway.live_calls == 0, result.reason
    identical = first_difference(store.iter_events(run_id), store.iter_events(result.run_id)) is None
    return seconds, identical


async def bench(store: TraceStore, name: str) -> None:
    live, replayed, bare, bare_replayed = [], [], [], []
    identical: list[bool] = []
    nodes = 1
    for _ in range(ROUNDS):
        seconds, run_id, nodes = await _live(store, name, LATENCY)
        live.append(seconds)
        replay_s, same = await _replay(store, run_id)
        replayed.append(replay_s)
        identical.append(same)
        seconds, run_id, nodes = await _live(store, name, SimConfig())
        bare.append(seconds)
        replay_s, same = await _replay(store, run_id)
        bare_replayed.append(replay_s)
        identical.append(same)
    lm, rm = statistics.median(live), statistics.median(replayed)
    _emit(f"replay_vs_live_{name}", lm / rm, "x faster", live_s=round(lm, 3), replay_s=round(rm, 3),
          target=10, latency_ms=LATENCY.latency_ms, tokens_per_s=LATENCY.tokens_per_s,
          byte_identical=all(identical))
    bm, brm = statistics.median(bare), statistics.median(bare_replayed)
    _emit(f"replay_node_overhead_{name}", brm / nodes * 1e6, "us/node", live_us_per_node=round(bm / nodes * 1e6, 1),
          node_executions=nodes, note="provider latency off; replay includes reading the recording")


async def determinism(store: TraceStore, n: int = 5) -> None:
    from engine.compare.determinism import consistency, repeat

    plans = []
    for seed in range(n):
        wf = load_workflow(EXAMPLES / "hanoi.triadic.json")
        wf.settings.seed = seed
        plans.append(compile_workflow(wf, base_dir=EXAMPLES))
    t0 = time.perf_counter()
    rows = consistency(await repeat(plans, gateway=SimGateway(), store=store))
    seconds = time.perf_counter() - t0
    worst = min(rows, key=lambda row: row.exact_share)
    _emit("determinism_hanoi_n5", worst.exact_share * 100, "% identical (worst node)", node=worst.node_id,
          wall_s=round(seconds, 3), per_node={row.node_id: f"{row.exact}/{row.runs}" for row in rows})


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, TraceStore(Path(tmp) / "t.db") as store:
        for name in NAMES:
            asyncio.run(bench(store, name))
        asyncio.run(determinism(store))


if __name__ == "__main__":
    main()
