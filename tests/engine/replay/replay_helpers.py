"""Helpers of the replay tests: record an example on the simulated provider into a store, replay it."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from engine import events as ev
from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.llm.types import DeltaCallback, LLMRequest, LLMResponse
from engine.replay import load_source, prepare_replay, start_replay
from engine.replay.gateway import Mode
from engine.runtime import Run, RunResult, compile_workflow
from engine.store import TraceStore

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
NAMES = ("triad", "research", "code_fix", "text_to_sql", "hanoi", "tools")


class NoProvider:
    """A gateway that fails the test if any request reaches it."""

    calls = 0

    async def complete(self, request: LLMRequest, on_delta: DeltaCallback | None = None) -> LLMResponse:
        NoProvider.calls += 1
        raise AssertionError(f"a provider call left the process: {request.metadata.get('node_id')}")


async def record(store: TraceStore, name: str, gateway: Any = None, **run_kw: Any) -> RunResult:
    wf = load_workflow(EXAMPLES / f"{name}.triadic.json")
    run = Run(compile_workflow(wf, base_dir=EXAMPLES), gateway=gateway or SimGateway(), store=store, **run_kw)
    return await run.wait()


async def replay(store: TraceStore, run_id: str, mode: Mode = "strict", live: Any = None) -> tuple[Run, RunResult]:
    setup = prepare_replay(load_source(store, run_id), mode=mode, live=live, base_dir=EXAMPLES)
    run = start_replay(setup, store)
    return run, await run.wait()


def per_node_kinds(events: list[ev.Event]) -> dict[str, list[str]]:
    """Each node's event kinds in order (what a replay must reproduce)."""
    out: dict[str, list[str]] = defaultdict(list)
    spans: dict[str, str] = {}
    for e in events:
        node = getattr(e, "node_id", None) or spans.get(e.parent_id or "") or spans.get(e.span_id or "")
        if isinstance(e, ev.NodeStateChanged) and e.span_id:
            spans[e.span_id] = e.node_id
        if isinstance(e, (ev.LLMCallStarted, ev.ToolCallStarted)) and e.span_id:
            spans[e.span_id] = e.node_id
        if node and not isinstance(e, (ev.RunStarted, ev.RunFinished, ev.RunPlanned)):
            out[node].append(e.kind)
    return dict(out)


def outputs_by_node(events: list[ev.Event]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = defaultdict(list)
    for e in events:
        if isinstance(e, ev.NodeOutput):
            out[e.node_id].append((e.port, e.value))
    return dict(out)
