"""Replay keys calls by node path: two copies of the triad as sub-graphs running side by side replay
each inner call to its own copy, and a divergence inside one names the inner node by its path."""

from __future__ import annotations

import json

import pytest

from engine import events as ev
from engine.graph.format import workflow_from_dict
from engine.llm.sim import SimGateway
from engine.replay import load_source, prepare_replay, start_replay
from engine.runtime import Run, compile_workflow
from engine.store import TraceStore
from tests.engine.replay.replay_helpers import EXAMPLES, NoProvider, outputs_by_node, replay
from tests.engine.runtime.fakes import build


def _twin_triads() -> object:
    inner = json.loads((EXAMPLES / "triad.triadic.json").read_text())
    return build([("i", "input", {"name": "goal", "default": "Plan a garden"}),
                  ("a", "subgraph", {"graph": inner}), ("b", "subgraph", {"graph": inner}),
                  ("oa", "output", {"name": "a"}), ("ob", "output", {"name": "b"})],
                 ["i.value->a.input", "i.value->b.input", "a.output->oa.value", "b.output->ob.value"])


async def _recorded(store: TraceStore) -> str:
    run = Run(compile_workflow(_twin_triads()), gateway=SimGateway(), store=store)  # type: ignore[arg-type]
    result = await run.wait()
    assert result.status == "succeeded", result.reason
    assert {e.node_id for e in run.hub.history if isinstance(e, ev.LLMCallStarted)} >= {"a/executor", "b/critic"}
    return result.run_id


@pytest.mark.asyncio
async def test_parallel_sub_graphs_replay_to_their_own_paths(store: TraceStore) -> None:
    run_id = await _recorded(store)
    NoProvider.calls = 0
    run, result = await replay(store, run_id, live=NoProvider())
    assert NoProvider.calls == 0 and result.status == "succeeded"
    before, after = list(store.iter_events(run_id)), list(store.iter_events(result.run_id))
    assert outputs_by_node(after) == outputs_by_node(before)
    assert run._gateway.served == sum(isinstance(e, ev.LLMCallStarted) for e in before)  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_divergence_inside_a_sub_graph_names_the_inner_node(store: TraceStore) -> None:
    run_id = await _recorded(store)
    source = load_source(store, run_id)
    call = next(c for c in source.recording.llm.values() if c.node_id == "b/critic")
    call.hash = "tampered"
    run = start_replay(prepare_replay(source, live=NoProvider()), store)  # type: ignore[arg-type]
    result = await run.wait()
    [diverged] = [e for e in run.hub.history if isinstance(e, ev.ReplayDiverged)]
    assert diverged.node_id == "b/critic" and result.status == "failed"
    assert workflow_from_dict(source.document).nodes["b"].role == "subgraph"
