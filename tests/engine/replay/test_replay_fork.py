"""Forking a recorded run at a node's execution: before the fork point served, the node and what
follows live (with its edits), the new run linked by fork_of / fork_at_seq."""

from __future__ import annotations

from typing import Any

import pytest

from engine import events as ev
from engine.llm.sim import SimGateway
from engine.llm.types import DeltaCallback, LLMRequest, LLMResponse
from engine.replay import ForkError, downstream, fork_point, load_source, prepare_fork, start_replay
from engine.store import TraceStore
from tests.engine.replay.replay_helpers import EXAMPLES, outputs_by_node, record


class CountingSim(SimGateway):
    def __init__(self) -> None:
        super().__init__()
        self.nodes: list[str] = []

    async def complete(self, request: LLMRequest, on_delta: DeltaCallback | None = None) -> LLMResponse:
        self.nodes.append(str(request.metadata.get("node_id")))
        return await super().complete(request, on_delta)


async def _fork(store: TraceStore, run_id: str, at: str, **edits: Any) -> tuple[CountingSim, Any, Any]:
    live = CountingSim()
    setup, point = prepare_fork(store, load_source(store, run_id), at, live=live, base_dir=EXAMPLES, **edits)
    run = start_replay(setup, store)
    return live, point, await run.wait()


@pytest.mark.asyncio
async def test_a_fork_serves_what_came_before_and_runs_the_node_and_what_follows_live(store: TraceStore) -> None:
    source = await record(store, "triad")
    live, point, result = await _fork(store, source.run_id, "executor", prompt="Answer in one short line: {task}")
    assert result.status == "succeeded", result.reason
    assert set(live.nodes) <= {"executor", "critic"} and "executor" in live.nodes and "planner" not in live.nodes
    before, after = outputs_by_node(list(store.iter_events(source.run_id))), \
        outputs_by_node(list(store.iter_events(result.run_id)))
    assert after["planner"] == before["planner"]  # nothing before the fork point changes
    assert after["executor"] != before["executor"]  # the edited node ran live
    summary = store.get_run(result.run_id)
    assert summary is not None and summary.fork_of == source.run_id and summary.fork_at_seq == point.seq


@pytest.mark.asyncio
async def test_a_fork_at_a_later_execution_serves_the_earlier_ones(store: TraceStore) -> None:
    source = await record(store, "research")
    events = list(store.iter_events(source.run_id))
    first, second = fork_point(events, "planner"), fork_point(events, "planner#2")
    assert first.seq < second.seq
    live, _, result = await _fork(store, source.run_id, "planner#2")
    assert result.status == "succeeded" and result.outputs == source.outputs  # same sim answers live
    assert live.nodes and live.nodes[0] == "planner"
    calls = [e for e in store.iter_events(result.run_id) if isinstance(e, ev.LLMCallStarted)]
    assert len(calls) > len(live.nodes)  # the first round was served


@pytest.mark.asyncio
async def test_a_fork_point_that_never_happened_is_refused(store: TraceStore) -> None:
    source = await record(store, "triad")
    events = list(store.iter_events(source.run_id))
    with pytest.raises(ForkError, match="no node 'nope'"):
        fork_point(events, "nope")
    with pytest.raises(ForkError, match="ran 1 time"):
        fork_point(events, "planner#3")
    with pytest.raises(ForkError, match="whole number"):
        fork_point(events, "planner#x")


@pytest.mark.asyncio
async def test_a_fork_at_an_event_starts_at_its_nodes_execution(store: TraceStore) -> None:
    source = await record(store, "research")
    events = list(store.iter_events(source.run_id))
    second = fork_point(events, "planner#2")
    call = next(e for e in events if isinstance(e, ev.LLMCallFinished) and e.seq > second.seq and e.node_id == "planner")
    assert fork_point(events, str(call.seq)) == second
    with pytest.raises(ForkError, match="no event 99999"):
        fork_point(events, "99999")
    with pytest.raises(ForkError, match="not inside a node's execution"):
        fork_point(events, "1")


def test_downstream_follows_edges_and_loops() -> None:
    doc = {"edges": [{"source": "a", "target": "b"}, {"source": "b", "target": "c"}, {"source": "c", "target": "b"},
                     {"source": "x", "target": "c"}]}
    assert downstream(doc, "b") == {"b", "c"}
    assert downstream(doc, "a") == {"a", "b", "c"}


class NoOpenAIKey(SimGateway):
    def missing_key(self, model: str, api_base: str | None = None) -> str | None:
        return "openai: no API key" if model.startswith("openai/") else None


@pytest.mark.asyncio
async def test_a_fork_whose_live_nodes_lack_a_key_is_refused_before_it_runs(store: TraceStore) -> None:
    source = await record(store, "triad")
    with pytest.raises(ForkError, match=r"Review \(critic\): openai: no API key"):
        prepare_fork(store, load_source(store, source.run_id), "critic", live=NoOpenAIKey(),
                     model="openai/gpt-4o-mini", base_dir=EXAMPLES)
    # no provider model among the nodes it runs live: nothing is missing
    setup, _ = prepare_fork(store, load_source(store, source.run_id), "critic", live=NoOpenAIKey(),
                            base_dir=EXAMPLES)
    assert setup.lineage["fork_of"] == source.run_id
